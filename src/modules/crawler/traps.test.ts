import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startLanguageSite } from '../../../test/helpers/language-site.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { crawlSite } from './crawl.ts';
import { TrapDetector } from './traps.ts';

const prose = (seed: string, n = 60) => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(' ');
const LANGUAGES = ['en', 'de', 'fr'];

const FILES = ['index.html', 'install.html', 'upgrading.html', 'mod/index.html', 'mod/core.html', 'mod/mod_alias.html', 'mod/mod_rewrite.html'];

/**
 * A small manual linked as the Apache httpd manual is: every page links its translations
 * relative to the default-language path (../de/mod/core.html), the home links ./de/. As in
 * Debian's package, a page not translated into French is served in English under /fr/.
 */
function manualPage(language: string, file: string): Buffer | undefined {
  if (!FILES.includes(file)) return undefined;
  if (language === 'fr' && file === 'mod/mod_rewrite.html') language = 'en';
  const up = '../'.repeat(file.split('/').length - 1) || './';
  const translations = LANGUAGES.map((l) => `<a href="${up}${l}/${file.replace(/index\.html$/, '')}" hreflang="${l}">${l}</a>`).join(' | ');
  const nav = FILES.map((f) => `<a href="${up}${f}">${f}</a>`).join(' ');
  return Buffer.from(page({ lang: language, title: `${file} in ${language}`, body: `<p>${translations}</p><p>${nav}</p><h1>${file}</h1><p>${prose(`${language}${file}`)}</p>` }));
}

describe('crawl traps', () => {
  it('stop the Apache manual trap: collapsed language prefixes that relative links keep stacking', async (t) => {
    const site = await startLanguageSite({ languages: LANGUAGES, defaultLanguage: 'en', read: manualPage });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 2000, allowPrivate: true, concurrency: 2 });
    const real = result.pages.filter((p) => !p.trap && p.status === 200).map((p) => new URL(p.url).pathname);
    for (const language of ['', 'de/', 'fr/']) {
      for (const file of FILES) assert.ok(real.includes(`/${language}${file}`), `/${language}${file} crawled`);
    }
    assert.deepEqual(real.filter((path) => path.split('/').filter((s) => LANGUAGES.includes(s)).length > 1), [], 'no stacked prefixes among the pages');
    assert.ok(result.traps.some((trap) => /self-similar/.test(trap.reason)), 'the trap is reported');
    const copy = result.pages.find((p) => p.url === `${site.origin}/fr/mod/mod_rewrite.html`);
    assert.equal(copy?.trap, undefined, 'an untranslated page under /fr/ is a duplicate, not a trap');
    const fetched = result.pages.filter((p) => p.status !== null).length;
    const urls = FILES.length * 3 + 8; // the real pages, and their directory and /en/ twins
    assert.ok(fetched <= urls * 2, `${fetched} URLs fetched for ${FILES.length * 3} real pages`);
    assert.equal(result.stoppedAtPageCap, false);
  });

  it('skip repeating path segments before fetching them', async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/a/b/">ab</a>' }) },
      '/a/b/': { body: page({ body: '<a href="a/b/">again</a><a href="x/x/">twice</a>' }) },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 50, allowPrivate: true });
    assert.equal(site.hitsFor('/a/b/a/b/').length, 0);
    assert.equal(site.hitsFor('/a/b/x/x/').length, 0);
    assert.ok(result.traps.some((trap) => /repeating path segments/.test(trap.reason) && trap.count === 2));
  });

  it('stop unbounded parameters: a calendar whose every month is a URL', async (t) => {
    // Every /calendar?month=N answers and links to N+1 (the fixture serves unknown paths 404, so wrap it).
    const calendar = await startFixtureSiteWith((path) => {
      const month = /^\/calendar\?month=(\d+)$/.exec(path)?.[1];
      if (path === '/') return page({ body: Array.from({ length: 120 }, (_, i) => `<a href="/calendar?month=${i}">Month ${i}</a>`).join('') });
      return month ? page({ body: `<p>${prose(`m${month}`)}</p><a href="/calendar?month=${Number(month) + 1}">Next month</a>` }) : undefined;
    });
    t.after(() => calendar.close());
    const result = await crawlSite({ domain: calendar.host, maxPages: 500, allowPrivate: true });
    const months = result.pages.filter((p) => p.url.includes('month=')).length;
    assert.equal(months, 50, 'fifty variants of one path, then no more');
    assert.ok(result.traps.some((trap) => /unbounded parameters/.test(trap.reason)));
    assert.equal(result.stoppedAtPageCap, false);
  });
});

