import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Transact } from '../../db/transact.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { conflict, invalid, notFound, unauthorized } from '../../lib/problem.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AccessClaims } from '../auth/access-tokens.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { resetTokenContext } from '../notifications/notifications.service.ts';
import { hashPassword, verifyPassword } from '../users/passwords.ts';
import type { ListedUser, User } from '../users/users.schemas.ts';
import { normalizeEmail, type UsersService } from '../users/users.service.ts';
import type { AccountsRepo, ResetTokenState } from './accounts.repo.ts';
import type { OwnerlessWorkspace } from './accounts.schemas.ts';
import { hashResetToken, newResetToken, RESET_TOKEN_MINUTES } from './reset-tokens.ts';

interface Deps {
  repo: AccountsRepo;
  users: UsersService;
  auth: Pick<AuthService, 'endSessions' | 'applyRevocations' | 'clearLoginFailures'>;
  queue: JobSender;
  transact: Transact;
  secrets: SecretBox;
  log: FastifyBaseLogger;
}

export const RESET_REQUESTED_MESSAGE =
  `If an account exists for this address, we sent it a link to choose a new password. The link works for ${RESET_TOKEN_MINUTES} minutes.`;

const UNUSABLE: Record<Exclude<ResetTokenState, 'usable'>, string> = {
  unknown: 'This reset link is not valid: ask for a new one',
  used: 'This reset link has already been used: ask for a new one',
  expired: `This reset link has expired (links work for ${RESET_TOKEN_MINUTES} minutes): ask for a new one`,
};
const unusableToken = (state: Exclude<ResetTokenState, 'usable'>) => invalid('/body/token', UNUSABLE[state]);

/**
 * An account's life after it is made: a forgotten password reset by e-mail, the password and
 * name changed by their owner, every session ended at once, and an admin disabling it.
 */
