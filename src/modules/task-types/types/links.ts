import { Type } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import type { PageFacts } from '../../crawler/extract.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { Configuration, defineTaskType, isCheck, type LiveProbe } from '../task-type.ts';

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
  // Fixed either way: the link is gone, or the page it points to answers again (published again, or redirected to where it moved).
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const present = linksOf(f, url);
    return Promise.all(c.changes.map(async (change) => {
      if (!present.has(change.link_to)) return { check: 'broken_link_fixed', expected: FIXED, actual: 'the link is removed', passed: true };
      const answer = await answerOf(probe, change.link_to);
      return { check: 'broken_link_fixed', expected: FIXED, actual: `${change.link_to} ${answer}`, passed: answer === 'answers 200' };
    }));
  },
  connectorChange: (c) => {
    // Only links to pages that are gone for good are taken out of a post; a link to a page the site must have is kept.
    const targets = c.changes.filter((change) => change.page_expected === undefined).map((change) => change.link_to);
    return targets.length === 0
      ? { unsupported: 'every link goes to a page the site is expected to have (its action says which): the page is to be published again, and the links stay' }
      : { field: 'content', edit: { kind: 'unwrap_links', targets }, none: "the broken links are not in the post's content (a menu, widget or the theme links to them)" };
  },
  // Broken links on many pages (a moved section, links a template repeats) are one task.
  perPage: true,
});

const FIXED = 'the link removed, or its page answering 200';

/** What a link's address answers now, following up to MAX_HOPS redirects: "answers 200", "answers 404", "redirects too often". */
const MAX_HOPS = 5;
async function answerOf(probe: LiveProbe, link: string): Promise<string> {
  let at = link;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const { status, headers } = await probe.fetch(at);
    const next = status >= 300 && status < 400 && headers.location ? normalizeUrl(headers.location, at) : undefined;
    if (next === undefined) return status === 0 ? 'does not answer' : `answers ${status}`;
    at = next;
  }
  return 'redirects too often';
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
