import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ProblemError } from '../../lib/problem.ts';
import { bearerToken } from '../../plugins/authenticate.ts';
import { createLimit } from '../../plugins/rate-limits.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { UsersService } from '../users/users.service.ts';
import {
  AcceptedSchema, AcceptInvitationBody, CreatedInvitationSchema, CreateInvitationBody, CreateWorkspaceBody, InvitationListSchema,
  InvitationParams, InvitationPreviewSchema, MemberListSchema, MemberParams, MemberSchema, TokenParams, UpdateMemberBody, UpdateWorkspaceBody, WorkspaceListSchema,
  WorkspaceParams, WorkspaceSchema,
} from './workspaces.schemas.ts';
import type { WorkspacesService } from './workspaces.service.ts';

/**
 * Each invitation e-mails an address the sender names: so that nobody can mail-bomb an address (or run up the SMTP
 * account) through it, a member sends at most `perUser` invitations (new or resent) an hour, and one invitation is
 * resent at most `resendsPerInvitation` times an hour.
 */
export const INVITATION_LIMITS = { perUser: 50, resendsPerInvitation: 3, windowSeconds: 3600 } as const;

export async function workspacesRoutes(app: FastifyInstance, deps: { workspaces: WorkspacesService; auth: AuthService; users: UsersService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { workspaces } = deps;
  const tags = ['workspaces'];
  const mailPerUser = createLimit(app, {
    policy: 'invitation-mail', max: INVITATION_LIMITS.perUser, windowSeconds: INVITATION_LIMITS.windowSeconds,
    key: (request) => `invitation-mail:${request.actor.sub}`,
    message: `Invitations (new or resent) are limited to ${INVITATION_LIMITS.perUser} an hour for one member`,
  });
  // After validation (a preHandler), so the key is a well-formed invitation id. Counted per member too: it runs before the
  // role check, and someone who may not resend it must not use up the budget of an admin who may.
  const resendPerInvitation = createLimit(app, {
    policy: 'invitation-resend', max: INVITATION_LIMITS.resendsPerInvitation, windowSeconds: INVITATION_LIMITS.windowSeconds,
    key: (request) => `invitation-resend:${request.actor.sub}:${(request.params as { invitation_id: string }).invitation_id}`,
    message: `One invitation can be resent ${INVITATION_LIMITS.resendsPerInvitation} times an hour`,
  });

  r.get('/workspaces', {
    schema: { tags, operationId: 'listWorkspaces', summary: 'The workspaces the caller is a member of, with the caller\'s role', response: { 200: WorkspaceListSchema } },
  }, (request) => workspaces.list(request.actor.sub));

  r.post('/workspaces', {
    schema: { tags, operationId: 'createWorkspace', summary: 'Create a workspace (an agency\'s client, a team); the caller is its owner', body: CreateWorkspaceBody, response: { 201: WorkspaceSchema } },
  }, async (request, reply) => reply.code(201).send(await workspaces.create(request.actor.sub, request.body.name)));

  r.get('/workspaces/:workspace_id', {
    schema: { tags, operationId: 'getWorkspace', summary: 'A workspace the caller is a member of', params: WorkspaceParams, response: { 200: WorkspaceSchema } },
  }, (request) => workspaces.get(request.actor.sub, request.params.workspace_id));

  r.patch('/workspaces/:workspace_id', {
    schema: { tags, operationId: 'updateWorkspace', summary: 'Rename a workspace (admin)', params: WorkspaceParams, body: UpdateWorkspaceBody, response: { 200: WorkspaceSchema } },
  }, (request) => workspaces.rename(request.actor.sub, request.params.workspace_id, request.body.name));

  r.delete('/workspaces/:workspace_id', {
    schema: { tags, operationId: 'deleteWorkspace', summary: 'Delete a shared workspace that holds no site (owner)', params: WorkspaceParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    await workspaces.remove(request.actor.sub, request.params.workspace_id);
    return reply.code(204).send(null);
  });

  r.get('/workspaces/:workspace_id/members', {
    schema: { tags, operationId: 'listMembers', summary: 'The workspace\'s members and their roles', params: WorkspaceParams, response: { 200: MemberListSchema } },
  }, (request) => workspaces.members(request.actor.sub, request.params.workspace_id));

  r.patch('/workspaces/:workspace_id/members/:user_id', {
    schema: { tags, operationId: 'updateMember', summary: 'Change a member\'s role (admin; owner to make or unmake an owner)', params: MemberParams, body: UpdateMemberBody, response: { 200: MemberSchema } },
  }, (request) => workspaces.setRole(request.actor.sub, request.params.workspace_id, request.params.user_id, request.body.role));

  r.delete('/workspaces/:workspace_id/members/:user_id', {
    schema: { tags, operationId: 'removeMember', summary: 'Remove a member (admin; owner for an owner), or leave (one\'s own id)', params: MemberParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    await workspaces.removeMember(request.actor.sub, request.params.workspace_id, request.params.user_id);
    return reply.code(204).send(null);
  });

  r.get('/workspaces/:workspace_id/invitations', {
    schema: { tags, operationId: 'listInvitations', summary: 'The workspace\'s invitations, newest first (admin)', params: WorkspaceParams, response: { 200: InvitationListSchema } },
  }, (request) => workspaces.invitations(request.actor.sub, request.params.workspace_id));

  r.post('/workspaces/:workspace_id/invitations', {
    onRequest: mailPerUser,
    schema: { tags, operationId: 'createInvitation', summary: 'Invite someone by e-mail with a role: a single-use link valid 7 days, e-mailed to them and answered once (admin; owner to invite an owner)', params: WorkspaceParams, body: CreateInvitationBody, response: { 201: CreatedInvitationSchema } },
  }, async (request, reply) => reply.code(201).send(await workspaces.invite(request.actor.sub, request.params.workspace_id, request.body)));

  r.post('/workspaces/:workspace_id/invitations/:invitation_id/resend', {
    onRequest: mailPerUser,
    preHandler: resendPerInvitation,
    schema: {
      tags, operationId: 'resendInvitation',
      summary: 'E-mail an invitation again with a new link (the old one stops working) valid 7 days from now (admin; owner for an owner\'s); '
        + '409 once accepted or revoked',
      params: InvitationParams, response: { 200: CreatedInvitationSchema },
    },
  }, (request) => workspaces.resendInvitation(request.actor.sub, request.params.workspace_id, request.params.invitation_id));

  r.delete('/workspaces/:workspace_id/invitations/:invitation_id', {
    schema: { tags, operationId: 'revokeInvitation', summary: 'Revoke a pending invitation (admin)', params: InvitationParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    await workspaces.revokeInvitation(request.actor.sub, request.params.workspace_id, request.params.invitation_id);
    return reply.code(204).send(null);
  });

  r.get('/invitations/:token', {
    config: { public: true },
    schema: {
      tags, operationId: 'getInvitation', summary: 'What an invitation link offers (the workspace, the role, who invited): the link is the key, no sign-in',
      params: TokenParams, response: { 200: InvitationPreviewSchema },
    },
  }, (request) => workspaces.preview(request.params.token));

  // Public: someone invited may have no account yet. A bearer token, when sent, must be valid: the caller then joins as themself.
  r.post('/invitations/:token/accept', {
    config: { public: true },
    schema: {
      tags, operationId: 'acceptInvitation',
      summary: 'Accept an invitation: signed in (the invitation\'s e-mail), or with a name and password for a new account',
      params: TokenParams, body: AcceptInvitationBody, response: { 200: AcceptedSchema },
    },
  }, async (request) => {
    const token = bearerToken(request);
    let caller: { userId: string; email: string } | null = null;
    if (token) {
      const claims = await deps.auth.authenticate(token);
      if (!claims) throw new ProblemError('unauthorized', 'The access token is invalid, expired or revoked', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
      caller = { userId: claims.sub, email: (await deps.users.getUser(claims.sub)).email };
    }
    return workspaces.accept(request.params.token, caller, request.body ?? {}, request.ip);
  });
}
