// npm run bench:real-sites: real audits, through the service (API, job queue, embedded
// database), of real documentation sites served from Debian's packages by a local static
// server: the Apache httpd manual (apache2-doc) served as its site serves it (language
// prefixes that the server collapses, robots.txt as application/octet-stream, a
// /sitemap.xml that is the manual's XML source, not a sitemap), SQLite's documentation
// (sqlite3-doc) and Git's (git-doc). Prints what each audit found; sites whose package is
// not installed are skipped.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, signUp, startTestApp } from '../../test/helpers/app.ts';
import { debianApacheManual, startLanguageSite } from '../../test/helpers/language-site.ts';

const APACHE = '/usr/share/doc/apache2-doc/manual';
const LANGUAGES = ['da', 'de', 'en', 'es', 'fr', 'ja', 'ko', 'pt-br', 'ru', 'tr', 'zh-cn'];
const maxPages = Number(process.argv[2] ?? 20_000);

const staticFiles = (root: string) => (_language: string, file: string) => {
  const full = path.join(root, file);
  return full.startsWith(root) && fs.existsSync(full) && fs.statSync(full).isFile() ? fs.readFileSync(full) : undefined;
};
const htmlFiles = (root: string) => fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).length;

const sites = [
  {
    name: 'Apache httpd 2.4 manual (apache2-doc, 11 languages)',
    root: APACHE,
    // Pages a crawler should find: one URL per language and file (Debian links untranslated
    // files to the English ones, which the site serves under the language's prefix too).
    realPages: () => LANGUAGES.reduce((sum, l) => sum + htmlFiles(path.join(APACHE, l)), 0),
    start: () => startLanguageSite({
      languages: LANGUAGES, defaultLanguage: 'en', read: debianApacheManual(APACHE),
      extraRoutes: {
        '/robots.txt': { type: 'application/octet-stream', body: 'User-agent: *\nDisallow: /zh-cn/\n' },
        '/sitemap.xml': { type: 'application/xml', body: '<?xml version="1.0"?>\n<!DOCTYPE sitemap SYSTEM "./style/sitemap.dtd">\n<sitemap metafile="sitemap.xml.meta">\n<title>Sitemap</title>\n<summary><p>This page lists the current documents.</p></summary>\n</sitemap>\n' },
      },
    }),
  },
  {
    name: 'SQLite documentation (sqlite3-doc)',
    root: '/usr/share/doc/sqlite3',
    realPages: () => htmlFiles('/usr/share/doc/sqlite3'),
    start: () => startLanguageSite({ languages: [], defaultLanguage: '', read: staticFiles('/usr/share/doc/sqlite3') }),
  },
  {
    name: 'Git documentation (git-doc)',
    root: '/usr/share/doc/git-doc',
    realPages: () => htmlFiles('/usr/share/doc/git-doc'),
    start: () => startLanguageSite({ languages: [], defaultLanguage: '', read: staticFiles('/usr/share/doc/git-doc') }),
  },
];

const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
const user = await signUp(ctx);
for (const site of sites) {
  if (!fs.existsSync(path.join(site.root, 'index.html')) && !fs.existsSync(path.join(site.root, 'en/index.html'))) {
    console.log(`## ${site.name}: not installed, skipped\n`);
    continue;
  }
  const server = await site.start();
  const created = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: site.name.slice(0, 60), domain: server.host } });
  const started = Date.now();
  await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: created.data.id, max_pages: maxPages } });
  let report;
  for (;;) {
    report = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${created.data.id}/latest`, token: user.accessToken });
    if (report.data.status === 'completed' || report.data.status === 'failed') break;
    await sleep(250);
  }
  const seconds = (Date.parse(report.data.finished_at) - Date.parse(report.data.started_at)) / 1000;
  const requests = server.requests();
  await server.close();
  const issues = new Map<string, { affected_count: number; affected: Array<{ url: string; value: string | null }> }>(
    report.data.issues.map((i: { check_id: string }) => [i.check_id, i]),
  );
  const share = (id: string) => report.data.score_breakdown?.find((l: { check_id: string }) => l.check_id === id)?.share ?? 0;
  console.log(`## ${site.name}`);
  console.log(JSON.stringify({
    status: report.data.status, error: report.data.error, real_html_files: site.realPages(), max_pages: maxPages,
    pages_crawled: report.data.pages_crawled, pages_discovered: report.data.pages_discovered, pages_by_status: report.data.pages_by_status,
    requests_served: requests, seconds, score: report.data.score,
    meta_description_missing_share: share('meta_description_missing'), title_duplicate_share: share('title_duplicate'),
    cost_top5: report.data.score_breakdown?.slice(0, 5).map((l: { check_id: string; share: number; cost: number }) => `${l.check_id} ${l.share} (-${l.cost})`),
    counts: Object.fromEntries(['crawl_trap', 'crawl_stopped_at_cap', 'blocked_by_robots', 'sitemap_missing', 'sitemap_invalid', 'broken_internal_links',
      'broken_fragment_link', 'charset_conflict', 'hreflang_missing', 'duplicate_content'].map((id) => [id, issues.get(id)?.affected_count ?? 0])),
    crawl_trap: issues.get('crawl_trap')?.affected.map((f) => f.value),
    crawl_stopped_at_cap: issues.get('crawl_stopped_at_cap')?.affected[0]?.value,
    sitemap_invalid: issues.get('sitemap_invalid')?.affected.map((f) => `${f.url}: ${f.value}`),
    broken_fragment_examples: issues.get('broken_fragment_link')?.affected.slice(0, 3).map((f) => `${f.url} -> ${f.value}`),
  }, null, 2));
  console.log();
}
await ctx.close();
