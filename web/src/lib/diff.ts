// A word-level diff of a proposed change (before -> after), so a reviewer sees exactly
// which words the agent would replace. Longest common subsequence over tokens that keep
// their whitespace, so joining every part gives back each side exactly.

export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const tokenize = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];

/** Past this many tokens on both sides the table gets big: show whole removal and addition. */
const MAX_CELLS = 250_000;

export function diffWords(before: string | null | undefined, after: string | null | undefined): DiffPart[] {
  const a = tokenize(before ?? '');
  const b = tokenize(after ?? '');
  if (a.length * b.length > MAX_CELLS) return merge([...a.map((text) => ({ kind: 'removed' as const, text })), ...b.map((text) => ({ kind: 'added' as const, text }))]);

  // lengths[i][j]: LCS length of a[i..] and b[j..]
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) {
      parts.push({ kind: 'removed', text: a[i++]! });
    } else {
      parts.push({ kind: 'added', text: b[j++]! });
    }
  }
  while (i < a.length) parts.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) parts.push({ kind: 'added', text: b[j++]! });
  return merge(parts);
}

/**
 * Readable changes: a run of changed words, with the spaces between them, becomes one
 * removal followed by one addition ("pruning roses in a small garden" -> "– Garden Shop"),
 * instead of word-by-word fragments that share only the spaces.
 */
function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = '';
  let added = '';
  let inChange = false;
  let space = '';
  const push = (kind: DiffPart['kind'], text: string) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  };
  const flush = () => {
    push('removed', removed);
    push('added', added);
    push('same', space);
    removed = added = space = '';
    inChange = false;
  };
  for (const part of parts) {
    if (part.kind === 'same') {
      if (inChange && /^\s+$/.test(part.text)) {
        space += part.text;
        continue;
      }
      flush();
      push('same', part.text);
      continue;
    }
    if (inChange && space) {
      // The space was on both sides, so both keep it: each side still joins back to its original.
      removed += space;
      added += space;
      space = '';
    }
    inChange = true;
    if (part.kind === 'removed') removed += part.text;
    else added += part.text;
  }
  flush();
  return out;
}

/** The removed side and the added side, each with its unchanged context, for two-column display. */
export function sides(parts: DiffPart[]): { before: DiffPart[]; after: DiffPart[] } {
  return {
    before: parts.filter((p) => p.kind !== 'added'),
    after: parts.filter((p) => p.kind !== 'removed'),
  };
}

/** A before/after pair found in a task's configuration, whatever the task type. */
export interface Change {
  label: string;
  before: string | null;
  after: string | null;
  /** Where on the page a drafted value comes from ("the page's standfirst"), when the agent says. */
  source?: string;
}

/** The agent's drafted_from, in a reader's words: whose words the proposed value is. */
const SOURCES: Record<string, string> = {
  standfirst: 'the page\'s standfirst',
  json_ld: 'the page\'s structured data',
  og: 'the page\'s social-sharing description',
  lead: 'the page\'s opening paragraph',
  section: 'a paragraph further down the page',
  // (Composed: the page's own words joined into a sentence; the reviewer reads it as such.)
  sections: 'the page\'s section headings, joined into a sentence',
  list: 'the page\'s bullet points, joined into a sentence',
  specs: 'the page\'s specifications, joined',
  // (Written by the configured language model from the headline and opening, checked to say only what they say.)
  model_summary: 'a language model\'s summary of the page\'s headline and opening paragraphs',
};
const sourceOf = (config: Record<string, unknown>) =>
  (typeof config.drafted_from === 'string' && SOURCES[config.drafted_from] ? { source: SOURCES[config.drafted_from]! } : {});

const isAlternate = (v: unknown): v is { hreflang: string; href: string } =>
  typeof v === 'object' && v !== null && typeof (v as { hreflang?: unknown }).hreflang === 'string' && typeof (v as { href?: unknown }).href === 'string';

const text = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  // A list of language versions reads as "fr-FR: https://…", one a line.
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : isAlternate(v) ? `${v.hreflang}: ${v.href}` : JSON.stringify(v))).join('\n');
  return JSON.stringify(value, null, 2);
};

/** How many pages a task's configuration covers with values of their own (1 for a one-page task). */
export const pageCount = (configuration: unknown): number => {
  const pages = (configuration as { pages?: unknown } | null)?.pages;
  // Each page with values of its own (a before -> after, or a brief); a search task's list of competing pages is not that.
  const ownValues = (p: unknown) => typeof p === 'object' && p !== null && typeof (p as { url?: unknown }).url === 'string' && ('after' in p || 'instructions' in p || 'changes' in p);
  return Array.isArray(pages) && pages.length > 1 && pages.every(ownValues) ? pages.length : 1;
};

