import { Type } from 'typebox';
import { ITEM_FLOOR } from '../../page-speed/lab-result.ts';
import { Configuration, defineTaskType, isCheck, type LiveCheck } from '../task-type.ts';

/** What the brief asks a developer to change, item by item; each is checked in a new Lighthouse run. */
export const SPEED_ITEM_KINDS = ['image', 'render_blocking', 'lcp_loading', 'unsized_image', 'opportunity'] as const;

const Item = Type.Object({
  kind: Type.Union(SPEED_ITEM_KINDS.map((k) => Type.Literal(k))),
  /** The image, style sheet or script; the LCP image; absent for an opportunity, which `id` names. */
  url: Type.Optional(Type.String()),
  id: Type.Optional(Type.String({ description: "Lighthouse's audit id, for an opportunity" })),
  selector: Type.Optional(Type.String()),
  what: Type.String({ description: 'The change, in a developer\'s words' }),
  savings_bytes: Type.Optional(Type.Integer()),
  savings_ms: Type.Optional(Type.Integer()),
  /** For the LCP element: what its loading must stop getting wrong. */
  fixes: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: true });
export type SpeedItem = {
  kind: (typeof SPEED_ITEM_KINDS)[number]; url?: string; id?: string; selector?: string; what: string;
  savings_bytes?: number; savings_ms?: number; fixes?: string[];
};

export const improvePageSpeed = defineTaskType({
  type: 'improve_page_speed',
  category: 'technical',
  configuration: Configuration({
    url: Type.String({ description: 'The page Lighthouse measured' }),
    template: Type.String({ description: 'Its template\'s URL pattern: the same change speeds up every page built from it' }),
    pages_in_template: Type.Integer(),
    measured: Type.Object({
      score: Type.Integer({ description: "Lighthouse's performance score (mobile), 0-100" }),
      lcp: Type.Optional(Type.String()), cls: Type.Optional(Type.String()), tbt: Type.Optional(Type.String()),
    }, { additionalProperties: true, description: 'What the audit measured (lab, mobile)' }),
    items: Type.Array(Item, { minItems: 1, description: 'Each change, with what it saves' }),
    instructions: Type.String(),
  }, 'Make a slow template fast on phones: these images, these render-blocking files, the LCP element\'s loading (a brief for a developer, checked by running Lighthouse again)'),
  gate: (c) => (c.items.length > 0 && typeof c.instructions === 'string' ? undefined : 'no items or no instructions'),
  manual: (c) => ({ instructions: c.instructions, changes: c.items }),
  /**
   * Done when a new Lighthouse run on the page no longer names the items: the image is light enough (or gone), the
   * file no longer blocks, the LCP element's loading is right. Not the score: lab metrics move by a few hundred
   * milliseconds from run to run, the items do not.
   */
  async liveChecks(c, url, probe) {
    const lab = await probe.lab(url);
    if (isCheck(lab)) return [lab];
    const checks: LiveCheck[] = [];
    for (const item of c.items as SpeedItem[]) {
      switch (item.kind) {
        case 'image': {
          const still = lab.images.find((i) => i.url === item.url);
          checks.push({ check: 'image_served_right', url: item.url, expected: `under ${Math.round(ITEM_FLOOR.imageBytes / 1000)} KB to save`, actual: still ? `${Math.round(still.savings_bytes / 1000)} KB to save (${still.reasons.join(', ')})` : 'served right', passed: !still });
          break;
        }
        case 'render_blocking': {
          const still = lab.render_blocking.find((r) => r.url === item.url);
          checks.push({ check: 'not_render_blocking', url: item.url, expected: 'does not block the first paint', actual: still ? `blocks it ${still.ms} ms` : 'does not block it', passed: !still });
          break;
        }
        case 'lcp_loading': {
          const left = (item.fixes ?? []).filter((fix) => lab.lcp_element?.fixes.includes(fix as never));
          checks.push({ check: 'lcp_loaded_early', url: item.url ?? url, expected: 'none of: ' + (item.fixes ?? []).join(', '), actual: left.length > 0 ? left.join(', ') : 'loaded early', passed: left.length === 0 });
          break;
        }
        case 'unsized_image': {
          const still = lab.unsized_images.includes(item.url ?? '');
          checks.push({ check: 'image_has_dimensions', url: item.url, expected: 'width and height set', actual: still ? 'no width and height' : 'set', passed: !still });
          break;
        }
        case 'opportunity': {
          const still = lab.opportunities.find((o) => o.id === item.id);
          checks.push({ check: `lighthouse_${item.id}`, expected: 'no savings left', actual: still ? `${still.savings_ms} ms, ${Math.round(still.savings_bytes / 1000)} KB to save` : 'none left', passed: !still });
          break;
        }
      }
    }
    const score = lab.score;
    // The score is reported beside the items (not judged): what the change did for the page.
    checks.push({ check: 'performance_score', url, expected: `was ${c.measured.score}`, actual: String(score), passed: true });
    return checks;
  },
});