export function createAccountsService(deps: Deps) {
  const { repo, users, auth } = deps;

  /** Ends every session of the account but `keep`, in `trx`, and its reset links; the sessions ended. */
  const endEverything = async (userId: string, trx: Kysely<DB>, keep?: string) => {
    await repo.expireAll(userId, trx);
    return auth.endSessions(userId, { keep }, trx);
  };

  return {
    /**
     * Whatever the address, one job is sent and the same answer given: whether it has an account
     * shows neither in the answer nor in its timing (issuePasswordReset does the rest).
     */
    async requestPasswordReset(email: string): Promise<{ message: string }> {
      await deps.queue.send('account.reset-password', { email: normalizeEmail(email) });
      return { message: RESET_REQUESTED_MESSAGE };
    },

    /** The job: a link for the account with this address, when it has one that may sign in. */
    async issuePasswordReset(email: string): Promise<void> {
      const account = await users.findCredentials(email);
      if (!account || account.disabled) return;
      const id = randomUUID();
      const token = newResetToken();
      // The link and its e-mail job commit together: never a link that no mail will carry.
      await deps.transact(async (trx) => {
        await repo.insertReset({ id, userId: account.id, tokenHash: hashResetToken(token), validMinutes: RESET_TOKEN_MINUTES }, trx);
        await deps.queue.send('mail.password-reset', {
          userId: account.id, resetId: id, token: deps.secrets.seal(token, resetTokenContext(id)), validMinutes: RESET_TOKEN_MINUTES,
        }, { tx: trx });
      });
      deps.log.info({ userId: account.id, resetId: id }, 'password reset link made');
    },

    /** A new password from an e-mailed link: the link is used up, and every session of the account ends. */
    async confirmPasswordReset(input: { token: string; password: string; ip: string }): Promise<void> {
      const tokenHash = hashResetToken(input.token);
      const state = await repo.stateOf(tokenHash);
      if (state !== 'usable') throw unusableToken(state);
      // argon2 before the transaction, which then holds the account's row only for a few statements.
      const passwordHash = await hashPassword(input.password);
      const reset = await deps.transact(async (trx) => {
        const owner = await repo.consume(tokenHash, trx);
        if (!owner) return undefined; // another request used it, or it expired, meanwhile
        // A disabled account keeps its password: the transaction rolls back and the link stays unused.
        if (!(await users.setPasswordHash(owner, passwordHash, trx))) throw unusableToken('unknown');
        await users.markEmailProven(owner, trx);
        return { userId: owner, sessions: await endEverything(owner, trx) };
      });
      if (!reset) throw unusableToken(await repo.stateOf(tokenHash) === 'expired' ? 'expired' : 'used');
      const { userId } = reset;
      auth.applyRevocations(reset.sessions);
      const account = await users.findAccount(userId);
      if (account) await auth.clearLoginFailures(account.email, input.ip);
      deps.log.info({ userId }, 'password reset: every session ended');
    },

    /** The caller's new password; their other sessions end, this one goes on. */
    async changePassword(actor: AccessClaims, input: { current_password: string; new_password: string }): Promise<void> {
      const account = await users.findAccount(actor.sub);
      if (!account) throw unauthorized('The account for this token no longer exists');
      if (!account.passwordHash) {
        throw conflict('This account signs in with Google and has no password to change: to add one, use "Forgot password?" on the sign-in page');
      }
      if (!(await verifyPassword(account.passwordHash, input.current_password))) {
        throw invalid('/body/current_password', 'This is not your current password');
      }
      const passwordHash = await hashPassword(input.new_password);
      const sessions = await deps.transact(async (trx) => {
        if (!(await users.setPasswordHash(actor.sub, passwordHash, trx))) throw unauthorized('This account has been disabled');
        return endEverything(actor.sub, trx, actor.sid);
      });
      auth.applyRevocations(sessions);
    },

    rename: (actor: AccessClaims, name: string): Promise<User> => users.rename(actor.sub, name),
    preferences: (actor: AccessClaims) => users.preferences(actor.sub),
    setPreferences: (actor: AccessClaims, values: { time_zone?: string | null | undefined }) => users.setPreferences(actor.sub, values),

    /** Every session of the caller ends, the one this token belongs to included. */
    async signOutEverywhere(actor: AccessClaims): Promise<void> {
      auth.applyRevocations(await deps.transact((trx) => auth.endSessions(actor.sub, {}, trx)));
    },

    /**
     * An admin disables an account (it cannot sign in, and its sessions, access tokens and reset
     * links stop working at once) or enables it again (it signs in anew). 403 for anyone else
     * before anything else is said, 404 for no such account. Disabling the only active owner of
     * a shared workspace still happens at once (the account may be compromised); the answer
     * names those workspaces, where nobody can now make an owner or delete the workspace, so
     * the admin knows to act (enable it again once safe).
     */
    async setDisabled(actorId: string, userId: string, disabled: boolean): Promise<ListedUser & { ownerless_workspaces: OwnerlessWorkspace[] }> {
      await users.requireAdmin(actorId);
      if (disabled && userId === actorId) throw conflict('You cannot disable your own account: another admin can');
      const done = await deps.transact(async (trx) => {
        if (!(await users.setDisabled(userId, disabled, trx))) return undefined;
        const sessions = disabled ? await endEverything(userId, trx) : [];
        return { account: await users.findListed(userId, trx), sessions, ownerless: await repo.ownerlessWorkspacesOf(userId, trx) };
      });
      if (!done?.account) throw notFound('User');
      const { account } = done;
      auth.applyRevocations(done.sessions);
      const ownerless = done.ownerless.map((w) => ({ id: w.id, name: w.name, members: Number(w.members) }));
      deps.log.info({ actorId, userId, ownerless: ownerless.map((w) => w.id) }, disabled ? 'account disabled' : 'account enabled');
      return { ...account, ownerless_workspaces: ownerless };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
