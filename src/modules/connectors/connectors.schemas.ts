import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

export const CONNECTOR_TYPES = ['manual', 'wordpress'] as const;

export const ConnectorParams = Type.Object({ site_id: Uuid({ description: 'Site identifier' }) });

/**
 * PUT /sites/{id}/connector. `manual` needs nothing else. `wordpress` needs a user name and
 * an application password (Users -> Profile -> Application Passwords); the password may be
 * left out to keep the stored one while changing the other settings.
 */
export const PutConnectorBody = Type.Object(
  {
    type: StringEnum(CONNECTOR_TYPES, { description: 'How tasks are carried out on the site' }),
    base_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'WordPress address; default https://<site domain>' })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    application_password: Type.Optional(Type.String({ minLength: 16, maxLength: 200, description: 'Write-only: stored sealed, never returned' })),
    meta_description_field: Type.Optional(Type.String({
      pattern: '^[A-Za-z0-9_:-]{1,100}$',
      description: 'The registered (show_in_rest) post meta key holding the meta description, when it is not a known SEO plugin key; "excerpt" when the theme or SEO plugin prints the post excerpt as the description',
    })),
  },
  { additionalProperties: false },
);
export type PutConnectorInput = Static<typeof PutConnectorBody>;

export const ConnectorSchema = Type.Object({
  site_id: Uuid(),
  type: StringEnum(CONNECTOR_TYPES),
  base_url: Nullable(Type.String()),
  username: Nullable(Type.String()),
  meta_description_field: Nullable(Type.String()),
  has_credentials: Type.Boolean({ description: 'Whether a credential is stored (it is never returned)' }),
  seo_plugins: Type.Array(Type.String(), { description: 'SEO plugins found through the REST API index when the connector was saved' }),
  verified_at: Nullable(Timestamp('When WordPress last accepted the credentials')),
  updated_at: Nullable(Timestamp()),
});
