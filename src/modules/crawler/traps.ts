/**
 * Crawl traps: URL spaces that never end, found as Googlebot and Screaming Frog find them,
 * from the URLs and from what they serve, never from one site's markup:
 *
 * - repeating path segments (`/a/b/a/b/`, `/de/de/`), very deep paths and very long URLs;
 * - self-similar growth: a URL that serves exactly the page found at the same URL with
 *   directory segments fewer (`/de/fr/mod/x.html` = `/fr/mod/x.html`: the server collapses
 *   the prefix, and relative links keep stacking it). Once seen, the insertion is learnt:
 *   every queued URL with the same segment before the same next segment under the same
 *   parent is skipped unfetched, and the duplicate's own links are not followed;
 * - the same content under many URLs: past a few copies, a copy's links are not followed;
 * - unbounded parameters: past a number of query-string variants of one path, the rest
 *   are skipped.
 *
 * What was skipped is counted per pattern with examples, for the crawl_trap check.
 */
export const MAX_QUERY_VARIANTS = 50;
export const MAX_COPIES_EXPANDED = 5;
const MAX_SEGMENTS = 30;
const MAX_URL_LENGTH = 2048;
const EXAMPLES = 5;

export interface TrapPattern {
  /** What the pattern is, in words (the check's value). */
  reason: string;
  /** URLs of the pattern seen (skipped unfetched, or fetched and found to be copies). */
  count: number;
  examples: string[];
}

const segmentsOf = (url: URL) => url.pathname.split('/').slice(1);

/** A run of 1-3 segments repeated right after itself, or one segment three times: the repetition, or undefined. */
function repetition(segments: string[]): string | undefined {
  for (let size = 1; size <= 3; size++) {
    for (let i = 0; i + 2 * size <= segments.length; i++) {
      const run = segments.slice(i, i + size);
      if (run.every((s) => s !== '') && run.every((s, k) => s === segments[i + size + k])) return `/${run.join('/')}/`;
    }
  }
  const seen = new Map<string, number>();
  for (const segment of segments) {
    if (segment === '') continue;
    const n = (seen.get(segment) ?? 0) + 1;
    if (n >= 3) return `/${segment}/ three times`;
    seen.set(segment, n);
  }
  return undefined;
}

export class TrapDetector {
  readonly patterns = new Map<string, TrapPattern>();
  /** parent path + segment + next segment -> the learnt collapse. */
  private readonly insertions = new Set<string>();
  /** text hash -> URLs that served it (the first few; enough to find the shorter twin). */
  private readonly byContent = new Map<string, string[]>();
  private readonly copies = new Map<string, number>();
  private readonly queryVariants = new Map<string, number>();

  private record(key: string, reason: string, url: string) {
    let pattern = this.patterns.get(key);
    if (!pattern) this.patterns.set(key, (pattern = { reason, count: 0, examples: [] }));
    pattern.count += 1;
    if (pattern.examples.length < EXAMPLES) pattern.examples.push(url);
  }

  /** When a URL is first seen: true when it is a trap and is skipped (and recorded). */
  skipOnDiscovery(href: string): boolean {
    const url = new URL(href);
    const segments = segmentsOf(url);
    if (href.length > MAX_URL_LENGTH) return this.skip('long', `URLs longer than ${MAX_URL_LENGTH} characters`, href);
    if (segments.length > MAX_SEGMENTS) return this.skip('deep', `paths deeper than ${MAX_SEGMENTS} segments`, href);
    const repeated = repetition(segments);
    if (repeated) return this.skip(`repeat ${url.origin}`, 'repeating path segments (e.g. /a/b/a/b/): the same directories stacked again', href);
    if (this.skipLearnt(href, url, segments)) return true;
    if (url.search) {
      const path = url.origin + url.pathname;
      const variants = (this.queryVariants.get(path) ?? 0) + 1;
      this.queryVariants.set(path, variants);
      if (variants > MAX_QUERY_VARIANTS) return this.skip(`query ${path}`, `unbounded parameters: more than ${MAX_QUERY_VARIANTS} query strings on ${path}`, href);
    }
    return false;
  }