/** A URL as its path and query (the site is known from context). */
export const pathOf = (url: unknown) => {
  if (typeof url !== 'string') return 'a page';
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search}`;
  } catch {
    return url;
  }
};

/** Every before -> after the task would apply: the main field, then per-item changes. */
export function changesOf(configuration: unknown, options: { done?: boolean } = {}): Change[] {
  if (!configuration || typeof configuration !== 'object') return [];
  const config = configuration as Record<string, unknown>;
  const out: Change[] = [];
  if ('before' in config || 'after' in config) {
    out.push({ label: typeof config.field === 'string' ? config.field.replace(/_/g, ' ') : 'value', before: text(config.before), after: text(config.after), ...sourceOf(config) });
  }
  // One problem on many pages, one task: each page's own before -> after, named by its path.
  if (Array.isArray(config.pages)) {
    // A link of the site's menu or footer (`in_template`), broken on every page: one row, fixed once, not one a page.
    const template = new Set<string>();
    for (const page of config.pages as Array<Record<string, unknown>>) {
      if (page && typeof page === 'object' && Array.isArray(page.changes)) {
        // A page's own list of link changes (broken links on many pages, one task).
        for (const raw of page.changes as Array<Record<string, unknown>>) {
          const inTemplate = raw?.in_template === true;
          if (inTemplate && template.has(String(raw.link_to))) continue;
          if (inTemplate) template.add(String(raw.link_to));
          for (const change of changesOf({ changes: [raw] }, options)) out.push({ ...change, label: `${change.label} ${inTemplate ? 'in the menu or footer' : `on ${pathOf(page.url)}`}` });
        }
        continue;
      }
      if (!page || typeof page !== 'object' || !('after' in page)) continue;
      const field = typeof page.field === 'string' ? page.field.replace(/_/g, ' ') : 'value';
      out.push({ label: `${field} of ${pathOf(page.url)}`, before: text(page.before), after: text(page.after), ...sourceOf(page) });
    }
  }
  if (Array.isArray(config.images)) {
    for (const image of config.images as Array<Record<string, unknown>>) {
      out.push({ label: `alt of ${String(image.src ?? 'image')}`, before: text(image.before ?? image.current_alt ?? null), after: text(image.alt) });
    }
  }
  if (Array.isArray(config.changes)) {
    for (const change of config.changes as Array<Record<string, unknown>>) {
      // A broken link: where it points now (and what that answers), and what to do with it.
      if (typeof change.link_to === 'string') {
        // Once a connector carried it out (it unwraps a broken link, its words kept), "after" says what was done, not what to do.
        const after = change.replacement ?? (options.done ? 'the link removed, its words kept as text' : change.action);
        out.push({ label: `link to ${pathOf(change.link_to)}${typeof change.status === 'number' ? ` (answers ${change.status})` : ''}`, before: change.link_to, after: text(after) });
        continue;
      }
      const before = change.before ?? change.href ?? change.url ?? change.from;
      const after = change.after ?? change.final_url ?? change.replacement ?? change.to ?? change.action;
      if (before !== undefined || after !== undefined) out.push({ label: String(change.label ?? change.anchor ?? change.kind ?? 'link'), before: text(before), after: text(after) });
    }
  }
  return out;
}

/**
 * A change inside a long text (a post's HTML, where a link was unwrapped or an alt set): the
 * words around each edit, `context` characters either side, the rest elided ("…"). The
 * common start and end are cut off before diffing, so a 50 KB post costs its changed middle.
 */
export function diffExcerpts(before: string, after: string, context = 60): DiffPart[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  // Back to word boundaries, so the diff of the middle starts and ends on whole words.
  while (start > 0 && !/\s/.test(before[start - 1]!)) start--;
  while (end > 0 && !/\s/.test(before[before.length - end]!)) end--;
  const edges = (text: string): DiffPart[] => (text === '' ? [] : [{ kind: 'same', text }]);
  const parts: DiffPart[] = [
    ...edges(before.slice(0, start)),
    ...diffWords(before.slice(start, before.length - end), after.slice(start, after.length - end)),
    ...edges(before.slice(before.length - end)),
  ];
  return parts.map((part, i): DiffPart => {
    if (part.kind !== 'same' || part.text.length <= context * 2 + 3) return part;
    const first = i === 0;
    const last = i === parts.length - 1;
    const text = first ? `…${part.text.slice(-context)}` : last ? `${part.text.slice(0, context)}…` : `${part.text.slice(0, context)} … ${part.text.slice(-context)}`;
    return { kind: 'same', text };
  });
}
