import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changesOf, diffExcerpts, diffWords, pageCount, sides } from '../../web/src/lib/diff.ts';
import { dispositionFileName } from '../../web/src/lib/file-name.ts';
import { changeTone, errorMessage, fieldErrors, formatChange, formatNumber, formatRelative, googleRefusal, humanize, missingScopes, platformName, positionDelta } from '../../web/src/lib/format.ts';

const join = (parts: Array<{ text: string }>) => parts.map((p) => p.text).join('');

describe('a broken link in words', () => {
  it('says what to do before, and what was done once a connector did it', () => {
    const config = { changes: [{ link_to: 'https://shop/guides/orchids/', status: 404, action: 'point the link at a working page, or remove it' }] };
    assert.equal(changesOf(config)[0]!.after, 'point the link at a working page, or remove it');
    assert.equal(changesOf(config, { done: true })[0]!.after, 'the link removed, its words kept as text');
  });
});

describe("a change inside a post's HTML", () => {
  it('shows the edited link with its surroundings, not the whole post twice', () => {
    const filler = '<p>A paragraph of the post that says a good deal about pruning roses in winter.</p>\n'.repeat(40);
    const before = `${filler}<p>See our <a href="/guides/orchids/">orchid guide</a> too.</p>\n${filler}`;
    const after = `${filler}<p>See our orchid guide too.</p>\n${filler}`;
    const parts = diffExcerpts(before, after);
    const removed = parts.filter((p) => p.kind === 'removed').map((p) => p.text).join('');
    assert.match(removed, /<a href="\/guides\/orchids\/">orchid/);
    assert.ok(join(parts).length < 400, `${join(parts).length} characters shown of ${before.length}`);
    assert.match(parts[0]!.text, /^…/, 'the start elided');
    assert.match(parts.at(-1)!.text, /…$/, 'the end elided');
    assert.deepEqual(diffExcerpts('same', 'same'), [{ kind: 'same', text: 'same' }]);
  });
});

