import { Type } from 'typebox';

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);

export const LogoutBody = Type.Union([
  Type.Object(
    { refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const TokenPairSchema = Type.Object(
  {
    access_token: Type.String({ description: 'JWT to send as `Authorization: Bearer <token>`' }),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
    refresh_token: Type.String({ description: 'Opaque, single use: exchange it at /auth/refresh for a new pair' }),
  },
  { description: 'A new access token and the refresh token that replaces the previous one' },
);
