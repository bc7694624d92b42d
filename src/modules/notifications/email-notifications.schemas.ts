import { Type, type Static } from 'typebox';

export const DigestSchema = Type.Union([Type.Literal('off'), Type.Literal('daily'), Type.Literal('weekly')], {
  description: 'The digest of proposals awaiting approval: off, daily, or weekly (Mondays)',
});

export const NotificationSettingsSchema = Type.Object({
  digest: DigestSchema,
  alerts: Type.Boolean({ description: 'E-mail when an audit finds new critical issues or a site could not be reached' }),
});

export const NotificationSettingsBody = Type.Object({
  digest: Type.Optional(DigestSchema),
  alerts: Type.Optional(Type.Boolean()),
}, { additionalProperties: false, minProperties: 1 });
export type NotificationSettingsInput = Static<typeof NotificationSettingsBody>;

export const UnsubscribeQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 400, pattern: '^[A-Za-z0-9_.-]+$', description: "The token of an e-mail's List-Unsubscribe link" }),
});

export const UnsubscribeSchema = Type.Object({
  kind: Type.Union([Type.Literal('digest'), Type.Literal('alerts')]),
  workspace: Type.String(),
  email: Type.String(),
  message: Type.String(),
});