  /** Before fetching a queued URL: true when a collapse learnt since it was queued covers it. */
  skipLearnt(href: string, url = new URL(href), segments = segmentsOf(url)): boolean {
    if (this.insertions.size === 0) return false;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = this.insertionKey(url.origin, segments, i);
      if (this.insertions.has(key)) return this.skip(`insert ${key}`, this.insertionReason(url.origin, segments, i), href);
    }
    return false;
  }

  /**
   * After fetching an HTML page: 'trap' when it is a copy of the page one segment up (a
   * collapsed prefix: left out of the checks, links not followed), 'copy' when its text is
   * already served by too many URLs (links not followed), undefined otherwise.
   */
  afterFetch(href: string, textHash: string): 'trap' | 'copy' | undefined {
    const twins = this.byContent.get(textHash);
    if (!twins) {
      this.byContent.set(textHash, [href]);
      return undefined;
    }
    const url = new URL(href);
    const segments = segmentsOf(url);
    for (const twin of twins) {
      const twinUrl = new URL(twin);
      if (twinUrl.origin !== url.origin || twinUrl.search !== url.search) continue;
      // Fetched in the other order (the longer URL first): learn from it all the same.
      const reverse = droppedSegment(segmentsOf(twinUrl), url);
      if (reverse !== undefined) this.insertions.add(this.insertionKey(url.origin, segmentsOf(twinUrl), reverse));
      const at = droppedSegment(segments, twinUrl);
      if (at === undefined) continue;
      const key = this.insertionKey(url.origin, segments, at);
      this.insertions.add(key);
      this.record(`insert ${key}`, this.insertionReason(url.origin, segments, at), href);
      if (twins.length < EXAMPLES * 4) twins.push(href); // a longer stack may be its copy next
      return 'trap';
    }
    if (twins.length < EXAMPLES * 4) twins.push(href);
    const copies = (this.copies.get(textHash) ?? 1) + 1;
    this.copies.set(textHash, copies);
    if (copies <= MAX_COPIES_EXPANDED) return undefined;
    this.record(`copies ${textHash}`, `the same content under more than ${MAX_COPIES_EXPANDED} URLs (their links not followed), e.g. ${twins[0]}`, href);
    return 'copy';
  }

  /** How many URLs the patterns kept out of the crawl. */
  get skipped(): number {
    let total = 0;
    for (const pattern of this.patterns.values()) total += pattern.count;
    return total;
  }

  private skip(key: string, reason: string, href: string): true {
    this.record(key, reason, href);
    return true;
  }

  private insertionKey(origin: string, segments: string[], at: number) {
    return `${origin}/${segments.slice(0, at).join('/')}\u0000${segments[at]}\u0000${segments[at + 1]}`;
  }

  private insertionReason(origin: string, segments: string[], at: number) {
    const parent = `${origin}/${segments.slice(0, at).map((s) => `${s}/`).join('')}`;
    return `self-similar URLs: ${parent}${segments[at]}/${segments[at + 1]}/... serves the same pages as ${parent}${segments[at + 1]}/... (a collapsed prefix that relative links keep stacking)`;
  }
}

/**
 * Where a run of directory segments was inserted into `twin`'s path to give `segments`
 * (same origin and query checked by the caller): the run's first index, or undefined.
 * Never the last segment: /dir/ and /dir/index.html are one page, not a trap.
 */
function droppedSegment(segments: string[], twin: URL): number | undefined {
  const other = segmentsOf(twin);
  const run = segments.length - other.length;
  if (run < 1) return undefined;
  for (let i = 0; i + run < segments.length; i++) {
    if (segments[i] === '') continue;
    if (segments.slice(0, i).every((s, k) => s === other[k]) && segments.slice(i + run).every((s, k) => s === other[i + k])) return i;
  }
  return undefined;
}
