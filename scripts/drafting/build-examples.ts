// node scripts/drafting/build-examples.ts [--candidates OUT.jsonl]: the drafting example set
// (src/modules/agents/drafting/examples/examples.jsonl) rebuilt from its pages, each as the crawl
// stores it (crawl budget, the site's template removed across all its pages) with the page's
// editors' descriptions removed, joined with its labels (scripts/drafting/labels/*.json):
// - news and blog: the 181 pages of ../shared/benchmarks/article-extraction (181 publishers);
// - documentation: Debian's PostgreSQL 15, Python 3.11, Valgrind and Debian Administrator's
//   Handbook manuals (apt-get install postgresql-doc-15 python3.11-doc valgrind debian-handbook),
//   a fixed sample of each.
// - shops and landing pages: scripts/drafting/pages/<site>/ (written for the set, modelled on what
//   Shopify, WooCommerce, Webflow and Squarespace render; labels in pages/labels.json).
// The labels (expected verdict, what a draft must and must not say) were written by people reading
// each page as its editor (scripts/drafting/README.md), not by this script. With --candidates, the
// unlabelled rows are written instead, for labelling.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { pageContentOf } from '../../src/modules/agents/page-content.ts';
import { extractPageFacts } from '../../src/modules/crawler/extract.ts';
import { pageLanguage } from '../../src/modules/crawler/language.ts';
import { storedPageContent, withoutSiteTemplate } from '../../src/modules/crawler/main-content.ts';
import { withoutDescriptions } from './without-descriptions.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const candidatesOut = process.argv[2] === '--candidates' ? process.argv[3] ?? '.tmp/candidates.jsonl' : undefined;
const OUT = path.resolve(HERE, '../../src/modules/agents/drafting/examples/examples.jsonl');
const BENCH = path.resolve('../shared/benchmarks/article-extraction');
const DOCS = [
  { site: 'postgresql-15-manual', dir: '/usr/share/doc/postgresql-doc-15/html', base: 'https://www.postgresql.org/docs/15/', take: 60 },
  { site: 'python-3.11-docs', dir: '/usr/share/doc/python3.11-doc/html', base: 'https://docs.python.org/3.11/', take: 55 },
  { site: 'valgrind-manual', dir: '/usr/share/doc/valgrind/html', base: 'https://valgrind.org/docs/manual/', take: 30 },
  { site: 'debian-handbook', dir: '/usr/share/doc/debian-handbook/html/en-US', base: 'https://debian-handbook.info/browse/stable/', take: 45 },
];

const rank = (key: string) => createHash('sha1').update(key).digest('hex');
const rows: string[] = [];

function addSite(site: string, kind: string, pages: Array<{ url: string; html: string; id: string }>, take: number) {
  const facts = pages.map((p) => extractPageFacts(withoutDescriptions(p.html)));
  const mains = withoutSiteTemplate(facts.map((f) => f.main), facts.map((f) => f.textHash), facts.map((f) => f.titles[0]));
  const chosen = pages.map((p, i) => ({ p, i })).sort((a, b) => rank(a.p.id).localeCompare(rank(b.p.id))).slice(0, take);
  for (const { p, i } of chosen) {
    const main = mains[i];
    if (!main || main.blocks.length === 0) continue;
    const stored = storedPageContent(pageLanguage(p.url, facts[i]!), facts[i]!.wordCount, main, { links_to_errors: [], links_to_redirects: [] });
    const { paragraphs, ...rest } = pageContentOf(facts[i]!.titles[0] ?? null, stored);
    rows.push(JSON.stringify({ id: `${site}/${p.id}`, site, kind, url: p.url, content: { ...rest, paragraphs } }));
  }
}

// News and blogs: one site each (its publisher's host).
const truth = JSON.parse(fs.readFileSync(path.join(BENCH, 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
for (const file of fs.readdirSync(path.join(BENCH, 'html')).sort()) {
  const id = file.slice(0, -'.html.gz'.length);
  const url = truth[id]!.url;
  const html = zlib.gunzipSync(fs.readFileSync(path.join(BENCH, 'html', file))).toString('utf8');
  addSite(new URL(url).host.replace(/^www\./, ''), 'article', [{ url, html, id: id.slice(0, 12) }], 1);
}
for (const { site, dir, base, take } of DOCS) {
  if (!fs.existsSync(dir)) throw new Error(`${dir} is missing: apt-get install the manual (see the header)`);
  const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.html') && !/(^|\/)(genindex|search|py-modindex|index|bookindex|sitemap)[^/]*\.html$/.test(f));
  const pages = files.map((f) => ({ url: new URL(f, base).href, html: fs.readFileSync(path.join(dir, f), 'utf8'), id: f.replace(/\.html$/, '') }));
  addSite(site, 'documentation', pages, take);
}
// Shops and landing pages: each folder one site.
const PAGES = path.join(HERE, 'pages');
for (const site of (fs.existsSync(PAGES) ? fs.readdirSync(PAGES) : []).filter((f) => fs.statSync(path.join(PAGES, f)).isDirectory()).sort()) {
  const files = fs.readdirSync(path.join(PAGES, site)).filter((f) => f.endsWith('.html')).sort();
  const pages = files.map((f) => ({ url: `https://${site}.example/${f.replace(/\.html$/, '').replace(/^index$/, '')}`, html: fs.readFileSync(path.join(PAGES, site, f), 'utf8'), id: f.replace(/\.html$/, '') }));
  addSite(site, 'site', pages, pages.length);
}

if (candidatesOut) {
  fs.writeFileSync(candidatesOut, `${rows.join('\n')}\n`);
  console.log(`${rows.length} pages -> ${candidatesOut}`);
} else {
  type Label = { id?: string; file?: string; kind: string; expect: string; must: string[]; must_not: string[]; note?: string };
  const labels = new Map<string, Label>();
  const labelFiles = [...fs.readdirSync(path.join(HERE, 'labels')).map((f) => path.join(HERE, 'labels', f)), path.join(PAGES, 'labels.json')].filter((f) => fs.existsSync(f));
  for (const file of labelFiles) {
    for (const label of JSON.parse(fs.readFileSync(file, 'utf8')) as Label[]) labels.set(label.id ?? label.file!.replace(/\.html$/, ''), label);
  }
  const examples: string[] = [];
  const unlabelled: string[] = [];
  for (const line of rows) {
    const row = JSON.parse(line) as { id: string };
    const label = labels.get(row.id);
    if (!label) {
      unlabelled.push(row.id);
      continue;
    }
    const { id: _id, file: _file, ...rest } = label;
    examples.push(JSON.stringify({ ...row, ...rest }));
  }
  fs.writeFileSync(OUT, `${examples.join('\n')}\n`);
  console.log(`${examples.length} examples -> ${OUT}${unlabelled.length > 0 ? `; ${unlabelled.length} pages without a label: ${unlabelled.slice(0, 10).join(', ')}` : ''}`);
}
