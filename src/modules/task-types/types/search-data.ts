import { Type, type TProperties } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import { Configuration, defineTaskType } from '../task-type.ts';

/**
 * The search-data types (proposed after a Search Console sync): their deliverable is a brief
 * for a person, and their effect shows in search metrics (the task's impact), not on one page.
 */
const brief = <P extends TProperties>(properties: P, description: string) => Configuration({ ...properties, instructions: Type.String() }, description);
const gate = (c: { instructions: unknown }) => (typeof c.instructions === 'string' ? undefined : 'no deliverable defined');
const Position = Nullable(Type.Number());

export const optimizeTitleTag = defineTaskType({
  type: 'optimize_title_tag',
  category: 'seo',
  configuration: brief({
    url: Type.String(), top_query: Type.String(), position: Type.Number(), ctr: Type.Number(), expected_ctr: Type.Number(),
  }, 'A top-10 page with 500+ impressions in 28 days and under half the usual CTR for its position'),
  gate,
  manual: (c) => ({ instructions: c.instructions }),
});

export const prioritizeQuickWins = defineTaskType({
  type: 'prioritize_quick_wins',
  category: 'strategy',
  configuration: brief({ keyword: Type.String(), url: Nullable(Type.String()), position: Position }, 'A keyword at positions 4-20 with 100+ impressions'),
  gate,
  manual: (c) => ({ instructions: c.instructions }),
});

export const createContentForKeyword = defineTaskType({
  type: 'create_content_for_keyword',
  category: 'research',
  configuration: brief({ keyword: Type.String(), current_url: Nullable(Type.String()), position: Position }, 'A keyword beyond position 20 with 50+ impressions'),
  gate,
  manual: (c) => ({ instructions: c.instructions }),
});

export const refreshDecliningContent = defineTaskType({
  type: 'refresh_declining_content',
  category: 'content',
  configuration: brief({
    url: Type.String(), clicks: Type.Integer(), previous_clicks: Type.Integer(), top_query: Nullable(Type.String()),
  }, 'A page whose clicks fell 30%+ against the 28 days before (from 20+)'),
  gate,
  manual: (c) => ({ instructions: c.instructions }),
});

export const consolidateCannibalizedPages = defineTaskType({
  type: 'consolidate_cannibalized_pages',
  category: 'strategy',
  configuration: brief({
    query: Type.String(),
    pages: Type.Array(Type.Object({ page: Type.String(), impressions: Type.Integer(), position: Type.Number() }, { additionalProperties: true })),
  }, 'A query whose impressions two or more pages split (20%+ each), none in the top 5'),
  gate,
  manual: (c) => ({ instructions: c.instructions, changes: c.pages ?? [] }),
});
