import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Paged } from '../../lib/pagination.ts';
import { CreateUserBody, ListedUserSchema, ListUsersQuery, UserSchema } from './users.schemas.ts';
import type { UsersService } from './users.service.ts';

export async function usersRoutes(app: FastifyInstance, deps: { users: UsersService }) {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/admin/users',
    {
      schema: {
        tags: ['admin'],
        operationId: 'createUser', summary: 'Create an account (admins only)',
        body: CreateUserBody,
        response: { 201: UserSchema },
      },
    },
    async (request, reply) => {
      await deps.users.requireAdmin(request.actor.sub);
      return reply.code(201).send(await deps.users.createUser(request.body));
    },
  );
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/admin/users',
    {
      schema: {
        tags: ['admin'],
        operationId: 'listUsers', summary: 'Every account, oldest first, with how it signs in (admins only)',
        querystring: ListUsersQuery,
        response: { 200: Paged(ListedUserSchema) },
      },
    },
    (request) => deps.users.listUsers(request.actor.sub, request.query),
  );
}
