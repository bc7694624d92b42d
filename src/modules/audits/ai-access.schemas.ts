import { Type } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../lib/schema.ts';

const CrawlerAccessSchema = Type.Object({
  token: Type.String({ description: 'The user-agent token robots.txt groups name' }),
  owner: Type.String(),
  purpose: StringEnum(['training', 'search', 'user'] as const, {
    description: 'training: collects content to train models; search: an index that answers and cites; user: fetches a page a person asked an assistant about',
  }),
  control_token: Type.Boolean({ description: 'A token no crawler sends (Google-Extended, Applebot-Extended): it governs how the owner\'s other crawlers\' fetches are used' }),
  docs: Nullable(Type.String({ description: "The owner's page about the token" })),
  home_allowed: Type.Boolean(),
  sitemaps_allowed: Nullable(Type.Boolean({ description: 'null when the site has no sitemap' })),
  blocked_sitemaps: Type.Array(Type.String()),
  pages_allowed_share: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'Share of the audited pages (a sample of at most 1,000) it may fetch' })),
  matched_group: StringEnum(['explicit', 'wildcard', 'none'] as const, { description: 'A robots.txt group names it, it falls under "*", or no group applies' }),
});

export const AiAccessSchema = Type.Object({
  audit_id: Uuid(),
  robots_status: Type.Integer({ description: "robots.txt's HTTP status (0: no answer); rules are read from a 2xx only, a 4xx allows everything" }),
  crawlers: Type.Array(CrawlerAccessSchema),
  llms_txt: Type.Object({
    url: Type.String(),
    status: StringEnum(['missing', 'valid', 'invalid'] as const),
    http_status: Type.Integer(),
    problems: Type.Array(Type.Object({ rule: Type.String(), line: Nullable(Type.Integer()), message: Type.String() })),
  }),
  llms_txt_draft: Type.String({
    description: "An llms.txt in the llmstxt.org format drafted from the site's name, its home page's description and its most important audited pages (at most 30), for the owner to publish if they choose",
  }),
});