describe('the trap rules', () => {
  it('skip very long URLs and very deep paths, and stop following a text served by more than 20 URLs', () => {
    const traps = new TrapDetector(() => false);
    assert.equal(traps.skipOnDiscovery(`https://x.test/${'a'.repeat(2049)}`), true);
    assert.equal(traps.skipOnDiscovery(`https://x.test/${Array.from({ length: 31 }, (_, i) => `s${i}`).join('/')}`), true);
    assert.equal(traps.skipOnDiscovery(`https://x.test/${Array.from({ length: 30 }, (_, i) => `s${i}`).join('/')}`), false);
    const verdicts = Array.from({ length: 21 }, (_, i) => traps.afterFetch(`https://x.test/session-${i}/page`, 'same-hash'));
    assert.equal(verdicts.filter((v) => v === 'copy').length, 1, 'the 21st URL of one text is a copy, not followed');
    assert.equal(verdicts.at(-1), 'copy');
    assert.ok([...traps.patterns.values()].some((p) => /more than 20 URLs/.test(p.reason)));
  });
});

describe('robots.txt, charsets and unreachable sites', () => {
  it('reads robots.txt whatever its content type, and blocked URLs spend no page budget', async (t) => {
    const site = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'application/octet-stream' }, body: 'User-agent: *\nDisallow: /private\n' },
      '/': { body: page({ body: '<a href="/private/1">1</a><a href="/private/2">2</a><a href="/public">public</a>' }) },
      '/public': { body: page() },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 2, allowPrivate: true });
    assert.equal(site.hitsFor('/private/1').length + site.hitsFor('/private/2').length, 0);
    assert.equal(result.pages.filter((p) => p.blockedByRobots).length, 2);
    assert.equal(result.pages.filter((p) => p.status === 200).length, 2, 'the two fetched pages are the home page and /public');
  });

  it('decode pages in the charset they declare (header, BOM, meta) and record a conflict', async (t) => {
    const korean = Buffer.from([0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee]); // 한국어 in EUC-KR
    const japanese = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語 in Shift_JIS
    const html = (meta: string, title: Buffer) => Buffer.concat([
      Buffer.from(`<!doctype html><html><head>${meta}<title>`), title, Buffer.from(` manual page title</title></head><body><h1>`), title,
      Buffer.from(`</h1><p>${'padding '.repeat(200)}</p></body></html>`),
    ]);
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/ko-header">a</a><a href="/ja-meta">b</a><a href="/ko-conflict">c</a><a href="/bom">d</a>' }) },
      '/ko-header': { headers: { 'content-type': 'text/html; charset=EUC-KR' }, body: html('', korean) },
      '/ja-meta': { headers: { 'content-type': 'text/html' }, body: html('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', japanese) },
      // The header wins over the page (HTML standard), and the mismatch is recorded.
      '/ko-conflict': { headers: { 'content-type': 'text/html; charset=EUC-KR' }, body: html('<meta charset="utf-8">', korean) },
      '/bom': { headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), html('', Buffer.from('Ünïcödé'))]) },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 10, allowPrivate: true });
    const at = (path: string) => result.pages.find((p) => p.url === `${site.origin}${path}`)!;
    assert.equal(at('/ko-header').facts?.titles[0], '한국어 manual page title');
    assert.equal(at('/ja-meta').facts?.titles[0], '日本語 manual page title');
    assert.equal(at('/ko-conflict').facts?.titles[0], '한국어 manual page title');
    assert.equal(at('/ko-conflict').charsetConflict, 'header euc-kr, page utf-8');
    assert.equal(at('/bom').facts?.titles[0], 'Ünïcödé manual page title', 'a byte order mark beats the header');
    assert.equal(at('/ko-header').charsetConflict, undefined);
    assert.equal(at('/ja-meta').charsetConflict, undefined);
  });

  it('say why a site that does not answer could not be crawled', async () => {
    const site = await startFixtureSite({});
    const host = site.host;
    await site.close(); // nothing listens there any more
    const result = await crawlSite({ domain: host, maxPages: 5, allowPrivate: true });
    assert.match(String(result.unreachable), /did not answer: connection refused/);
  });

  it('find nothing to audit when the home page answers an error and no page answers with content', async () => {
    const empty = await startFixtureSiteWith(() => undefined);
    const result = await crawlSite({ domain: empty.host, maxPages: 5, allowPrivate: true });
    await empty.close();
    assert.match(String(result.unreachable), /answers 404, and no page of the site .* answered with content/);
  });
});

/** A loopback site answering each path with what `answer` returns (404 for undefined). */
async function startFixtureSiteWith(answer: (path: string) => string | undefined) {
  const http = await import('node:http');
  const server = http.createServer((request, response) => {
    const body = answer(request.url ?? '/');
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
