import type { FastifyBaseLogger } from 'fastify';
import { conflict, forbidden, invalid, unauthorized } from '../../lib/problem.ts';
import { hashPassword } from './passwords.ts';
import type { UsersRepo } from './users.repo.ts';
import type { CreateUserInput, ListedUser, User } from './users.schemas.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

/** IANA zone names as this runtime's ICU knows them (its canonical list, plus UTC). */
const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
/** Whether a name is a time zone ICU knows ("Europe/Lisbon"; also aliases such as "Asia/Calcutta", which Intl accepts). */
function isTimeZone(name: string): boolean {
  if (TIME_ZONES.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return /^[A-Za-z]+(?:[/_+-][A-Za-z0-9]+)*$/.test(name);
  } catch {
    return false;
  }
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

type ListedRow = Omit<ListedUser, 'sign_in' | 'disabled'> & { has_password: unknown; has_google: unknown; disabled: unknown };
const listed = (u: ListedRow): ListedUser => ({
  id: u.id, email: u.email, name: u.name, role: u.role, created_at: u.created_at,
  sign_in: [...(u.has_password ? ['password' as const] : []), ...(u.has_google ? ['google' as const] : [])],
  disabled: Boolean(u.disabled),
});

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

  async function requireAdmin(userId: string): Promise<User> {
    const user = await repo.findById(userId);
    if (!user) throw unauthorized('The account for this token no longer exists');
    if (user.role !== 'admin') throw forbidden('This operation needs the admin role');
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

    /** Every account, for an admin (403 for anyone else). */
    async listUsers(actorId: string, query: { page?: number | undefined; page_size?: number | undefined }) {
      await requireAdmin(actorId);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const { items, total } = await repo.page(page, pageSize);
      return { items: items.map(listed), total, page, page_size: pageSize };
    },

    /** One account as an admin's list shows it, or undefined. */
    async findListed(userId: string, trx?: Kysely<DB>): Promise<ListedUser | undefined> {
      const row = await repo.findListed(userId, trx);
      return row && listed(row);
    },

    /** The caller's own account with what signing in needs (password hash, disabled). */
    findAccount: (userId: string) => repo.findCredentialsById(userId),

    async preferences(userId: string) {
      const row = await repo.preferences(userId);
      if (!row) throw unauthorized('The account for this token no longer exists');
      return row;
    },

    /** Changes the preferences given (an absent one stays as it is); a time zone must be one this runtime knows. */
    async setPreferences(userId: string, values: { time_zone?: string | null | undefined }) {
      const current = await repo.preferences(userId);
      if (!current) throw unauthorized('The account for this token no longer exists');
      const next = { time_zone: values.time_zone === undefined ? current.time_zone : values.time_zone };
      if (next.time_zone !== null && !isTimeZone(next.time_zone)) throw invalid('/body/time_zone', 'must be an IANA time zone name such as Europe/Lisbon or America/New_York');
      // Stored as ICU spells it ("europe/lisbon" is Europe/Lisbon): the web app's list finds it.
      if (next.time_zone !== null) next.time_zone = new Intl.DateTimeFormat('en', { timeZone: next.time_zone }).resolvedOptions().timeZone;
      const row = await repo.setPreferences(userId, next);
      if (!row) throw unauthorized('The account for this token no longer exists');
      return row;
    },

    async rename(userId: string, name: string): Promise<User> {
      const user = await repo.updateName(userId, name.trim());
      if (!user) throw unauthorized('The account for this token no longer exists');
      return user;
    },

    /** Sets a new password (already hashed); false when the account is gone or disabled. */
    setPasswordHash: (userId: string, passwordHash: string, trx?: Kysely<DB>) => repo.setPasswordHash(userId, passwordHash, trx),
    /** The account's address is proven: a reset link e-mailed to it was used. */
    markEmailProven: (userId: string, trx?: Kysely<DB>) => repo.markEmailProven(userId, trx),
    /** Whether the account exists. */
    setDisabled: (userId: string, disabled: boolean, trx?: Kysely<DB>) => repo.setDisabled(userId, disabled, trx),

    requireAdmin,

    /** A fresh account under this e-mail: any account it had is deleted with all it owns (`npm run demo` starts over). */
    async recreateUser(input: CreateUserInput): Promise<User> {
      await repo.deleteByEmail(normalizeEmail(input.email));
      return createUser(input);
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
