import { Type, type Static } from 'typebox';
import { DisplayName, Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { ROLES } from '../workspaces/roles.ts';
import { RENDERING_MODES } from '../crawler/render-rules.ts';

export const PLATFORMS = [
  'wordpress', 'shopify', 'wix', 'squarespace', 'webflow', 'drupal', 'joomla', 'custom', 'unknown',
] as const;

const id = Uuid({ description: 'Site identifier' });
const name = DisplayName();
const domain = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Host name, e.g. example.com; a URL is accepted and reduced to its host',
});
const platform = StringEnum(PLATFORMS, { description: 'Detected by audits; may be set by hand' });
const isActive = Type.Boolean({ description: 'Active flag; true on creation' });
export const AUDIT_SCHEDULES = ['off', 'daily', 'weekly'] as const;
const auditSchedule = StringEnum(AUDIT_SCHEDULES, { description: 'How often the site is re-audited after its first audit' });
const rendering = StringEnum(RENDERING_MODES, {
  description: 'JavaScript rendering in audits: auto (pages whose HTML is a script\'s empty shell, and the home page once to compare), always (every page), never (raw HTML only)',
});
const gscProperty = Nullable(Type.String({
  pattern: '^(sc-domain:[^\\s/]+|https?://\\S+/)$', maxLength: 2048,
  description: 'Search Console property: "sc-domain:example.com" or a URL prefix ending in "/"; null to unlink (by default the matching property is picked at the first sync)',
}));
const ga4Property = Nullable(Type.String({ pattern: '^properties/\\d+$', description: 'GA4 property, "properties/123456789"; null to unlink' }));
const workspaceId = Uuid({ description: 'The workspace that holds the site (GET /workspaces)' });
const healthScore = Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'From the latest completed audit' }));

/** GET /sites/{id} and PUT: the whole site. */
export const SiteSchema = Type.Object({
  id, workspace_id: workspaceId,
  role: StringEnum(ROLES, { description: 'The caller\'s role in the site\'s workspace' }),
  name, domain, platform, is_active: isActive, health_score: healthScore, audit_schedule: auditSchedule, rendering,
  gsc_property: gscProperty, ga4_property: ga4Property,
  created_at: Timestamp(), updated_at: Timestamp(),
});

/** GET /sites items: the spec omits health_score and updated_at. */
export const SiteListItemSchema = Type.Object({ id, workspace_id: workspaceId, name, domain, platform, is_active: isActive, created_at: Timestamp() });

/** POST /sites: the spec omits platform, health_score and updated_at. */
export const SiteCreatedSchema = Type.Object({ id, workspace_id: workspaceId, name, domain, is_active: isActive, created_at: Timestamp() });

export const SiteListSchema = Type.Object({ items: Type.Array(SiteListItemSchema), total: Type.Integer() });

export const CreateSiteBody = Type.Object({
  name, domain,
  workspace_id: Type.Optional(Uuid({ description: 'The workspace to add it to (its admin or owner); the caller\'s personal workspace by default' })),
}, { additionalProperties: false });
export type CreateSiteInput = Static<typeof CreateSiteBody>;

export const UpdateSiteBody = Type.Object(
  {
    name: Type.Optional(name),
    domain: Type.Optional(domain),
    platform: Type.Optional(platform),
    is_active: Type.Optional(isActive),
    audit_schedule: Type.Optional(auditSchedule),
    rendering: Type.Optional(rendering),
    gsc_property: Type.Optional(gscProperty),
    ga4_property: Type.Optional(ga4Property),
    workspace_id: Type.Optional(Uuid({ description: 'Move the site to another workspace (owner where it is, admin where it goes)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSiteInput = Static<typeof UpdateSiteBody>;

export const ListSitesQuery = Type.Object(
  { is_active: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) sites' })) },
  { additionalProperties: false },
);

export const SiteParams = Type.Object({ site_id: id });
