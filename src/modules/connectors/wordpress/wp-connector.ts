import { sameText } from '../../../lib/strings.ts';
import { extractPageFacts } from '../../crawler/extract.ts';
import { CONNECTOR_LABELS, type AppliedDeliverable, type ApplyOutcome, type FieldChange, type LiveCheck, type RestoreOutcome, type SiteConnector, type TaskToApply } from '../connector.types.ts';
import { demoteH1s, retargetLinks, setImageAlts, unwrapLinks } from '../html-edits.ts';
import { connectorChange } from '../../task-types/index.ts';
import type { ConnectorChange, ContentEdit } from '../../task-types/task-type.ts';
import { WordPressError, type WordPressClient, type WpItem, type WpRef } from './wp-client.ts';

/**
 * Meta keys SEO plugins keep their description and title in. WordPress exposes a meta key
 * over REST only when it is registered with show_in_rest; the connector uses the first
 * one the post shows in edit context (or the one configured for the site).
 */
export const META_DESCRIPTION_KEYS = [
  '_yoast_wpseo_metadesc', 'yoast_wpseo_metadesc', '_seopress_titles_desc', 'rank_math_description', '_aioseo_description',
  'site_optimization_description', 'meta_description', 'description',
];
export const META_TITLE_KEYS = ['_yoast_wpseo_title', 'yoast_wpseo_title', '_seopress_titles_title', 'rank_math_title', '_aioseo_title'];
/** Registered keys that name themselves a description or title ("sos_meta_description", "seo_title"). */
const DESCRIPTION_KEY = /(meta|seo).*desc|desc.*(meta|seo)/i;
const TITLE_KEY = /(meta|seo).*title|title.*(meta|seo)/i;
const isMetaKey = (field: string, known: string[], pattern: RegExp) =>
  field.startsWith('meta.') && (known.includes(field.slice(5)) || pattern.test(field.slice(5)));

export interface WordPressSettings {
  base_url: string;
  username: string;
  /** The registered meta key for the meta description, when it is not one of the known ones. */
  meta_description_field?: string | undefined;
}

function fieldValue(item: WpItem, field: string): string {
  if (field === 'title') return item.title.raw;
  if (field === 'content') return item.content.raw;
  if (field === 'excerpt') return item.excerpt.raw;
  if (field.startsWith('meta.')) return String(item.meta?.[field.slice(5)] ?? '');
  throw new Error(`unknown field ${field}`);
}

/** A content edit of a task type, as a byte-precise edit of the post's HTML. */
function editContent(html: string, base: string, edit: ContentEdit) {
  switch (edit.kind) {
    case 'unwrap_links': return unwrapLinks(html, base, new Set(edit.targets));
    case 'retarget_links': return retargetLinks(html, base, new Map(edit.moves));
    case 'set_image_alts': return setImageAlts(html, base, new Map(edit.alts));
    case 'demote_h1s': return demoteH1s(html, edit.keep);
  }
}

/** The REST update body that sets these fields. */
function updateBody(values: Array<{ field: string; value: string }>) {
  const body: Record<string, unknown> = {};
  for (const { field, value } of values) {
    if (field.startsWith('meta.')) body.meta = { ...(body.meta as object), [field.slice(5)]: value };
    else body[field] = value;
  }
  return body;
}

/** A field change and the field's value the task was planned from (undefined where it cannot be known). */
type PlannedChange = FieldChange & { planned: string | undefined };

const decode = (text: string) => extractPageFacts(`<title>${text}</title>`).titles[0] ?? text;

