import type { PageFacts } from './extract.ts';

/**
 * Whether a page is rendered in Chromium. A site's `rendering` setting: `never` (raw HTML only), `always` (every HTML
 * page), or `auto`, where these rules read the raw HTML, and the home page is rendered once to compare (the site's
 * template: when its scripts add text, links or directives there, they do on every page, and every page is rendered).
 */
export const RENDERING_MODES = ['auto', 'always', 'never'] as const;
export type RenderingMode = (typeof RENDERING_MODES)[number];

export type RenderReason = 'always' | 'template_sample' | 'template_renders_content' | RenderRuleId;

interface RenderRule {
  id: string;
  /** Said to the user: why this page was rendered. */
  says: string;
  /** A page it renders, and one it leaves raw (render-rules.test.ts reads both). */
  example: string;
  counterExample: string;
  applies(facts: PageFacts): boolean;
}

/** Fewer words than this in the raw HTML is an empty shell when it also loads scripts. */
const SHELL_WORDS = 30;
/** An app root with less text than this was left for JavaScript to fill. */
const EMPTY_ROOT_CHARS = 20;
const ASKS_FOR_JAVASCRIPT = /\b(?:enable|turn on|activate|requires?|needs?)\b.{0,40}\bjavascript\b|\bjavascript\b.{0,40}\b(?:required|disabled|enabled|needed|must be)\b|javascript\s+(?:aktivieren|erforderlich)|activ(?:ez|er) (?:le )?javascript|habilit(?:e|ar) (?:el )?javascript/i;

export const RENDER_RULES = [
  {
    id: 'empty_app_root',
    says: 'its application root is empty in the HTML: scripts fill it',
    example: '<div id="root"></div><script src="/assets/index.js"></script>',
    counterExample: '<div id="__next"><h1>Pricing</h1><p>Three plans for teams of any size, billed monthly.</p></div>',
    applies: (f) => f.scripting?.appRoot !== undefined && f.scripting.appRoot.chars < EMPTY_ROOT_CHARS && f.scripting.scripts > 0,
  },
  {
    id: 'noscript_asks_for_javascript',
    says: 'its <noscript> asks for JavaScript',
    example: '<noscript>You need to enable JavaScript to run this app.</noscript>',
    counterExample: '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X"></iframe></noscript>',
    applies: (f) => f.scripting?.noscript !== undefined && ASKS_FOR_JAVASCRIPT.test(f.scripting.noscript),
  },
  {
    id: 'scripts_without_text',
    says: `it has fewer than ${SHELL_WORDS} words without JavaScript, and loads scripts`,
    example: '<body><header>Acme</header><script type="module" src="/main.js"></script></body>',
    counterExample: '<body><article><h1>Brewing at altitude</h1><p>Water boils at a lower temperature the higher you go: at 2,000 metres it boils at about 93 degrees, so coffee brewed there extracts more slowly and tastes thin unless it is ground finer or steeped longer.</p></article><script src="/analytics.js"></script></body>',
    applies: (f) => (f.scripting?.scripts ?? 0) > 0 && f.wordCount < SHELL_WORDS,
  },
] as const satisfies readonly RenderRule[];

export type RenderRuleId = (typeof RENDER_RULES)[number]['id'];

const REASONS: Record<RenderReason, string> = {
  always: 'the site is set to render every page',
  template_sample: "the home page is rendered once in every audit, to compare the site's template with and without JavaScript",
  template_renders_content: "JavaScript adds text, links or directives to the site's template (seen on the home page), so every page is rendered",
  ...Object.fromEntries(RENDER_RULES.map((r) => [r.id, r.says])) as Record<RenderRuleId, string>,
};

/** Why a page was rendered, in words. */
export const describeRenderReason = (reason: RenderReason) => REASONS[reason];

/** The rule that says this raw page needs rendering, if any (in `auto`). */
export function renderRuleFor(facts: PageFacts): RenderRuleId | undefined {
  return RENDER_RULES.find((rule) => rule.applies(facts))?.id;
}
