import { Type, type TProperties } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import { escapeHtml, sameText } from '../../../lib/strings.ts';
import { TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { holdsQuery } from '../../../lib/query-words.ts';
import { pageKey } from '../../../lib/page-key.ts';
import { Configuration, defineTaskType, isCheck, isText, type LiveCheck, type LiveProbe } from '../task-type.ts';

/**
 * The search-data types, proposed after a Search Console sync. A quick win and a title
 * searchers skip are concrete title changes (before -> after), carried out by the site's
 * connector and checked on the live page like a title fix; the others are briefs for a
 * person. Their effect shows in the query's and page's search figures (the task's impact).
 */
const brief = <P extends TProperties>(properties: P, description: string) => Configuration({ ...properties, instructions: Type.String() }, description);
const gate = (c: { instructions: unknown }) => (typeof c.instructions === 'string' ? undefined : 'no deliverable defined');
const Position = Nullable(Type.Number());
/** One page under the addresses a link may write it with: with or without its trailing slash, any letter case of its host. */
const sameAddress = (a: string | undefined, b: string) => a !== undefined && pageKey(a) === pageKey(b);

const PageRef = Type.Object({ url: Type.String(), title: Nullable(Type.String()) }, { additionalProperties: true });

/** A new title around a query: the fields both title types share. */
const titleChange = {
  url: Type.String(),
  field: Type.Optional(Type.Literal('title')),
  before: Type.Optional(Nullable(Type.String())),
  after: Type.Optional(Type.String({ description: 'The new title: the query as searchers type it, then what the page is about, the site suffix kept' })),
  also_serves: Type.Optional(Type.Array(Type.String(), { description: 'Other queries of the page the new title reads naturally for' })),
  // Proposals stored before titles were drafted carry only instructions.
  instructions: Type.Optional(Type.String()),
};
type TitleChange = { url: string; after?: string | undefined; instructions?: string | undefined };

const titleGate = (c: TitleChange) =>
  c.after === undefined ? (c.instructions ? undefined : 'no deliverable defined') : isText(c.after, TITLE_MIN, TITLE_MAX) ? undefined : `the drafted title is outside ${TITLE_MIN}-${TITLE_MAX} characters`;
const titleManual = (c: TitleChange, url: string) =>
  c.after === undefined ? { instructions: c.instructions ?? '' } : { instructions: `In the <head> of ${url}, make this the only <title> element.`, html: `<title>${escapeHtml(c.after)}</title>` };
async function titleLive(c: TitleChange, url: string, probe: LiveProbe): Promise<LiveCheck[]> {
  if (c.after === undefined) return [];
  const f = await probe.facts(url);
  if (isCheck(f)) return [f];
  const actual = f.titles[0] ?? null;
  return [{ check: 'title', expected: c.after, actual, passed: f.titles.length === 1 && sameText(actual, c.after) }];
}
const titleConnector = (c: TitleChange) =>
  c.after === undefined ? { unsupported: 'this proposal predates drafted titles: carry out its instructions' } : { field: 'title' as const, value: c.after };

export const optimizeTitleTag = defineTaskType({
  type: 'optimize_title_tag',
  category: 'seo',
  configuration: Configuration({
    ...titleChange, top_query: Type.String(), position: Type.Number(), ctr: Type.Number(), expected_ctr: Type.Number(),
  }, 'A top-10 page with 500+ impressions in 28 days and under half the usual CTR for its position: its title rewritten around its top query'),
  gate: titleGate,
  manual: titleManual,
  liveChecks: titleLive,
  connectorChange: titleConnector,
  isBrief: (c) => c.after === undefined,
});

export const prioritizeQuickWins = defineTaskType({
  type: 'prioritize_quick_wins',
  category: 'strategy',
  configuration: Configuration({
    ...titleChange, keyword: Type.String(), position: Position,
  }, 'A query at positions 4-20 with 100+ impressions whose page title does not say it: the title rewritten around it'),
  gate: titleGate,
  manual: titleManual,
  liveChecks: titleLive,
  connectorChange: titleConnector,
  isBrief: (c) => c.after === undefined,
});

export const strengthenPageForQuery = defineTaskType({
  type: 'strengthen_page_for_query',
  category: 'strategy',
  configuration: brief({
    keyword: Type.String(), url: Type.String(), position: Type.Number(),
    link_from: Type.Array(PageRef, { description: 'Pages of the site about the same topic, to link to this one with the query as the link text' }),
    opening_says_query: Type.Boolean({ description: "Whether the page's opening paragraph already answers the query in its words" }),
  }, 'A query at positions 4-20 whose page title already says it: links with it as anchor text, and the opening paragraph'),
  gate: (c) => gate(c) ?? (c.link_from.length > 0 || !c.opening_says_query ? undefined : 'nothing is missing: the title, the opening and no page to link from'),
  manual: (c) => ({ instructions: c.instructions, changes: c.link_from }),
  /** The brief is carried out by a person: the named pages link here with the query's words, checked on the live site. */
  async liveChecks(c, url, probe) {
    const checks: LiveCheck[] = [];
    for (const from of c.link_from) {
      const f = await probe.facts(from.url);
      if (isCheck(f)) { checks.push({ ...f, url: from.url }); continue; }
      // Any of the page's links to it ("/guide" and "/guide/" alike) whose words say the query.
      const links = f.links.filter((l) => sameAddress(normalizeUrl(l.href, from.url), url));
      const saying = links.find((l) => holdsQuery(l.text, c.keyword));
      checks.push({
        check: 'link_with_query', url: from.url, expected: c.keyword, actual: (saying ?? links[0])?.text ?? null, passed: saying !== undefined,
      });
    }
    return checks;
  },
});

export const createContentForKeyword = defineTaskType({
  type: 'create_content_for_keyword',
  category: 'research',
  configuration: brief({
    keyword: Type.String(), current_url: Nullable(Type.String()), position: Position,
    outline: Type.Optional(Type.Array(Type.String(), { description: 'Headings the page could have, from the query and the related ones' })),
    related_queries: Type.Optional(Type.Array(Type.Object({ query: Type.String(), impressions: Type.Integer(), position: Type.Number() }), {
      description: "Queries the site is already seen for that share the keyword's words (its own Search Console rows)",
    })),
    link_from: Type.Optional(Type.Array(PageRef, { description: 'Pages of the site to link to the new page from' })),
  }, 'A keyword beyond position 20 with 50+ impressions: a brief for a page written for it'),
  gate,
  manual: (c) => ({ instructions: c.instructions, changes: [...(c.outline ?? []).map((heading) => ({ heading })), ...(c.link_from ?? [])] }),
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
    keep: Type.Optional(Type.String({ description: 'The page that keeps the query' })),
    others: Type.Optional(Type.Array(Type.Object({
      url: Type.String(),
      action: Type.Union([Type.Literal('redirect'), Type.Literal('separate')], {
        description: 'redirect: a 301 to the kept page (it has little of its own); separate: it keeps its own topic, its title no longer says the query',
      }),
      why: Type.String(),
    }))),
  }, 'A query whose impressions two or more pages split (20%+ each), none in the top 5'),
  gate,
  manual: (c) => ({ instructions: c.instructions, changes: c.others ?? c.pages ?? [] }),
});