describe('the before -> after diff', () => {
  it('marks exactly the replaced words and keeps each side whole', () => {
    const before = 'Everything you ever wanted to know about pruning roses in a small garden';
    const after = 'Everything you ever wanted to know about – Garden Shop';
    const parts = diffWords(before, after);
    const { before: left, after: right } = sides(parts);
    assert.equal(join(left), before);
    assert.equal(join(right), after);
    assert.equal(parts[0]!.kind, 'same');
    assert.equal(parts[0]!.text, 'Everything you ever wanted to know about ');
    assert.deepEqual(parts.filter((p) => p.kind === 'added').map((p) => p.text.trim()), ['– Garden Shop']);
    assert.deepEqual(parts.filter((p) => p.kind === 'removed').map((p) => p.text.trim()), ['pruning roses in a small garden']);
  });

  it('keeps both sides exact however the changes interleave', () => {
    for (const [before, after] of [['x a c y', 'x b y'], ['one two three', 'two four'], ['  lead', 'lead  '], ['a b c d', 'a x c y']]) {
      const { before: left, after: right } = sides(diffWords(before, after));
      assert.equal(join(left), before);
      assert.equal(join(right), after);
    }
  });

  it('shows an added value as all new and a removed one as all gone', () => {
    assert.deepEqual(diffWords(null, 'A new description.'), [{ kind: 'added', text: 'A new description.' }]);
    assert.deepEqual(diffWords('Old text', ''), [{ kind: 'removed', text: 'Old text' }]);
    assert.deepEqual(diffWords('Same words', 'Same words'), [{ kind: 'same', text: 'Same words' }]);
  });

  it('falls back to whole removal and addition for very long values instead of a huge table', () => {
    const long = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
    const parts = diffWords(long, `${long} more`);
    assert.deepEqual(parts.map((p) => p.kind), ['removed', 'added']);
  });

  it('finds the changes in a task configuration, whatever its type', () => {
    assert.deepEqual(changesOf({ url: 'https://x/', field: 'meta_description', before: null, after: 'New' }), [{ label: 'meta description', before: null, after: 'New' }]);
    assert.equal(changesOf({ url: 'https://x/', field: 'meta_description', before: null, after: 'New', drafted_from: 'standfirst' })[0]!.source, 'the page\'s standfirst', 'says whose words a drafted value is');
    assert.equal(changesOf({ pages: [{ url: 'https://x/a', field: 'meta_description', before: null, after: 'A', drafted_from: 'lead' }] })[0]!.source, 'the page\'s opening paragraph');
    assert.equal(changesOf({ url: 'https://x/', field: 'meta_description', before: null, after: 'S', drafted_from: 'sections' })[0]!.source, 'the page\'s section headings, joined into a sentence');
    assert.equal(changesOf({ url: 'https://x/', field: 'meta_description', before: null, after: 'S', drafted_from: 'section' })[0]!.source, 'a paragraph further down the page');
    assert.equal(changesOf({ url: 'https://x/', field: 'meta_description', before: null, after: 'M', drafted_from: 'model_summary' })[0]!.source,
      'a language model\'s summary of the page\'s headline and opening paragraphs', 'a model\'s words are said to be one\'s');
    assert.equal(changesOf({ url: 'https://x/', field: 'title', before: 'T', after: 'U', drafted_from: 'a writer we do not know' })[0]!.source, undefined);
    assert.deepEqual(changesOf({ images: [{ src: '/rose.jpg', alt: 'Red rose' }] }), [{ label: 'alt of /rose.jpg', before: null, after: 'Red rose' }]);
    assert.deepEqual(changesOf({ changes: [{ href: '/old/', final_url: 'https://x/new/', anchor: 'guide' }] }), [{ label: 'guide', before: '/old/', after: 'https://x/new/' }]);
    assert.deepEqual(changesOf({ pages: [
      { url: 'https://x/roses/', field: 'meta_description', before: null, after: 'Roses' },
      { url: 'https://x/tulips/?lang=en', field: 'meta_description', before: 'Old', after: 'Tulips' },
    ] }), [
      { label: 'meta description of /roses/', before: null, after: 'Roses' },
      { label: 'meta description of /tulips/?lang=en', before: 'Old', after: 'Tulips' },
    ], 'a task covering several pages shows each page');
    assert.deepEqual(changesOf({ pages: [{ url: 'https://x/a', clicks: 3 }], instructions: 'Merge' }), [], 'a search task\'s pages are not changes');
    assert.deepEqual(changesOf({ changes: [{ link_to: 'https://x/orchids/', status: 404, action: 'point the link at a working page, or remove it' }] }),
      [{ label: 'link to /orchids/ (answers 404)', before: 'https://x/orchids/', after: 'point the link at a working page, or remove it' }], 'a broken link shows where it points');
    assert.deepEqual(changesOf({ instructions: 'Write a page' }), []);
    assert.equal(pageCount({ pages: [{ url: 'https://x/a', after: 'A' }, { url: 'https://x/b', after: 'B' }] }), 2);
    assert.deepEqual(changesOf({ pages: [{ url: 'https://x/a/', changes: [{ link_to: 'https://x/gone/', status: 404, action: 'remove it' }] }, { url: 'https://x/b/', changes: [] }] }),
      [{ label: 'link to /gone/ (answers 404) on /a/', before: 'https://x/gone/', after: 'remove it' }], 'each page\'s broken links');
    const menu = { link_to: 'https://x/cart/', status: 404, action: 'in the site\'s menu or footer (on 2 pages): fix it once there', in_template: true };
    assert.deepEqual(changesOf({ pages: [{ url: 'https://x/a/', changes: [menu, { link_to: 'https://x/gone/', status: 404, action: 'remove it' }] }, { url: 'https://x/b/', changes: [menu] }] }), [
      { label: 'link to /cart/ (answers 404) in the menu or footer', before: 'https://x/cart/', after: 'in the site\'s menu or footer (on 2 pages): fix it once there' },
      { label: 'link to /gone/ (answers 404) on /a/', before: 'https://x/gone/', after: 'remove it' },
    ], 'a menu\'s broken link once, each page\'s own on its page');
    assert.equal(pageCount({ pages: [{ url: 'https://x/a', instructions: 'Expand' }, { url: 'https://x/b', instructions: 'Expand' }] }), 2, 'briefs per page');
    assert.equal(pageCount({ pages: [{ url: 'https://x/a', clicks: 3 }, { url: 'https://x/b', clicks: 2 }] }), 1, 'competing pages of a search task are one task\'s subject');
    assert.deepEqual(changesOf(null), []);
  });
});

