// npm run bench:extraction: the main content the agent drafts from, measured against the best
// extractors. The shared article-extraction benchmark's 181 real pages
// (../shared/benchmarks/article-extraction), each read alone (readPageContent: no other page
// of its site to learn the template from), scored with the benchmark's metric
// (bench/extraction/shingles.ts, checked against its own evaluate.py on the same output when
// python3 is there), with Readability.js (@mozilla/readability on linkedom's DOM) run in the
// same process as the baseline. OUTPUT=file.json keeps every page's text for reading.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { readPageContent } from '../../src/modules/agents/page-content.ts';
import { WHOLE_PAGE } from '../../src/modules/crawler/main-content.ts';
import { writeSection } from '../write-section.ts';
import { scoreOf, shingleMatching } from './shingles.ts';

const ROOT = path.resolve(process.argv[2] ?? '../shared/benchmarks/article-extraction');
const truth = JSON.parse(fs.readFileSync(path.join(ROOT, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
const pages = Object.entries(truth).map(([id, page]) => ({ id, ...page, html: zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'html', `${id}.html.gz`))).toString('utf8') }));

type Extractor = (html: string, url: string) => string;
const EXTRACTORS: Record<string, Extractor> = {
  "this service (readPageContent, each page alone)": (html, url) => readPageContent(html, url, WHOLE_PAGE).paragraphs.join('\n'),
  'Readability.js 0.6.0 (linkedom DOM)': (html) => {
    const { document } = parseHTML(html);
    return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? '';
  },
};

const results: Array<{ name: string; f1: number; precision: number; recall: number; msPerPage: number; output: Record<string, { articleBody: string }> }> = [];
for (const [name, extract] of Object.entries(EXTRACTORS)) {
  const output: Record<string, { articleBody: string }> = {};
  // A warm-up pass (JIT, lazily built tables), then the timed one.
  for (const page of pages.slice(0, 20)) extract(page.html, page.url);
  const started = performance.now();
  for (const page of pages) output[page.id] = { articleBody: extract(page.html, page.url) };
  const msPerPage = (performance.now() - started) / pages.length;
  results.push({ name, msPerPage, output, ...scoreOf(pages.map((p) => shingleMatching(p.articleBody, output[p.id]!.articleBody))) });
}
const ours = results[0]!;
if (process.env.OUTPUT) fs.writeFileSync(process.env.OUTPUT, JSON.stringify(ours.output));

// The metric agrees with the benchmark's own script on the same output (when python3 is there).
let agreement = 'python3 not found: not checked against evaluate.py';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'article-extraction-'));
fs.mkdirSync(path.join(work, 'output'));
fs.copyFileSync(path.join(ROOT, 'ground-truth.json'), path.join(work, 'ground-truth.json'));
fs.writeFileSync(path.join(work, 'output', 'ours.json'), JSON.stringify(ours.output));
const python = spawnSync('python3', [path.join(ROOT, 'evaluate.py'), '--n-bootstrap', '10'], { cwd: work, encoding: 'utf8' });
fs.rmSync(work, { recursive: true, force: true });
if (python.status === 0) {
  const f1 = Number(/^ours\s+\S*\s*(\d\.\d{3})/m.exec(python.stdout)?.[1]);
  if (Number.isNaN(f1)) throw new Error(`evaluate.py's F1 could not be read from: ${python.stdout}`);
  if (Math.abs(f1 - ours.f1) > 0.0015) throw new Error(`the TypeScript metric (${ours.f1.toFixed(3)}) disagrees with evaluate.py (${f1})`);
  agreement = `evaluate.py on the same output: F1 ${f1.toFixed(3)} (agrees)`;
}

const row = (r: (typeof results)[number]) => `| ${r.name} | ${r.f1.toFixed(3)} | ${r.precision.toFixed(3)} | ${r.recall.toFixed(3)} | ${r.msPerPage.toFixed(1)} ms |`;
const text = [
  `Run ${new Date().toISOString()} with \`npm run bench:extraction\`: ${pages.length} pages, each read alone; ${agreement}; 2 cores.`,
  '',
  '| Extractor | F1 | precision | recall | time a page |',
  '|---|---|---|---|---|',
  ...results.map(row),
  '',
  "Published on the same set and metric (the benchmark's README): rs_trafilatura 0.970, trafilatura 0.958, Readability.js 0.947, readability-lxml 0.922; html-text and BeautifulSoup, which keep the whole page, 0.665.",
].join('\n');
console.log(text);
writeSection('article-extraction', 'Main content, scored: `npm run bench:extraction`', text);
