import { Type, type Static } from 'typebox';
import { DisplayName, Nullable, Uuid } from '../../lib/schema.ts';
import { ListedUserSchema, PasswordField } from '../users/users.schemas.ts';

export const PasswordResetRequestBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254, description: "The account's e-mail address" }) },
  { additionalProperties: false },
);

export const PasswordResetAccepted = Type.Object(
  { message: Type.String() },
  { description: 'The same answer whether or not the address has an account' },
);

export const PasswordResetConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 512, description: 'The token of the e-mailed link (its `token` query parameter)' }),
    password: PasswordField('The new password'),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: PasswordField(),
  },
  { additionalProperties: false },
);

export const UpdateMeBody = Type.Object(
  // At least one character that is not a space: the name is stored trimmed.
  { name: DisplayName() },
  { additionalProperties: false },
);

export const PreferencesSchema = Type.Object({
  time_zone: Nullable(Type.String({ description: 'The IANA time zone dates are shown in (e.g. Europe/Lisbon); null: the browser\'s. Search Console\'s days stay Pacific Time' })),
}, { description: "The signed-in person's preferences" });
export const UpdatePreferencesBody = Type.Object({
  time_zone: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone name, or null for the browser\'s' }))),
}, { additionalProperties: false, minProperties: 1 });

export const UserIdParams = Type.Object({ user_id: Uuid() }, { additionalProperties: false });

export const UpdateUserBody = Type.Object(
  { disabled: Type.Boolean({ description: 'true disables the account (it cannot sign in; its sessions end at once), false enables it again' }) },
  { additionalProperties: false },
);

const OwnerlessWorkspaceSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  members: Type.Integer({ minimum: 2, description: 'Members, the disabled owner included' }),
});
export type OwnerlessWorkspace = Static<typeof OwnerlessWorkspaceSchema>;

export const UpdatedUserSchema = Type.Object({
  ...ListedUserSchema.properties,
  ownerless_workspaces: Type.Array(OwnerlessWorkspaceSchema, {
    description: 'Shared workspaces this account owns where no owner with an active account is left (after this change): '
      + 'their members go on working, but nobody can make a new owner or delete the workspace until the account is enabled again. Empty when enabling',
  }),
}, { description: 'The account after the change' });
