import { Type } from 'typebox';
import { escapeHtml } from '../../../lib/strings.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { Configuration, defineTaskType, isCheck, isText } from '../task-type.ts';

export const addImageAltText = defineTaskType({
  type: 'add_image_alt_text',
  category: 'seo',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    images: Type.Array(Type.Object({ src: Type.String(), alt: Type.String() }, { additionalProperties: true })),
  }, 'Images without alt text get alt text drawn from descriptive file names'),
  gate: (c) => (c.images.length > 0 && c.images.every((i) => isText(i.alt, 1, 125)) ? undefined : 'no alt text of 1-125 characters drafted'),
  manual: (c, url) => ({
    instructions: `On ${url}, give each image below its alt attribute.`,
    changes: c.images.map((i) => ({ src: i.src, attribute: `alt="${escapeHtml(i.alt)}"` })),
  }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    return c.images.map((image) => {
      const found = f.images.filter((i) => normalizeUrl(i.src, url) === image.src);
      const missing = found.filter((i) => !i.alt?.trim());
      return { check: 'image_alt', expected: image.alt, actual: found.length === 0 ? '(image removed)' : (found[0]!.alt ?? null), passed: missing.length === 0 };
    });
  },
  connectorChange: (c) => ({
    field: 'content', edit: { kind: 'set_image_alts', alts: c.images.map((i) => [i.src, i.alt]) },
    none: "the images without alt text are not in the post's content (theme or widget images)",
  }),
});
