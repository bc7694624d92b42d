import { Type } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import type { PageFacts } from '../../crawler/extract.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { Configuration, defineTaskType, isCheck, type LiveCheck, type LiveProbe } from '../task-type.ts';

const linksOf = (f: PageFacts, base: string) => new Set(f.links.flatMap((l) => normalizeUrl(l.href, base) ?? []));
const noChange = 'no change defined';

export const fixBrokenLinks = defineTaskType({
  type: 'fix_broken_links',
  category: 'technical',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    changes: Type.Array(Type.Object({
      link_to: Type.String(), status: Type.Optional(Nullable(Type.Integer())), action: Type.Optional(Type.String()),
      // The rule (broken-link-advice.ts) by which the link is kept and its page published again: a cart, a legal page, a category.
      page_expected: Type.Optional(Type.String()),
    }, { additionalProperties: true })),
  }, 'Every link of the page to a 4xx/5xx or unreachable page'),
  gate: (c) => (c.changes.length > 0 ? undefined : noChange),
  manual: (c, url) => ({ instructions: `On ${url}, fix each link below as its action says.`, changes: c.changes }),
  // Fixed either way: the link is gone, or the page it points to answers again (published again, or redirected to where it moved;
  // not to the home page, which search engines read as a soft 404 and which is no restored page).
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const present = linksOf(f, url);
    const checks: LiveCheck[] = [];
    // (Each address is asked once per verification, answerOf: a menu's links are the same on every page of the task.)
    for (const change of c.changes) {
      if (!present.has(change.link_to)) {
        checks.push({ check: 'broken_link_fixed', expected: FIXED, actual: 'the link is removed', passed: true });
        continue;
      }
      const answer = await answerOf(probe, change.link_to);
      // (A link to the home page under another address, "/index.html" or "/home", rightly ends there.)
      const home = answer.final !== change.link_to && new URL(answer.final).pathname === '/' && !HOME_ALIAS.test(new URL(change.link_to).pathname);
      const said = answer.status === TOO_MANY_HOPS ? `redirects more than ${MAX_HOPS} times` : answer.status === 0 ? 'does not answer' : `answers ${answer.status}`;
      const actual = `${change.link_to} ${said}${answer.final === change.link_to ? '' : ` at ${answer.final}`}`
        + (home ? ' (the home page: a soft 404, not the page)' : '');
      checks.push({ check: 'broken_link_fixed', expected: FIXED, actual, passed: answer.status === 200 && !home });
    }
    return checks;
  },
  connectorChange: (c) => {
    // A link to a page the site must have is kept, and its page published again: a person's work, so the page's links are all
    // handed to them with what to do with each (a connector that took out the others would leave the kept ones to no one).
    const kept = c.changes.filter((change) => change.page_expected !== undefined).length;
    return kept > 0
      ? { unsupported: `${kept} of the page's broken links ${kept === 1 ? 'goes to a page' : 'go to pages'} the site is expected to have (each action says which), to be published again with the links kept` }
      : { field: 'content', edit: { kind: 'unwrap_links', targets: c.changes.map((change) => change.link_to) }, none: "the broken links are not in the post's content (a menu, widget or the theme links to them)" };
  },
  // Broken links on many pages (a moved section, links a template repeats) are one task.
  perPage: true,
});

const FIXED = 'the link removed, or its page answering 200';

/** Redirects followed to find what a link's address answers now; past them, the answer's status is TOO_MANY_HOPS. */
const MAX_HOPS = 5;
const TOO_MANY_HOPS = -1;
/** The home page's other addresses: a link to one that redirects to "/" is fixed. */
const HOME_ALIAS = /^\/(?:index\.\w+|home|accueil|startseite|inicio)?\/?$/iu;
/** Each verification's answers by address: a menu's links are on every page of a task, asked once. */
const answers = new WeakMap<LiveProbe, Map<string, Promise<{ status: number; final: string }>>>();
/** What a link's address answers at the end of its redirects (status 0: no answer; TOO_MANY_HOPS: redirected past MAX_HOPS). */
function answerOf(probe: LiveProbe, link: string): Promise<{ status: number; final: string }> {
  let known = answers.get(probe);
  if (!known) answers.set(probe, (known = new Map()));
  let answer = known.get(link);
  if (!answer) known.set(link, (answer = follow(probe, link)));
  return answer;
}
async function follow(probe: LiveProbe, link: string): Promise<{ status: number; final: string }> {
  let at = link;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const { status, headers } = await probe.fetch(at);
    const next = status >= 300 && status < 400 && headers.location ? normalizeUrl(headers.location, at) : undefined;
    if (next === undefined) return { status, final: at };
    at = next;
  }
  return { status: TOO_MANY_HOPS, final: at };
}

export const fixRedirectChains = defineTaskType({
  type: 'fix_redirect_chains',
  category: 'technical',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    changes: Type.Array(Type.Object({ link_to: Type.String(), final_url: Type.String() }, { additionalProperties: true })),
  }, 'Each link to a redirecting URL, with the final URL it should point to'),
  gate: (c) => (c.changes.length > 0 ? undefined : noChange),
  manual: (c, url) => ({ instructions: `On ${url}, change the href of each link below to its final URL.`, changes: c.changes }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const present = linksOf(f, url);
    return c.changes.map((change) => ({
      check: 'link_to_final_url', expected: change.final_url,
      actual: present.has(change.link_to) ? change.link_to : present.has(change.final_url) ? change.final_url : null, passed: !present.has(change.link_to),
    }));
  },
  connectorChange: (c) => ({
    field: 'content', edit: { kind: 'retarget_links', moves: c.changes.map((change) => [change.link_to, change.final_url]) },
    none: "the redirecting links are not in the post's content",
  }),
});

export const addInternalLinks = defineTaskType({
  type: 'add_internal_links',
  category: 'seo',
  configuration: Configuration({
    url: Type.String({ description: 'The orphan page to link to' }),
    anchor_text: Type.String(),
    sources: Type.Array(Type.Object({ url: Type.String() }, { additionalProperties: true }), { description: 'Up to 3 pages to link from' }),
    html: Type.String(),
  }, 'An orphan page (in the sitemap only) gets links from the pages whose titles share its rarest words'),
  gate: (c) => (c.sources.length > 0 && typeof c.anchor_text === 'string' ? undefined : 'no linking page or anchor text found'),
  manual: (c, url) => ({ instructions: `Link to ${url} from the pages below, with this anchor text in a sentence where it fits.`, html: c.html, changes: c.sources }),
  async liveChecks(c, url, probe) {
    const linking: string[] = [];
    for (const source of c.sources) {
      const f = await probe.facts(source.url);
      if (!isCheck(f) && linksOf(f, source.url).has(url)) linking.push(source.url);
    }
    return [{ check: 'linked_from', expected: c.sources.map((s) => s.url).join(', '), actual: linking.join(', ') || null, passed: linking.length > 0 }];
  },
});
