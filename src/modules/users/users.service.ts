import type { FastifyBaseLogger } from 'fastify';
import { conflict, forbidden, unauthorized } from '../../lib/problem.ts';
import { hashPassword } from './passwords.ts';
import type { UsersRepo } from './users.repo.ts';
import type { CreateUserInput, User } from './users.schemas.ts';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createUsersService(deps: { repo: UsersRepo }) {
  const { repo } = deps;

  async function createUser(input: CreateUserInput): Promise<User> {
    const email = normalizeEmail(input.email);
    // Hash before the insert so the conflict check and the write are one statement.
    const passwordHash = await hashPassword(input.password);
    const user = await repo.insert({ email, name: input.name.trim(), role: input.role ?? 'user', passwordHash });
    if (!user) throw conflict(`An account with the e-mail ${email} already exists`);
    return user;
  }

  return {
    createUser,

    async getUser(userId: string): Promise<User> {
      const user = await repo.findById(userId);
      // The token was valid but its account is gone: the caller is no longer anyone.
      if (!user) throw unauthorized('The account for this token no longer exists');
      return user;
    },

    async requireAdmin(userId: string): Promise<User> {
      const user = await repo.findById(userId);
      if (!user) throw unauthorized('The account for this token no longer exists');
      if (user.role !== 'admin') throw forbidden('This operation needs the admin role');
      return user;
    },

    findCredentials: (email: string) => repo.findCredentialsByEmail(normalizeEmail(email)),

    /** The user behind a verified Google identity: by Google subject, else by verified e-mail (linked), else new. */
    findOrCreateByGoogle: (identity: { sub: string; email: string; name: string }) => repo.findOrCreateByGoogle(identity),

    /** Creates the admin named by ADMIN_EMAIL/ADMIN_PASSWORD once; an existing account is left as it is. */
    async ensureBootstrapAdmin(email: string, password: string, log: FastifyBaseLogger): Promise<void> {
      if (await repo.existsByEmail(normalizeEmail(email))) return;
      const user = await repo.insert({
        email: normalizeEmail(email),
        name: 'Administrator',
        role: 'admin',
        passwordHash: await hashPassword(password),
      });
      if (user) log.info({ userId: user.id }, 'created the bootstrap admin account');
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
