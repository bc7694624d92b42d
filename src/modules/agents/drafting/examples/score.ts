import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageContent } from '../../page-content.ts';
import { writeMetaDescription } from '../description.ts';

/**
 * The drafting example set: pages of documentation, news, blogs, shops and landing pages as the
 * crawl stores them, each labelled by a person reading it as the site's editor (scripts/drafting/):
 * whether a publishable description can be drawn from the page's own text, and for those that
 * can, what a publishable one must say (its subject) and must not (a byline, a caption, a promo).
 */
export interface Example {
  id: string;
  site: string;
  kind: 'documentation' | 'news' | 'blog' | 'shop' | 'landing';
  url: string;
  content: PageContent;
  expect: 'draft' | 'refuse';
  must: string[];
  must_not: string[];
  note?: string;
}

export const EXAMPLES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'examples.jsonl');
/**
 * Rows written for the rules added since the set was built (relative days, openings that name nothing, clause cuts), a draft
 * and a refusal for each, on sites of their own: scripts/drafting/build-examples.ts rewrites examples.jsonl, not these.
 */
export const RULE_EXAMPLES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'rules.jsonl');

const read = (file: string): Example[] =>
  fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Example);
export const loadExamples = (file?: string): Example[] => (file ? read(file) : [...read(EXAMPLES_FILE), ...read(RULE_EXAMPLES_FILE)]);

export interface Outcome {
  example: Example;
  draft: string | null;
  rule: string | null;
  /** Why the row failed ('' when it passed). */
  failure: string;
}

/**
 * Whether a draft says a label's words, as words with at most an ending of their own ("trigger" in "triggers", "фудблогер"
 * in "фудблогеров"): "cat" is not said by "category", nor "oil" by "soil".
 */
const says = (draft: string, words: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\p{L}{0,3}(?![\\p{L}\\p{N}])`, 'iu').test(draft);

/** One example drafted and judged against its labels. */
export function judge(example: Example): Outcome {
  const result = writeMetaDescription(example.content, new Set(), example.url);
  const draft = 'text' in result ? result.text : null;
  const rule = 'reason' in result ? result.rule ?? 'unnamed' : null;
  let failure = '';
  if (example.expect === 'refuse' && draft !== null) failure = 'drafted where an editor refuses';
  else if (example.expect === 'draft' && draft === null) failure = `refused (${rule})`;
  else if (draft !== null) {
    const missing = example.must.filter((m) => !says(draft, m));
    const wrong = example.must_not.filter((m) => says(draft, m));
    if (missing.length > 0) failure = `does not say ${missing.map((m) => `"${m}"`).join(', ')}`;
    else if (wrong.length > 0) failure = `says ${wrong.map((m) => `"${m}"`).join(', ')}`;
  }
  return { example, draft, rule, failure };
}

export interface Score {
  rows: number;
  /** Rows whose verdict and draft match their labels. */
  passed: number;
  score: number;
  /** Of the rows an editor drafts: the share drafted at all, and the share drafted and publishable. */
  coverage: number;
  publishable: number;
  /** Of the drafts made: the share that meets its row's labels (an editor refusing counts against). */
  precision: number;
  byKind: Record<string, { rows: number; passed: number; score: number }>;
  outcomes: Outcome[];
}

const share = (n: number, of: number) => (of === 0 ? 1 : Math.round((n / of) * 1000) / 1000);

export function scoreExamples(examples: Example[]): Score {
  const outcomes = examples.map(judge);
  const passed = outcomes.filter((o) => o.failure === '');
  const wanted = outcomes.filter((o) => o.example.expect === 'draft');
  const drafted = outcomes.filter((o) => o.draft !== null);
  const byKind: Score['byKind'] = {};
  for (const o of outcomes) {
    const k = (byKind[o.example.kind] ??= { rows: 0, passed: 0, score: 0 });
    k.rows += 1;
    if (o.failure === '') k.passed += 1;
  }
  for (const k of Object.values(byKind)) k.score = share(k.passed, k.rows);
  return {
    rows: outcomes.length, passed: passed.length, score: share(passed.length, outcomes.length),
    coverage: share(wanted.filter((o) => o.draft !== null).length, wanted.length),
    publishable: share(wanted.filter((o) => o.failure === '').length, wanted.length),
    precision: share(drafted.filter((o) => o.failure === '').length, drafted.length),
    byKind, outcomes,
  };
}
