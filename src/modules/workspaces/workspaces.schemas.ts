import { Type, type Static } from 'typebox';
import { DisplayName, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { ROLES } from './roles.ts';
import { PASSWORD_MIN_LENGTH } from '../users/users.schemas.ts';

const role = StringEnum(ROLES, {
  description: 'owner: everything, owners, moving sites out and deleting the workspace; admin: members other than owners, connectors, site settings; '
    + 'editor: audits, approve, cancel, retry, roll back; viewer: read only',
});
const name = DisplayName('Display name (an agency\'s client, a team)');

export const WorkspaceSchema = Type.Object({
  id: Uuid({ description: 'Workspace identifier' }),
  name,
  personal: Type.Boolean({ description: 'The caller\'s own workspace, made with the account: it cannot be shared or deleted' }),
  role: StringEnum(ROLES, { description: 'The caller\'s role in it' }),
  member_count: Type.Integer({ minimum: 1 }),
  site_count: Type.Integer({ minimum: 0 }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export const WorkspaceListSchema = Type.Object({ items: Type.Array(WorkspaceSchema), total: Type.Integer({ minimum: 0 }) });

export const CreateWorkspaceBody = Type.Object({ name }, { additionalProperties: false });
export const UpdateWorkspaceBody = Type.Object({ name }, { additionalProperties: false });

export const MemberSchema = Type.Object({
  user_id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  role,
  joined_at: Timestamp(),
});
export const MemberListSchema = Type.Object({ items: Type.Array(MemberSchema), total: Type.Integer({ minimum: 0 }) });
export const UpdateMemberBody = Type.Object({ role }, { additionalProperties: false });

export const WorkspaceParams = Type.Object({ workspace_id: Uuid() });
export const MemberParams = Type.Object({ workspace_id: Uuid(), user_id: Uuid() });
export const InvitationParams = Type.Object({ workspace_id: Uuid(), invitation_id: Uuid() });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) });

export const CreateInvitationBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role,
}, { additionalProperties: false });

export const InvitationSchema = Type.Object({
  id: Uuid(),
  workspace_id: Uuid(),
  email: Type.String(),
  role,
  status: StringEnum(['pending', 'accepted', 'revoked', 'expired'] as const),
  expires_at: Timestamp(),
  created_at: Timestamp(),
});
/** The invitation as created: its single-use link, shown once (only its hash is kept). */
export const CreatedInvitationSchema = Type.Object({
  ...InvitationSchema.properties,
  token: Type.String({ description: 'Single-use, valid 7 days; only shown here' }),
  link: Type.String({ description: 'The web app\'s page that accepts it' }),
});
/** GET /invitations/{token}: what the link offers, shown to its holder before accepting. */
export const InvitationPreviewSchema = Type.Object({
  ...InvitationSchema.properties,
  workspace_name: Type.String(),
  invited_by: Type.Union([Type.String(), Type.Null()], { description: 'The name of the member who invited (null once that account is gone)' }),
});
export const InvitationListSchema = Type.Object({ items: Type.Array(InvitationSchema), total: Type.Integer({ minimum: 0 }) });

/** Accepting: a signed-in user sends nothing; someone without an account sends a name and a password for a new one. */
export const AcceptInvitationBody = Type.Optional(Type.Union([
  Type.Object({
    name: Type.Optional(DisplayName('Your name, for a new account')),
    password: Type.Optional(Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 })),
  }, { additionalProperties: false }),
  Type.Null(),
]));
export const AcceptedSchema = Type.Object({
  workspace: WorkspaceSchema,
  /** Tokens of the account made on accepting (absent for a signed-in user). */
  access_token: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.Literal('bearer')),
  expires_in: Type.Optional(Type.Integer()),
});

export type CreateInvitationInput = Static<typeof CreateInvitationBody>;
export type AcceptInvitationInput = { name?: string | undefined; password?: string | undefined };
