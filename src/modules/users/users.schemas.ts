import { Type, type Static } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

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

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
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
}, { description: 'An account' });
export const ListUsersQuery = Type.Object({ ...pageQueryProperties(50, 200) }, { additionalProperties: false });

