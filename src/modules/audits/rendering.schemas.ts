import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Uuid } from '../../lib/schema.ts';
import { COMPARED_FIELDS } from '../crawler/render-compare.ts';
import { RENDERING_MODES } from '../crawler/render-rules.ts';

const Snapshot = Type.Object({
  title: Nullable(Type.String()),
  meta_description: Nullable(Type.String()),
  robots: Nullable(Type.String({ description: 'The robots meta directives, comma-joined' })),
  canonical: Nullable(Type.String()),
  h1: Nullable(Type.String()),
  hreflang: Type.Integer({ description: 'hreflang alternates' }),
  structured_data: Type.Array(Type.String(), { description: 'JSON-LD @type names' }),
  internal_links: Type.Integer(),
  words: Type.Integer({ description: 'Visible words' }),
});

const RenderedPage = Type.Object({
  url: Type.String(),
  reason: Type.String({ description: 'Why it was rendered: always, template_sample, template_renders_content, or a rule of the raw HTML (empty_app_root, noscript_asks_for_javascript, scripts_without_text)' }),
  reason_text: Type.String({ description: 'The reason in words' }),
  ms: Type.Integer({ description: 'How long the render took' }),
  error: Nullable(Type.String({ description: 'Why the render failed; the raw HTML was audited instead' })),
  raw: Snapshot,
  rendered: Nullable(Snapshot),
  changes: Type.Array(Type.Object({ field: StringEnum(COMPARED_FIELDS), raw: Nullable(Type.String()), rendered: Nullable(Type.String()) }), {
    description: 'The fields JavaScript changes: what the raw HTML says, then the rendered page',
  }),
  text_in_raw: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "Share of the rendered page's main text present in the raw HTML: what a crawler that runs no script (the AI assistants' crawlers) can read" })),
  links_only_rendered: Type.Object({ count: Type.Integer(), examples: Type.Array(Type.String()) }, { description: 'Internal links that exist only after JavaScript' }),
  links_without_href: Type.Array(Type.String(), { description: 'Text of elements that act as links with no href a crawler can follow' }),
  requests: Type.Object({
    made: Type.Integer(), refused: Type.Integer({ description: 'Refused by the address guard (private or reserved addresses)' }), failed: Type.Integer(),
    disallowed: Type.Array(Type.String(), { description: "The site's resources robots.txt disallows: not fetched, as a search engine would not" }),
  }),
});

export const RenderingReportSchema = Type.Object({
  audit_id: Uuid(),
  mode: StringEnum(RENDERING_MODES, { description: "The site's rendering setting when the audit ran" }),
  available: Type.Boolean({ description: 'Whether pages could be rendered (Chromium installed and started)' }),
  unavailable: Nullable(Type.String({ description: 'Why pages could not be rendered, and how to install what is missing' })),
  rendered: Type.Integer(),
  failed: Type.Integer(),
  by_reason: Type.Array(Type.Object({ reason: Type.String(), reason_text: Type.String(), pages: Type.Integer() })),
  template_renders_content: Type.Boolean({ description: "In auto: the home page showed JavaScript adding text, links or directives to the template, so every page was rendered" }),
  render_ms: Type.Integer({ description: 'Total time spent rendering' }),
  peak_memory_mb: Type.Integer({ description: "Chromium's peak memory during the audit (0 where not measured)" }),
  pages: Type.Object({ items: Type.Array(RenderedPage), total: Type.Integer(), page: Type.Integer(), page_size: Type.Integer() }, {
    description: 'The rendered pages, raw against rendered: failed renders first, then by URL',
  }),
});

export const RenderingQuery = Type.Object(pageQueryProperties(20, 100), { additionalProperties: false });
