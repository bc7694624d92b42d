import { PAGES_PER_TASK } from '../../task-types/index.ts';
import { RENDERED_ELEMENTS } from '../../task-types/types/rendering.ts';
import { priorityOf } from '../proposal.ts';
import type { AuditFinding } from '../planning-context.ts';
import type { Planner } from './planner.ts';
import { parseDirectiveChange, parseLinkCount } from '../../checks/rendering-checks.ts';

const CHECKS = Object.keys(RENDERED_ELEMENTS) as Array<keyof typeof RENDERED_ELEMENTS>;
/** The checks that say a crawler without JavaScript misses what the page is about (the rest are details of it). */
const MISSED = new Set(['content_only_after_javascript', 'links_only_after_javascript', 'directive_changed_by_javascript']);

/**
 * How to serve in the HTML what the browser builds, for a developer: the ways each kind of front end does it. The
 * audit cannot see the framework for sure, so the brief names the usual ones and the test that proves it done.
 */
const HOW = [
  'Serve these in the HTML the server sends, so that a crawler that runs no script reads the same page as a browser:',
  '- Next.js: render these routes on the server (server components, or getStaticProps / getServerSideProps in the pages router), not in useEffect on the client.',
  '- Nuxt: keep ssr: true (or prerender the routes with nitro); fetch data with useAsyncData/useFetch so it is in the server render.',
  '- Angular: add server-side rendering or prerendering (ng add @angular/ssr).',
  '- A React, Vue or Svelte single-page app (Vite, create-react-app): prerender the routes at build time (vite-ssg, vite-plugin-ssr/Vike, react-snap), or move them to a framework that renders on the server (Next.js, Nuxt, SvelteKit, Astro, Remix).',
  '- A site builder: turn on its SEO or prerendering option for these pages.',
  'Put the title, meta description, canonical and robots meta in the server HTML (not set by a script), make every navigation element an <a href> link, and check the result with "view source" (not the browser\'s inspector): the listed text and links must be there.',
].join('\n');

/** One brief: the pages where JavaScript alone shows content, links or directives, and what to do about it. */
export const renderingPlanner: Planner = {
  checks: CHECKS,
  async plan(ctx) {
    const byUrl = ctx.byUrl(CHECKS);
    if (byUrl.size === 0) return;
    const counts = new Map<string, number>();
    // The pages where the most is missed first: the home page, then by how many kinds of element.
    const pages = [...byUrl].map(([url, findings]) => {
      const elements = [...new Set(findings.map((f) => RENDERED_ELEMENTS[f.check_id as keyof typeof RENDERED_ELEMENTS]))];
      for (const element of elements) counts.set(element, (counts.get(element) ?? 0) + 1);
      // What verification will look for in the server's HTML: the directives as rendered, and as many links.
      const directives = findings.flatMap((f) => (f.check_id === 'directive_changed_by_javascript' ? parseDirectiveChange(f.value) ?? [] : []));
      const links = Math.max(0, ...findings.filter((f) => f.check_id === 'links_only_after_javascript').map((f) => parseLinkCount(f.value)));
      return { url, elements, example: exampleOf(findings), directives, links, missed: findings.filter((f) => MISSED.has(f.check_id)).length, findings };
    }).sort((a, b) => Number(b.url === ctx.homeUrl) - Number(a.url === ctx.homeUrl) || b.missed - a.missed || b.elements.length - a.elements.length || a.url.localeCompare(b.url));
    const listed = pages.slice(0, PAGES_PER_TASK);
    const elements = [...counts].sort((a, b) => b[1] - a[1]).map(([element, n]) => ({ element, pages: n }));
    const checkIds = [...new Set([...byUrl.values()].flat().map((f) => f.check_id))];
    const missedText = counts.get(RENDERED_ELEMENTS.content_only_after_javascript) ?? 0;
    const summary = elements.map((e) => `${e.element} on ${e.pages} page${e.pages === 1 ? '' : 's'}`).join(', ');
    await ctx.propose({
      type: 'render_on_server', category: 'technical',
      priority: priorityOf(checkIds, byUrl.size),
      title: missedText > 0 ? `Serve the main text of ${missedText} page${missedText === 1 ? '' : 's'} in the HTML, not only after JavaScript` : 'Serve links and directives in the HTML, not only after JavaScript',
      description: `Only after JavaScript runs do these pages show their ${summary}. AI assistants' crawlers (GPTBot, ClaudeBot, PerplexityBot…) run no script and cannot read it, and Google indexes it only after a deferred render. This brief lists the pages, what each is missing in its HTML, and how to serve it.`,
      target: ctx.homeUrl,
      configuration: {
        pages: listed.map(({ url, elements: e, example, directives, links }) => ({
          url, elements: e, ...(example ? { example } : {}), ...(directives.length > 0 ? { directives } : {}), ...(links > 0 ? { links_only_rendered: links } : {}),
        })),
        elements,
        ...(pages.length > listed.length ? { more_pages: pages.length - listed.length } : {}),
        instructions: HOW,
      },
      evidence: listed.slice(0, 10).flatMap((p) => p.findings.slice(0, 2).map((f) => ctx.evidence(f))),
    });
  },
};

/** The audit's own words for the page's most telling finding ("3% of the main text is in the HTML"). */
function exampleOf(findings: AuditFinding[]): string | undefined {
  const telling = ['directive_changed_by_javascript', 'content_only_after_javascript', 'links_only_after_javascript', 'metadata_changed_by_javascript', 'links_without_href'];
  for (const id of telling) {
    const finding = findings.find((f) => f.check_id === id && f.value);
    if (finding) return finding.value!;
  }
  return undefined;
}
