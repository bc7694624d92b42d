import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { REPORT_PERIODS } from '../analytics/report-periods.ts';

export const INTENTS = ['informational', 'navigational', 'commercial', 'transactional'] as const;

export const KeywordSchema = Type.Object({
  id: Uuid(),
  keyword: Type.String(),
  search_volume: Type.Integer({ minimum: 0 }),
  volume_source: Type.String({ description: '"estimated" (from Search Console impressions; see the README) or the keyword-data provider that gave search_volume and difficulty' }),
  difficulty: Type.Integer({ minimum: 0, maximum: 100 }),
  current_position: Nullable(Type.Integer({ minimum: 1 })),
  previous_position: Nullable(Type.Integer({ minimum: 1 })),
  url: Nullable(Type.String()),
  intent: StringEnum(INTENTS),
  source: StringEnum(['search_console', 'manual'] as const, { description: 'From Search Console, or added by hand' }),
  tags: Type.Array(Type.String(), { description: 'Chosen by the team (PATCH /keywords/{id}); kept when the sync updates the keyword' }),
  updated_at: Timestamp(),
});

export const KeywordStatsSchema = Type.Object({
  total_keywords: Type.Integer(),
  keywords_in_top_3: Type.Integer(),
  keywords_in_top_10: Type.Integer(),
  keywords_in_top_100: Type.Integer(),
  average_position: Type.Number(),
  total_search_volume: Type.Integer(),
  position_changes: Type.Object({ improved: Type.Integer(), declined: Type.Integer(), unchanged: Type.Integer() }),
});

export const POSITION_BANDS = ['1-3', '4-10', '11-20', '21-100', 'unranked'] as const;
export const CHANGES = ['improved', 'declined', 'unchanged', 'new'] as const;
/** A tag: a short label of letters, digits, spaces and - _ . / & + (no control characters, no leading or trailing space). */
const Tag = Type.String({ minLength: 1, maxLength: 40, pattern: '^[\\p{L}\\p{N}](?:[\\p{L}\\p{N} ._/&+-]*[\\p{L}\\p{N}])?$', description: 'A tag (1-40 characters: letters, digits, spaces, . _ / & + -)' });

export const UpdateKeywordBody = Type.Object({
  tags: Type.Array(Tag, { maxItems: 20, uniqueItems: true, description: 'The keyword\'s tags, replacing its old ones (at most 20)' }),
}, { additionalProperties: false });

export const KEYWORD_SORTS = ['clicks', 'keyword', 'position', 'change', 'volume', 'difficulty', 'intent', 'url'] as const;
export const ListKeywordsQuery = Type.Object({
  site_id: Uuid(),
  sort: Type.Optional(StringEnum(KEYWORD_SORTS, {
    description: 'Order of the whole list before paging: clicks in the last 28 days (default), keyword, position, change (positions gained), volume, difficulty, intent or url; keywords without the value last',
  })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { description: 'Default: desc for clicks, change, volume and difficulty; asc otherwise' })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only keywords containing this (case-insensitive)' })),
  intent: Type.Optional(StringEnum(INTENTS, { description: 'Only keywords of this intent' })),
  position: Type.Optional(StringEnum(POSITION_BANDS, { description: 'Only keywords ranking in this band now (1-3, 4-10, 11-20, 21-100), or not ranking (unranked)' })),
  change: Type.Optional(StringEnum(CHANGES, { description: 'Only keywords whose position improved, declined or stayed against the 7 days before, or that are new (no position before)' })),
  tag: Type.Optional(Tag),
  ...pageQueryProperties(50, 200),
}, { additionalProperties: false });
export const ExportKeywordsQuery = Type.Omit(ListKeywordsQuery, ['page', 'page_size'], { additionalProperties: false });
export const KeywordTagsSchema = Type.Object({ items: Type.Array(Type.Object({ tag: Type.String(), keywords: Type.Integer({ minimum: 1 }) })) });
export const KeywordStatsQuery = Type.Object({ site_id: Uuid() }, { additionalProperties: false });

export const AddKeywordBody = Type.Object(
  { site_id: Uuid(), keyword: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) },
  { additionalProperties: false },
);
export const KeywordParams = Type.Object({ keyword_id: Uuid() });

export const KeywordHistoryQuery = Type.Object({
  period: Type.Optional(StringEnum(REPORT_PERIODS, { description: 'A named period ending at the last day synced (default 28d); or give start and end instead' })),
  start: Type.Optional(Type.String({ description: 'Custom period: its first day (YYYY-MM-DD, with end)' })),
  end: Type.Optional(Type.String({ description: 'Custom period: its last day (YYYY-MM-DD, with start; at most 16 months, not after yesterday)' })),
}, { additionalProperties: false });

const Day = Type.String({ format: 'date' });
export const KeywordHistorySchema = Type.Object({
  keyword_id: Uuid(),
  keyword: Type.String(),
  source: StringEnum(['search_console', 'manual'] as const),
  period: Type.Object({ start: Day, end: Day, days: Type.Integer() }),
  last_seen: Nullable(Type.String({ format: 'date', description: 'The last day Search Console reported this query for the site (null: never, so far): positions come only from there' })),
  data_through: Nullable(Type.String({ format: 'date', description: "The last day of the site's Search Console data (null: none synced)" })),
  totals: Type.Object({
    clicks: Type.Integer(), impressions: Type.Integer(),
    position: Nullable(Type.Number({ description: 'Average over the period, weighted by impressions' })),
    best_position: Nullable(Type.Number({ description: "The period's best daily position" })),
  }),
  days: Type.Array(Type.Object({
    date: Day,
    position: Nullable(Type.Number({ description: "The day's position, weighted by impressions; null when Search Console reported no impression that day" })),
    clicks: Type.Integer(), impressions: Type.Integer(),
    page: Nullable(Type.String({ description: 'The page shown most for the query that day (then the most clicked)' })),
  })),
  page_changes: Type.Array(Type.Object({ date: Day, from: Type.String(), to: Type.String() }), { description: 'The days another page took over as the one ranking' }),
});
