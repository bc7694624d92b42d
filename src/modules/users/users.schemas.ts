import { Type, type Static } from 'typebox';
import { StringEnum, Uuid } from '../../lib/schema.ts';

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
