import { Type } from 'typebox';
import { Uuid } from '../../lib/schema.ts';
import { PasswordField } from '../users/users.schemas.ts';

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
  { name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Display name' }) },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ user_id: Uuid() }, { additionalProperties: false });

export const UpdateUserBody = Type.Object(
  { disabled: Type.Boolean({ description: 'true disables the account (it cannot sign in; its sessions end at once), false enables it again' }) },
  { additionalProperties: false },
);