describe('formatting', () => {
  it('formats numbers, changes and their tone', () => {
    assert.equal(formatNumber(1234567), '1,234,567');
    assert.equal(formatNumber(216_400, { compact: true }), '216.4K');
    assert.equal(formatNumber(18.84, { digits: 1 }), '18.8');
    assert.equal(formatNumber(null), '—');
    assert.equal(formatChange(8.123), '+8.1%');
    assert.equal(formatChange(-3), '−3.0%');
    assert.equal(formatChange(null), 'no earlier data');
    assert.equal(changeTone(5), 'good');
    assert.equal(changeTone(5, true), 'bad', 'a higher position number is worse');
    assert.equal(changeTone(0), 'neutral');
    assert.equal(positionDelta(4, 9), 5, 'moving from 9 to 4 is up five');
    assert.equal(positionDelta(null, 9), null);
    assert.equal(humanize('fix_missing_meta_description'), 'Fix missing meta description');
    assert.equal(platformName('wordpress'), 'WordPress', 'brand names as their makers write them');
    assert.equal(platformName('unknown'), 'Not detected');
  });

  it('says how long ago', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    assert.equal(formatRelative('2026-01-10T11:59:50Z', now), 'just now');
    assert.equal(formatRelative('2026-01-10T11:30:00Z', now), '30 min ago');
    assert.equal(formatRelative('2026-01-08T12:00:00Z', now), '2 days ago');
    assert.equal(formatRelative(null, now), 'never');
  });

  it("puts the API's field errors in plain words beside the right field", () => {
    const errors = fieldErrors([
      { path: '/domain', message: 'must be a public host name' },
      { path: '/name', message: 'must NOT have fewer than 1 characters' },
      { path: '/application_password', message: 'is required for a WordPress connector' },
      { path: '/domain', message: 'a second message for the same field' },
    ]);
    assert.deepEqual(errors, {
      domain: 'Domain must be a public host name.',
      name: 'Required.',
      application_password: 'Application password is required for a WordPress connector.',
    });
  });

  it("shows a problem's detail, and when to retry after a 429", () => {
    assert.equal(errorMessage({ status: 404, problem: { detail: 'Site not found' } }), 'Site not found');
    assert.equal(errorMessage({ status: 429, retryAfter: 30, problem: { detail: 'limited' } }), 'Too many requests. Try again in 30 seconds.');
    assert.equal(errorMessage({ status: 429 }), 'Too many requests. Try again in a moment.');
    assert.equal(errorMessage({ status: 500, problem: {} }), 'The service could not complete the request. Try again shortly.');
    assert.match(errorMessage(new TypeError('Failed to fetch')), /cannot be reached/);
  });
});

describe('a Google round trip that came back refused', () => {
  it('is worded by the app from a code, never with text from the address bar', () => {
    assert.match(googleRefusal('other_browser')!, /not started in this browser/);
    assert.equal(googleRefusal(null), undefined);
    assert.equal(googleRefusal('Your account is suspended, call +1 555 0100'), 'it could not be completed. Start again.', 'a crafted link says nothing of its own');
    assert.deepEqual(missingScopes('https://www.googleapis.com/auth/webmasters.readonly call-us-now'), ['webmasters.readonly']);
  });
});

describe('language versions in a before -> after', () => {
  it('read as "language: address", one a line', () => {
    const [change] = changesOf({ url: 'https://x.test/fr/a', field: 'hreflang', before: null, after: [{ hreflang: 'fr', href: 'https://x.test/fr/a' }, { hreflang: 'de', href: 'https://x.test/de/a' }] });
    assert.equal(change!.after, 'fr: https://x.test/fr/a\nde: https://x.test/de/a');
  });
});

