import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createLimit } from '../../plugins/rate-limits.ts';
import { UserSchema } from '../users/users.schemas.ts';
import type { UsersService } from '../users/users.service.ts';
import { LoginBody, LogoutBody, RefreshBody, TokenPairSchema } from './auth.schemas.ts';
import type { AuthService } from './auth.service.ts';

const PER_IP_PER_MINUTE = 60;

export async function authRoutes(app: FastifyInstance, deps: { auth: AuthService; users: UsersService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // Any one address gets 60 attempts a minute, valid or not, whoever's account they name.
  const loginPerIp = createLimit(app, {
    policy: 'login',
    max: PER_IP_PER_MINUTE,
    windowSeconds: 60,
    key: (request) => `login-ip:${request.ip}`,
    message: `Sign-in is limited to ${PER_IP_PER_MINUTE} attempts a minute from one address`,
  });
  const refreshPerIp = createLimit(app, {
    policy: 'refresh',
    max: PER_IP_PER_MINUTE,
    windowSeconds: 60,
    key: (request) => `refresh-ip:${request.ip}`,
    message: `Token refresh is limited to ${PER_IP_PER_MINUTE} attempts a minute from one address`,
  });

  r.post(
    '/auth/login',
    {
      config: { public: true },
      onRequest: loginPerIp,
      schema: {
        tags: ['auth'],
        operationId: 'login', summary: 'Sign in with e-mail and password',
        body: LoginBody,
        response: { 200: TokenPairSchema },
      },
    },
    (request) => deps.auth.login({ ...request.body, ip: request.ip }),
  );

  r.post(
    '/auth/refresh',
    {
      config: { public: true },
      onRequest: refreshPerIp,
      schema: {
        tags: ['auth'],
        operationId: 'refreshTokens', summary: 'Exchange a refresh token for a new token pair (the old refresh token is used up)',
        body: RefreshBody,
        response: { 200: TokenPairSchema },
      },
    },
    (request) => deps.auth.refresh(request.body.refresh_token),
  );

  r.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        operationId: 'logout', summary: "Sign out: revokes this access token and its session's refresh tokens",
        body: Type.Optional(LogoutBody),
        response: { 204: Type.Null({ description: 'Signed out' }) },
      },
    },
    async (request, reply) => {
      await deps.auth.logout(request.actor, request.body?.refresh_token);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/auth/me',
    { schema: { tags: ['auth'], operationId: 'getCurrentUser', summary: 'The signed-in user', response: { 200: UserSchema } } },
    (request) => deps.users.getUser(request.actor.sub),
  );
}
