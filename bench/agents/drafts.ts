// npm run bench:drafts: the 181 news, blog and magazine pages of the shared article-extraction
// benchmark (../shared/benchmarks/article-extraction, 181 publishers) with their editors'
// descriptions removed (<meta name="description">, og:description, twitter:description and
// JSON-LD "description"), served as one site, audited through the service; then every meta
// description and title the strategy agent drafted or refused, scored where a machine can:
// - coverage: pages given a description draft (every page needs one here);
// - from the article body: drafts whose every sentence is in the page's hand-made article body
//   (ground-truth.json), after spacing and quotation marks are made alike;
// - title drafts that keep the page's headline (og:title, else <title>) whole.
// DUMP=file.json writes each page's original description and title beside the drafts, for reading.
// KEEP_SUMMARIES=1 keeps og:description, twitter:description and JSON-LD (only the meta
// description is removed): what a site that has them but no meta description gets.
import fs from 'node:fs';
import path from 'node:path';
import { auditArticles, BENCH_DIR, idOf, ids, raw } from './articles-as-site.ts';
import { pagesOf } from '../../src/modules/task-types/index.ts';
import { readPageContent } from '../../src/modules/agents/page-content.ts';
import { writeSection } from '../write-section.ts';
import { withoutDescriptions } from '../../scripts/drafting/without-descriptions.ts';
import { COUNTRY_NAMES, COUNTRY_SHORT } from '../../src/modules/agents/drafting/shorten.ts';

