import { Type } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import { escapeHtml, sameText } from '../../../lib/strings.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN } from '../../checks/page-checks.ts';
import { Configuration, defineTaskType, isCheck, isText, type LiveProbe } from '../task-type.ts';

const MetaDescription = (description: string) => Configuration({
  url: Type.Optional(Type.String()),
  field: Type.Optional(Type.Literal('meta_description')),
  before: Nullable(Type.String()),
  after: Type.String({ description: `The drafted description, ${DESCRIPTION_MIN}-${DESCRIPTION_MAX} characters (wide CJK characters count twice), unique on the site` }),
  writer: Type.Optional(Type.String({ description: 'Which writer drafted it (extractive, or the LLM)' })),
  bounds: Type.Optional(Type.Array(Type.Integer())),
  shared_with: Type.Optional(Type.Array(Type.String(), { description: 'The other pages that carried the same description (listed when there are at most 9)' })),
  kept_by: Type.Optional(Type.String({ description: 'The page that keeps the shared description' })),
}, description);

const gate = (config: { after: unknown }) => (isText(config.after, DESCRIPTION_MIN, DESCRIPTION_MAX) ? undefined : `the drafted description is outside ${DESCRIPTION_MIN}-${DESCRIPTION_MAX} characters`);
const html = (after: string) => `<meta name="description" content="${escapeHtml(after)}">`;

async function liveChecks(config: { after: string }, url: string, probe: LiveProbe) {
  const f = await probe.facts(url);
  if (isCheck(f)) return [f];
  const actual = f.metaDescriptions[0] ?? null;
  return [{ check: 'meta_description', expected: config.after, actual, passed: f.metaDescriptions.length === 1 && sameText(actual, config.after) }];
}

export const fixMissingMetaDescription = defineTaskType({
  type: 'fix_missing_meta_description',
  category: 'seo',
  configuration: MetaDescription('A page without a meta description gets the drafted one'),
  gate,
  manual: (c, url) => ({ instructions: `In the <head> of ${url}, add this meta description (replace an empty one if present).`, html: html(c.after) }),
  liveChecks,
  connectorChange: (c) => ({ field: 'meta_description', value: c.after }),
  perPage: true,
});

export const fixDuplicateMetaDescription = defineTaskType({
  type: 'fix_duplicate_meta_description',
  category: 'seo',
  configuration: MetaDescription('A page whose description other pages share gets its own'),
  gate,
  manual: (c, url) => ({ instructions: `In the <head> of ${url}, replace the meta description shared with other pages by this one.`, html: html(c.after) }),
  liveChecks,
  connectorChange: (c) => ({ field: 'meta_description', value: c.after }),
  // A description set once in a template is shared by every page it renders: one task for them.
  perPage: true,
});