describe('what a task risks, in words', () => {
  const title = { type: 'fix_title_tag', category: 'on_page', configuration: { field: 'title', before: 'A', after: 'B' } };
  const page = (n: number) => ({ url: `https://shop.example/p/${n}`, field: 'meta_description', before: null, after: 'A description.' });
  const many = { ...title, configuration: { pages: [page(1), page(2), page(3)] } };
  it('says what will be written before, what was written after, and never that a failed change was written', async () => {
    const { riskOf, fieldName } = await import('../../web/src/lib/risk.ts');
    assert.match(riskOf(title).text, /^Once you approve, the title of this page is written/);
    assert.match(riskOf({ ...title, status: 'completed' }).text, /^The title of this page was written/);
    // Only a failure that left the site as it was (retryable) says nothing was written; another sends the reader to its error.
    const failed = (retryable: boolean) => ({ status: 'failed', error: { message: 'WordPress answered 503', retryable } });
    assert.equal(riskOf({ ...title, ...failed(true) }).text, 'The change did not go through: nothing was written to the page.');
    assert.match(riskOf({ ...many, ...failed(true) }).text, /any of its 3 pages it had already written was put back/);
    assert.match(riskOf({ ...title, ...failed(false) }).text, /may not be as it was: the error above says what was written/);
    assert.match(riskOf({ ...title, status: 'failed' }).text, /may not be as it was/);
    assert.equal(riskOf({ ...title, outcome: 'brief' }).level, 'none');
    assert.equal(riskOf({ ...title, configuration: { field: 'content' } }).level, 'medium');
    assert.equal(fieldName('meta.sos_meta_description'), 'meta description');
  });

  it('says that links kept for a page the site must have are the owner\'s to restore, not written by the connector', async () => {
    const { riskOf } = await import('../../web/src/lib/risk.ts');
    const change = (link: string, kept?: string) => ({ link_to: `https://shop.example${link}`, status: 404, action: 'a', ...(kept ? { page_expected: kept } : {}) });
    const links = { type: 'fix_broken_links', category: 'technical', configuration: { pages: [{ url: 'https://shop.example/a', changes: [change('/cart', 'shop_system_page'), change('/old')] }, { url: 'https://shop.example/b', changes: [change('/cgv/', 'legal_page')] }] } };
    assert.match(riskOf(links).text, /^2 of its links go to pages the site should have/);
    assert.match(riskOf({ ...links, configuration: { changes: [change('/old')] } }).text, /^Changes the content or markup of this page/);
  });
});

describe("an export's file name", () => {
  it('is the name Content-Disposition gives (filename* first), never a path, else a fallback', () => {
    assert.equal(dispositionFileName('attachment; filename="shop.example-keywords.csv"'), 'shop.example-keywords.csv');
    assert.equal(dispositionFileName("attachment; filename=\"plain.csv\"; filename*=UTF-8''caf%C3%A9.csv"), 'café.csv');
    assert.equal(dispositionFileName('attachment; filename="../../etc/passwd"'), '-..-etc-passwd');
    assert.equal(dispositionFileName('attachment; filename=bare.csv'), 'bare.csv');
    assert.equal(dispositionFileName(null), 'export.csv');
    assert.equal(dispositionFileName("attachment; filename*=UTF-8''%E0%A4%A"), 'export.csv', 'a malformed encoding and no plain name');
  });
});

describe('dates in the chosen time zone', () => {
  it('shows an instant in the chosen zone, a calendar day as that day, and falls back to the browser for an unknown zone', async () => {
    const { formatDate, setTimeZone, currentTimeZone, browserTimeZone } = await import('../../web/src/lib/format.ts');
    try {
      setTimeZone('Asia/Tokyo');
      assert.equal(formatDate('2026-11-26T20:30:00Z', true), '27 Nov 2026, 05:30 GMT+9', 'the next morning in Tokyo');
      assert.equal(formatDate('2026-11-26T20:30:00Z'), '27 Nov 2026');
      assert.equal(formatDate('2026-09-26'), '26 Sep 2026', 'a calendar day is its day in any zone');
      setTimeZone('America/Los_Angeles');
      assert.equal(formatDate('2026-11-26T20:30:00Z', true), '26 Nov 2026, 12:30 GMT-8');
      setTimeZone('Mars/Olympus_Mons');
      assert.equal(currentTimeZone(), browserTimeZone());
    } finally {
      setTimeZone(undefined);
    }
  });
});
