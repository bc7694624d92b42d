import { Type } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import { escapeHtml, sameText } from '../../../lib/strings.ts';
import { TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { Configuration, defineTaskType, isCheck, isText } from '../task-type.ts';

export const fixTitleTag = defineTaskType({
  type: 'fix_title_tag',
  category: 'seo',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    field: Type.Optional(Type.Literal('title')),
    before: Nullable(Type.String()),
    after: Type.String({ description: "The page's h1 plus the suffix the site's titles share, 20-60 characters, unique" }),
    writer: Type.Optional(Type.String()),
    bounds: Type.Optional(Type.Array(Type.Integer())),
  }, 'A missing, empty, too short or long, or duplicated title gets the drafted one'),
  gate: (c) => (isText(c.after, TITLE_MIN, TITLE_MAX) ? undefined : 'the drafted title is outside 20-60 characters'),
  manual: (c, url) => ({ instructions: `In the <head> of ${url}, make this the only <title> element.`, html: `<title>${escapeHtml(c.after)}</title>` }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const actual = f.titles[0] ?? null;
    return [{ check: 'title', expected: c.after, actual, passed: f.titles.length === 1 && sameText(actual, c.after) }];
  },
  connectorChange: (c) => ({ field: 'title', value: c.after }),
  perPage: true,
});
