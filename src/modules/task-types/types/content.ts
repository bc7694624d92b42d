import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../../lib/schema.ts';
import { THIN_WORDS } from '../../checks/page-checks.ts';
import { Configuration, defineTaskType, isCheck } from '../task-type.ts';

export const addStructuredData = defineTaskType({
  type: 'add_structured_data',
  category: 'technical',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    issue: StringEnum(['invalid', 'missing'] as const),
    json_ld: Nullable(Type.Object({ '@type': Type.Optional(Type.String()) }, { additionalProperties: true, description: 'The WebSite (or Organization) JSON-LD to add' })),
    html: Type.Optional(Type.String()),
    instructions: Type.String(),
  }, 'JSON-LD that does not parse, or a home page with no WebSite/Organization: the fix or the exact JSON-LD'),
  gate(c) {
    if (c.issue === 'invalid') return typeof c.instructions === 'string' ? undefined : 'no deliverable defined';
    return typeof c.json_ld === 'object' && c.json_ld !== null ? undefined : 'no JSON-LD defined';
  },
  manual: (c) => ({ instructions: c.instructions, ...(typeof c.html === 'string' ? { html: c.html } : {}) }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    if (c.issue === 'invalid') {
      const invalid = f.jsonLd.filter((b) => !b.valid).length;
      return [{ check: 'json_ld_parses', expected: '0 invalid blocks', actual: `${invalid} invalid blocks`, passed: invalid === 0 }];
    }
    const wanted = c.json_ld?.['@type'] ?? 'WebSite';
    const types = f.jsonLd.filter((b) => b.valid).flatMap((b) => b.types);
    return [{ check: 'json_ld_type', expected: wanted, actual: types.join(', ') || null, passed: types.includes(wanted) }];
  },
});

export const expandThinContent = defineTaskType({
  type: 'expand_thin_content',
  category: 'content',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    current_words: Type.Optional(Type.Integer()),
    target_words: Type.Optional(Type.Integer()),
    topic: Type.Optional(Type.String()),
    instructions: Type.String(),
    existing_headings: Type.Optional(Type.Array(Type.String())),
  }, 'A page under 200 words: a brief (topic, word target, the headings to build on)'),
  gate: (c) => (typeof c.instructions === 'string' ? undefined : 'no deliverable defined'),
  manual: (c) => ({ instructions: c.instructions, changes: c.existing_headings ?? [] }),
  async liveChecks(_c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    return [{ check: 'word_count', expected: `>= ${THIN_WORDS}`, actual: String(f.wordCount), passed: f.wordCount >= THIN_WORDS }];
  },
  // A section of short pages is one piece of writing work: one task, a brief per page.
  perPage: true,
});