export function createWordPressConnector(deps: { client: WordPressClient; settings: WordPressSettings; close: () => Promise<void> }): SiteConnector {
  const { client, settings } = deps;
  /** The configured key, a known SEO plugin's, or any registered key that names itself a (meta/SEO) description or title. */
  const metaKey = (item: WpItem, known: string[], configured: string | undefined, pattern: RegExp) =>
    [configured, ...known].find((key) => key !== undefined && item.meta && key in item.meta)
    ?? Object.keys(item.meta ?? {}).find((key) => pattern.test(key));

  /**
   * The fields this task's change (its type's connector change) touches on this item, or why WordPress cannot carry it out.
   * Each with `planned`: the field's value the task was planned from (its configuration's before, as this field holds it),
   * where it can be known; a content edit has none.
   */
  function plan(task: TaskToApply, wanted: Exclude<ConnectorChange, { unsupported: string }>, item: WpItem, live: ReturnType<typeof extractPageFacts>): { changes: PlannedChange[] } | { unsupported: string } {
    const configured = (task.configuration as { before?: unknown } | null)?.before;
    const plannedValue = configured === null || configured === undefined ? '' : typeof configured === 'string' ? configured : undefined;
    const change = (field: string, after: string, planned = plannedValue): PlannedChange => ({ field, before: fieldValue(item, field), after, planned });
    switch (wanted.field) {
      case 'meta_description': {
        // Sites whose theme or SEO plugin prints the hand-written excerpt as the description say so with "excerpt".
        if (settings.meta_description_field === 'excerpt') return { changes: [change('excerpt', wanted.value)] };
        const key = metaKey(item, META_DESCRIPTION_KEYS, settings.meta_description_field, DESCRIPTION_KEY);
        if (!key) {
          return { unsupported: 'WordPress exposes no meta-description field over REST for this post: register the SEO plugin\'s field with show_in_rest, name the field in the connector settings, or set it to "excerpt" when the theme prints the excerpt as the description' };
        }
        return { changes: [change(`meta.${key}`, wanted.value)] };
      }
      case 'title': {
        const after = wanted.value;
        const key = metaKey(item, META_TITLE_KEYS, undefined, TITLE_KEY);
        if (key) return { changes: [change(`meta.${key}`, after)] };
        // The theme prints "<post title><separator><site name>": write the post title so the whole reads as `after`.
        // Compared as readers see them: the theme renders quotes and dashes typographically.
        const liveTitle = live.titles[0] ?? '';
        const raw = decode(item.title.raw);
        const tail = /\s[|–—-]\s[^|–—]+$/.exec(liveTitle);
        const suffix = tail && sameText(liveTitle.slice(0, tail.index), raw) ? tail[0] : raw && liveTitle.startsWith(raw) ? liveTitle.slice(raw.length) : '';
        const postTitle = (title: string) => (suffix && title.length > suffix.length && sameText(title.slice(-suffix.length), suffix) ? title.slice(0, -suffix.length) : title);
        return { changes: [change('title', postTitle(after), plannedValue === undefined ? undefined : postTitle(plannedValue))] };
      }
      case 'content': {
        const result = editContent(item.content.raw, item.link, wanted.edit);
        return result.count > 0 ? { changes: [change('content', result.html, undefined)] } : { unsupported: wanted.none };
      }
    }
  }

  return {
    type: 'wordpress',
    label: CONNECTOR_LABELS.wordpress,

    async apply(task, options = {}): Promise<ApplyOutcome> {
      // What WordPress cannot change is said before any request to the site.
      const wanted = connectorChange(task);
      if (!wanted) return { unsupported: `the WordPress connector does not carry out ${task.type} tasks` };
      if ('unsupported' in wanted) return wanted;
      const located = await client.locate(task.target);
      if (!located.ref) return { unsupported: `WordPress has no post or page behind ${task.target} (an archive, the blog index or a theme template)` };
      const live = extractPageFacts(located.html);
      const item = await client.read(located.ref);
      const planned = plan(task, wanted, item, live);
      if ('unsupported' in planned) return planned;
      // Resumed: a field already holding the new value was written by the attempt that stopped; rollback restores
      // what the task was planned from. A content edit leaves nothing to find: it is not edited twice (unsupported).
      const alreadyWritten = planned.changes
        .filter((c) => options.resumed && c.before === c.after && c.planned !== undefined && c.planned !== c.after)
        .map(({ field, planned: before, after }) => ({ field, before: before!, after }));
      const changes = planned.changes.filter((c) => c.before !== c.after).map(({ field, before, after }) => ({ field, before, after }));
      if (changes.length > 0) {
        const stored = await client.update(located.ref, updateBody(changes.map((c) => ({ field: c.field, value: c.after }))));
        const missed = changes.filter((c) => fieldValue(stored, c.field) !== c.after);
        if (missed.length > 0) {
          // Never leave half a change behind: put back what was written, then report.
          await client.update(located.ref, updateBody(changes.map((c) => ({ field: c.field, value: c.before })))).catch(() => undefined);
          throw new WordPressError(`WordPress did not store ${missed.map((c) => c.field).join(', ')} as sent (a filter or plugin changed it); the change was undone`);
        }
      }
      return {
        applied: {
          connector: 'wordpress',
          url: task.target,
          resource: located.ref,
          changes: [...alreadyWritten, ...changes],
          live_before: { title: live.titles[0] ?? null, meta_description: live.metaDescriptions[0] ?? null },
          summary: changes.length === 0
            ? 'WordPress already held the proposed values; nothing was written.'
            : `Changed ${changes.map((c) => c.field).join(', ')} of ${located.ref.kind}/${located.ref.id} through the WordPress REST API.`,
        },
      };
    },

    async restore(deliverable: AppliedDeliverable, options): Promise<RestoreOutcome> {
      const ref: WpRef = deliverable.resource;
      const item = await client.read(ref);
      const current = deliverable.changes.map((c) => ({ ...c, now: fieldValue(item, c.field) }));
      const conflicts = current
        .filter((c) => c.now !== c.after && c.now !== c.before)
        .map((c) => ({ field: c.field, expected: c.after, found: c.now }));
      if (options.dryRun || (conflicts.length > 0 && !options.force)) return { restored: [], conflicts };
      const toRestore = current.filter((c) => c.now !== c.before);
      if (toRestore.length > 0) {
        const stored = await client.update(ref, updateBody(toRestore.map((c) => ({ field: c.field, value: c.before }))));
        const missed = toRestore.filter((c) => fieldValue(stored, c.field) !== c.before);
        if (missed.length > 0) throw new WordPressError(`WordPress did not store the original ${missed.map((c) => c.field).join(', ')}`);
      }
      return { restored: toRestore.map((c) => ({ field: c.field, restored: c.before, replaced: c.now })), conflicts };
    },

    restoreChecks: async (deliverable) => liveRestoreChecks(deliverable, await client.page(deliverable.url)),
    close: deps.close,
  };
}

/** The live checks that show a restore took effect, from the page as the public sees it. */
function liveRestoreChecks(deliverable: AppliedDeliverable, html: string) {
  const facts = extractPageFacts(html);
  const checks: LiveCheck[] = [];
  const fields = deliverable.changes.map((c) => c.field);
  if (fields.some((f) => f === 'title' || isMetaKey(f, META_TITLE_KEYS, TITLE_KEY))) {
    checks.push({ check: 'title', expected: deliverable.live_before.title, actual: facts.titles[0] ?? null, passed: (facts.titles[0] ?? null) === deliverable.live_before.title });
  }
  if (fields.some((f) => f === 'excerpt' || isMetaKey(f, META_DESCRIPTION_KEYS, DESCRIPTION_KEY))) {
    const actual = facts.metaDescriptions[0] ?? null;
    checks.push({ check: 'meta_description', expected: deliverable.live_before.meta_description, actual, passed: actual === deliverable.live_before.meta_description });
  }
  return checks;
}
