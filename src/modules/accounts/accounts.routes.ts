import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createLimit } from '../../plugins/rate-limits.ts';
import { UserSchema } from '../users/users.schemas.ts';
import { normalizeEmail } from '../users/users.service.ts';
import {
  ChangePasswordBody, PasswordResetAccepted, PasswordResetConfirmBody, PasswordResetRequestBody, UpdatedUserSchema, UpdateMeBody, UpdateUserBody, UserIdParams, PreferencesSchema, UpdatePreferencesBody,
} from './accounts.schemas.ts';
import type { AccountsService } from './accounts.service.ts';

/** Reset e-mails: per address (whoever asks) and per client address, in 15 minutes. */
export const RESET_LIMITS = { perEmail: 5, perIp: 20, windowSeconds: 15 * 60 } as const;
/** Guesses of the current password with a stolen access token: per account, in 15 minutes. */
export const PASSWORD_CHANGE_LIMIT = { max: 10, windowSeconds: 15 * 60 } as const;
const CONFIRM_PER_IP_PER_MINUTE = 60;

const noContent = (description: string) => Type.Null({ description });

export async function accountsRoutes(app: FastifyInstance, deps: { accounts: AccountsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts } = deps;
  const quarterHour = `${RESET_LIMITS.windowSeconds / 60} minutes`;

  const resetPerIp = createLimit(app, {
    policy: 'password-reset-ip', max: RESET_LIMITS.perIp, windowSeconds: RESET_LIMITS.windowSeconds,
    key: (request) => `reset-ip:${request.ip}`,
    message: `Password resets are limited to ${RESET_LIMITS.perIp} requests in ${quarterHour} from one address`,
  });
  // After validation (a preHandler), so the key is the normalised address the request names.
  const resetPerEmail = createLimit(app, {
    policy: 'password-reset-email', max: RESET_LIMITS.perEmail, windowSeconds: RESET_LIMITS.windowSeconds,
    key: (request) => `reset-email:${normalizeEmail((request.body as { email: string }).email)}`,
    message: `Password resets are limited to ${RESET_LIMITS.perEmail} requests in ${quarterHour} for one e-mail address`,
  });
  const confirmPerIp = createLimit(app, {
    policy: 'password-reset-confirm', max: CONFIRM_PER_IP_PER_MINUTE, windowSeconds: 60,
    key: (request) => `reset-confirm-ip:${request.ip}`,
    message: `Password reset confirmations are limited to ${CONFIRM_PER_IP_PER_MINUTE} a minute from one address`,
  });
  const changePerUser = createLimit(app, {
    policy: 'password-change', max: PASSWORD_CHANGE_LIMIT.max, windowSeconds: PASSWORD_CHANGE_LIMIT.windowSeconds,
    key: (request) => `password-change:${request.actor.sub}`,
    message: `Password changes are limited to ${PASSWORD_CHANGE_LIMIT.max} attempts in ${PASSWORD_CHANGE_LIMIT.windowSeconds / 60} minutes`,
  });

  r.post('/auth/password-reset', {
    config: { public: true },
    onRequest: resetPerIp,
    preHandler: resetPerEmail,
    schema: {
      tags: ['auth'], operationId: 'requestPasswordReset',
      summary: 'Forgotten password: e-mails a single-use link (30 minutes) if the address has an account; the answer is the same either way',
      body: PasswordResetRequestBody, response: { 202: PasswordResetAccepted },
    },
  }, async (request, reply) => reply.code(202).send(await accounts.requestPasswordReset(request.body.email)));

  r.post('/auth/password-reset/confirm', {
    config: { public: true },
    onRequest: confirmPerIp,
    schema: {
      tags: ['auth'], operationId: 'confirmPasswordReset',
      summary: "Sets a new password with an e-mailed link's token and ends every session of the account; a used, expired or unknown token is 422",
      body: PasswordResetConfirmBody, response: { 204: noContent('Password changed: sign in with it') },
    },
  }, async (request, reply) => {
    await accounts.confirmPasswordReset({ ...request.body, ip: request.ip });
    return reply.code(204).send(null);
  });

  r.patch('/auth/me', {
    schema: {
      tags: ['auth'], operationId: 'updateCurrentUser', summary: "Changes the signed-in user's name",
      body: UpdateMeBody, response: { 200: UserSchema },
    },
  }, (request) => accounts.rename(request.actor, request.body.name));

  r.get('/auth/me/preferences', {
    schema: { tags: ['auth'], operationId: 'getPreferences', summary: "The signed-in person's preferences (the time zone dates are shown in)", response: { 200: PreferencesSchema } },
  }, (request) => accounts.preferences(request.actor));
  r.patch('/auth/me/preferences', {
    schema: {
      tags: ['auth'], operationId: 'updatePreferences', summary: "Changes the signed-in person's preferences: a time zone must be an IANA name (422 otherwise), null for the browser's",
      body: UpdatePreferencesBody, response: { 200: PreferencesSchema },
    },
  }, (request) => accounts.setPreferences(request.actor, request.body));

  r.put('/auth/me/password', {
    onRequest: changePerUser,
    schema: {
      tags: ['auth'], operationId: 'changePassword',
      summary: "Changes the signed-in user's password (the current one is required; 422 when it is wrong); their other sessions end",
      body: ChangePasswordBody, response: { 204: noContent('Password changed; this session goes on') },
    },
  }, async (request, reply) => {
    await accounts.changePassword(request.actor, request.body);
    return reply.code(204).send(null);
  });

  r.post('/auth/logout-all', {
    schema: {
      tags: ['auth'], operationId: 'logoutEverywhere', summary: 'Sign out everywhere: ends every session of the signed-in user, this one included',
      response: { 204: noContent('Every session ended') },
    },
  }, async (request, reply) => {
    await accounts.signOutEverywhere(request.actor);
    return reply.code(204).send(null);
  });

  r.patch('/admin/users/:user_id', {
    schema: {
      tags: ['admin'], operationId: 'updateUser',
      summary: 'Disables an account (it cannot sign in, its sessions end at once) or enables it again (admins only)',
      params: UserIdParams, body: UpdateUserBody, response: { 200: UpdatedUserSchema },
    },
  }, (request) => accounts.setDisabled(request.actor.sub, request.params.user_id, request.body.disabled));
}
