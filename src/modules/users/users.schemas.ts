import { Type, type Static } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { DisplayName, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PASSWORD_MIN_LENGTH = 10;

export const UserSchema = Type.Object(
  {
    id: Uuid(),
    email: Type.String({ format: 'email' }),
    name: Type.String(),
    role: StringEnum(ROLES),
  },
  { description: 'An account' },
);
export type User = Static<typeof UserSchema>;

/** The rule every new password follows: at sign-up, on a change and on a reset. */
export const PasswordField = (description?: string) =>
  Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024, ...(description ? { description } : {}) });
/** A person's name (DisplayName: not blank, no control characters). */
export const NameField = () => DisplayName();

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: PasswordField(),
    name: NameField(),
    role: Type.Optional(StringEnum(ROLES, { default: 'user' })),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

/** An account as an admin sees it in the list: when it was made and how it signs in. */
export const ListedUserSchema = Type.Object({
  ...UserSchema.properties,
  created_at: Timestamp(),
  sign_in: Type.Array(StringEnum(['password', 'google'] as const), { description: 'How the account can sign in' }),
  disabled: Type.Boolean({ description: 'An admin disabled the account: it cannot sign in' }),
}, { description: 'An account' });
export type ListedUser = Static<typeof ListedUserSchema>;
export const ListUsersQuery = Type.Object({ ...pageQueryProperties(50, 200) }, { additionalProperties: false });