const truth = JSON.parse(fs.readFileSync(path.join(BENCH_DIR, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
const keepSummaries = process.env.KEEP_SUMMARIES === '1';

/**
 * The page as served here: its editors' descriptions removed, its canonical pointed at its own address, and its generator
 * tag removed (181 publishers' pages are no one CMS: one WordPress page among the first twenty would make the whole "site"
 * WordPress, whose theme adds its own suffix to every title).
 */
function served(id: string, origin: string): string {
  const page = raw(id).replace(/<link\b[^>]*\brel=["']?canonical["']?[^>]*>/gi, `<link rel="canonical" href="${origin}/a/${id}/">`)
    .replace(/<meta\b[^>]*\bname=["']?generator["']?[^>]*>/gi, '');
  return withoutDescriptions(page, keepSummaries ? new Set(['og:description', 'twitter:description', 'json_ld']) : new Set());
}

/** An attribute of the first meta tag naming `name`, decoded as a reader sees it. */
function metaOf(page: string, name: string): string {
  const tag = [...page.matchAll(/<meta\b[^>]*>/gi)].map((m) => m[0]).find((t) => new RegExp(`\\b(name|property)\\s*=\\s*["']?${name}["'\\s>]`, 'i').test(t));
  const content = tag ? /\bcontent\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag) : null;
  return decode(content?.[2] ?? content?.[3] ?? '');
}
const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&#39;|&#x27;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n))).replace(/\s+/g, ' ').trim();
const titleOf = (page: string) => decode(/<title[^>]*>([^<]*)<\/title>/i.exec(page)?.[1] ?? '');

/** Text made alike for comparison: one kind of space, quotation mark and dash. */
// (And a country's name written as news style writes it, "U.S." for "United States": the drafter's own abbreviation, shorten.ts;
// a relative day's name written "the", "Monday night’s loss" as "the loss": its own edit, relative-time.ts; and "an" before a
// number, "an 8-year-old" where the page says "a 8-year-old": article-before-number.ts.)
const WEEKDAY_NAMED = /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:\s(?:morning|afternoon|evening|night))?['’]s(?=\s\p{Ll})/gu;
const plain = (text: string) => text.replace(/\b([Aa])n (?=\d)/gu, '$1 ').replace(COUNTRY_NAMES, (name) => COUNTRY_SHORT[name] ?? name).replace(WEEKDAY_NAMED, 'the').replace(/[\u2018\u2019\u201b]/g, "'").replace(/[\u201c\u201d\u201e]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
/**
 * Whether a draft is drawn from the text: 90% of its word trigrams are in it (a sentence shortened
 * at a clause, "Kurt Volker[, the former envoy,] testified ...", has a trigram or two across each cut),
 * or its words are the words of one passage of the text in their order with some left out (a
 * sentence cut in two places: "... in China[, sparking fears ...,] though officials say ...").
 */
function fromBody(draft: string, body: string): boolean {
  const words = (text: string) => plain(text).split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  const grams = (list: string[]) => list.slice(2).map((_, i) => list.slice(i, i + 3).join(' '));
  const own = new Set(grams(words(body)));
  const drafted = grams(words(draft));
  return drafted.filter((g) => own.has(g)).length >= 0.9 * drafted.length || cutFrom(words(draft), words(body));
}
/** The draft's words found in order in one passage of the text at most twice the draft's length (what clause cuts leave). */
function cutFrom(draft: string[], text: string[]): boolean {
  if (draft.length === 0) return false;
  for (let start = text.indexOf(draft[0]!); start !== -1; start = text.indexOf(draft[0]!, start + 1)) {
    let at = start;
    let matched = 0;
    while (matched < draft.length && at < text.length && at - start < 2 * draft.length) {
      if (text[at] === draft[matched]) matched += 1;
      at += 1;
    }
    if (matched === draft.length) return true;
  }
  return false;
}

const { tasks, rejections, close } = await auditArticles(served);

type Change = { page: string; priority: string; before: string | null; after: string; drafted_from?: string };
const changes = (type: string): Change[] => tasks.filter((t) => t.type === type).flatMap((t) => pagesOf(t).map((p) => {
  const c = p.configuration as { url: string; before: string | null; after: string; drafted_from?: string };
  return { page: idOf(c.url), priority: t.priority, before: c.before, after: c.after, ...(c.drafted_from ? { drafted_from: c.drafted_from } : {}) };
}));
const refusals = (type: string) => rejections.filter((r) => r.type === type).map((r) => ({ page: idOf(r.target), reason: r.reason }));

const descriptions = changes('fix_missing_meta_description').filter((d) => ids.includes(d.page));
const descriptionRefusals = refusals('fix_missing_meta_description').filter((r) => ids.includes(r.page));
const titles = changes('fix_title_tag').filter((d) => ids.includes(d.page));
const titleRefusals = refusals('fix_title_tag').filter((r) => ids.includes(r.page));
const headline = (id: string) => metaOf(raw(id), 'og:title') || titleOf(raw(id));
const round = (n: number) => Math.round(n * 1000) / 1000;
/** The article's own text: its hand-made body, and the standfirst its readers see above it (which the benchmark's body leaves out). */
const articleText = (id: string) => [truth[id]!.articleBody, ...(readPageContent(served(id, '')).summaries ?? []).filter(([s]) => s === 'standfirst').map(([, t]) => t)].join('\n');
const ownText = new Map(ids.map((id) => [id, articleText(id)]));
const body = descriptions.filter((d) => fromBody(d.after, ownText.get(d.page)!)).length;
const keepsHeadline = (t: Change) => {
  const words = (text: string) => plain(text).split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  const after = new Set(words(t.after));
  const head = words(headline(t.page).split(/\s[|–—-]\s/u)[0] ?? '');
  return head.filter((w) => after.has(w)).length / Math.max(1, head.length);
};

const summary = {
  pages: ids.length,
  mode: keepSummaries ? 'meta description removed; og:description, twitter:description and JSON-LD kept' : "all editors' descriptions removed",
  descriptions: {
    drafted: descriptions.length,
    refused: descriptionRefusals.length,
    coverage: round(descriptions.length / ids.length),
    from_article_body: round(body / Math.max(1, descriptions.length)),
    from_standfirst: descriptions.filter((d) => d.drafted_from === 'standfirst').length,
    high_priority: round(descriptions.filter((d) => d.priority === 'high').length / Math.max(1, descriptions.length)),
  },
  titles: {
    drafted: titles.length,
    refused: titleRefusals.length,
    keep_whole_headline: titles.filter((t) => keepsHeadline(t) === 1).length,
    high_priority: round(titles.filter((d) => d.priority === 'high').length / Math.max(1, titles.length)),
  },
};
console.log(JSON.stringify(summary, null, 2));
if (!keepSummaries) {
  const d = summary.descriptions;
  const t = summary.titles;
  writeSection('drafts', 'Descriptions and titles on 181 news and blog pages: `npm run bench:drafts`', [
    `Run ${new Date().toISOString()} with \`npm run bench:drafts\`: the 181 pages of the article-extraction benchmark (181 publishers), their editors' descriptions removed (meta, og, twitter, JSON-LD), audited as one site.`,
    '',
    '| | value |',
    '|---|---:|',
    `| pages given a description draft (coverage) | ${d.drafted} of ${ids.length} (${d.coverage}) |`,
    `| drafts drawn from the article body or its standfirst | ${d.from_article_body} |`,
    `| drafts from the page's standfirst | ${d.from_standfirst} |`,
    `| description tasks high priority | ${d.high_priority} |`,
    `| title proposals (titles over 60 characters, duplicates, too short) | ${t.drafted}, ${t.refused} refused |`,
    `| title proposals that keep the page's headline whole | ${t.keep_whole_headline} of ${t.drafted} |`,
    '',
    'Publishable, and better / equal / worse than the editors\' own: read by people, in the closing notes of issue 20 (a machine cannot tell).',
  ].join('\n'));
}
if (process.env.DUMP) {
  const pages = ids.map((id) => {
    const page = raw(id);
    return {
      page: id, url: truth[id]!.url, title: titleOf(page), headline: headline(id), original: metaOf(page, 'description') || metaOf(page, 'og:description'),
      description: descriptions.find((d) => d.page === id)?.after ?? null,
      description_refused: descriptionRefusals.find((r) => r.page === id)?.reason ?? null,
      description_from_body: descriptions.some((d) => d.page === id && fromBody(d.after, ownText.get(id)!)),
      drafted_from: descriptions.find((d) => d.page === id)?.drafted_from ?? null,
      new_title: titles.find((t) => t.page === id)?.after ?? null,
      title_refused: titleRefusals.find((r) => r.page === id)?.reason ?? null,
      lead: truth[id]!.articleBody.slice(0, 600),
    };
  });
  fs.writeFileSync(process.env.DUMP, JSON.stringify(pages, null, 2));
}
await close();
process.exit(0);
