/**
 * Crawl traps: URL spaces that never end, found as Googlebot and Screaming Frog find them,
 * from the URLs and from what they serve, never from one site's markup:
 *
 * - repeating path segments (`/a/b/a/b/`, `/de/de/`), very deep paths and very long URLs;
 * - self-similar growth: a URL that serves exactly the page found at the same URL with
 *   directory segments fewer (`/de/fr/mod/x.html` = `/fr/mod/x.html`: the server collapses
 *   stacked language prefixes, and relative links keep stacking them). When both segments
 *   are mirrors (prefixes the site's structure repeats under), the collapse is learnt:
 *   every queued URL with the same segment before the same next segment under the same
 *   parent is skipped unfetched. A copy under one prefix that is no stack (a page a
 *   language's tree serves untranslated) is an ordinary duplicate;
 * - the same content under many other URLs: past a few copies, a copy's links are not
 *   followed;
 * - unbounded parameters: past a number of query-string variants of one path, the rest
 *   are skipped.
 *
 * What was skipped is counted per pattern with examples, for the crawl_trap check.
 */
const MAX_QUERY_VARIANTS = 50;
const MAX_COPIES_EXPANDED = 20;
const MAX_SEGMENTS = 30;
const MAX_URL_LENGTH = 2048;
const EXAMPLES = 5;
/** Pages that show a segment mirrors its parent before a stack of two is called a trap. */
const MIRROR_EVIDENCE = 5;

export interface TrapPattern {
  /** What the pattern is, in words (the check's value). */
  reason: string;
  /** URLs of the pattern seen (skipped unfetched, or fetched and found to be copies). */
  count: number;
  examples: string[];
}

const segmentsOf = (url: URL) => url.pathname.split('/').slice(1);

/** A run of 1-3 segments repeated right after itself, or one segment three times. */
function repeats(segments: string[]): boolean {
  for (let size = 1; size <= 3; size++) {
    for (let i = 0; i + 2 * size <= segments.length; i++) {
      const run = segments.slice(i, i + size);
      if (run.every((s) => s !== '') && run.every((s, k) => s === segments[i + size + k])) return true;
    }
  }
  const seen = new Map<string, number>();
  for (const segment of segments) {
    if (segment === '') continue;
    const n = (seen.get(segment) ?? 0) + 1;
    if (n >= 3) return true;
    seen.set(segment, n);
  }
  return false;
}

export class TrapDetector {
  readonly patterns = new Map<string, TrapPattern>();
  /** parent path + segment -> pages seen under it whose path without it is known too. */
  private readonly mirrorEvidence = new Map<string, number>();
  /** Whether a URL is known to the crawl (linked, queued or fetched). */
  private readonly isKnown: (url: string) => boolean;

  constructor(isKnown: (url: string) => boolean) {
    this.isKnown = isKnown;
  }

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
    if (href.length > MAX_URL_LENGTH) return this.refuse('long', `URLs longer than ${MAX_URL_LENGTH} characters`, href);
    if (segments.length > MAX_SEGMENTS) return this.refuse('deep', `paths deeper than ${MAX_SEGMENTS} segments`, href);
    if (repeats(segments)) return this.refuse(`repeat ${url.origin}`, 'repeating path segments (e.g. /a/b/a/b/): the same directories stacked again', href);
    if (this.skipLearnt(href, url, segments)) return true;
    if (url.search) {
      const path = url.origin + url.pathname;
      const variants = (this.queryVariants.get(path) ?? 0) + 1;
      this.queryVariants.set(path, variants);
      if (variants > MAX_QUERY_VARIANTS) return this.refuse(`query ${path}`, `unbounded parameters: more than ${MAX_QUERY_VARIANTS} query strings on ${path}`, href);
    }
    this.gatherMirrorEvidence(url, segments);
    return false;
  }

  /** Before fetching a queued URL: true when a collapse learnt since it was queued covers it. */
  skipLearnt(href: string, url = new URL(href), segments = segmentsOf(url)): boolean {
    if (this.insertions.size === 0) return false;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = this.insertionKey(url.origin, segments, i);
      if (this.insertions.has(key)) return this.refuse(`insert ${key}`, this.insertionReason(url.origin, segments, i), href);
    }
    return false;
  }

  /**
   * After fetching an HTML page:
   * - 'trap' when it is a copy of the page at its URL without an inserted mirror segment
   *   stacked on another (/de/fr/x = /fr/x): the collapse is learnt, the page left out of
   *   the checks and its links not followed;
   * - 'copy' when its text is served by too many other URLs: it stays a page, but its
   *   links are not followed (a copy's relative links are what grows a trap);
   * - undefined otherwise, also for a copy under one inserted directory that is no stack
   *   (an untranslated page that /ko/ serves in the default language).
   */
  afterFetch(href: string, textHash: string): 'trap' | 'copy' | undefined {
    const url = new URL(href);
    const segments = segmentsOf(url);
    const twins = this.byContent.get(textHash);
    if (!twins) {
      this.byContent.set(textHash, [href]);
      return undefined;
    }
    for (const twin of twins) {
      const twinUrl = new URL(twin);
      if (twinUrl.origin !== url.origin || twinUrl.search !== url.search) continue;
      // Fetched in the other order (the longer URL first): learn from it all the same.
      const twinSegments = segmentsOf(twinUrl);
      const reverse = droppedSegment(twinSegments, url);
      if (reverse !== undefined && this.stackedMirrors(url.origin, twinSegments, reverse)) this.insertions.add(this.insertionKey(url.origin, twinSegments, reverse));
      const at = droppedSegment(segments, twinUrl);
      if (at === undefined) continue;
      if (twins.length < EXAMPLES * 4) twins.push(href); // a longer stack may be its copy next
      // A copy under one prefix (an untranslated page a language's tree serves in the
      // default language) is an ordinary duplicate: its links lead to that tree's pages.
      if (!this.stackedMirrors(url.origin, segments, at)) return undefined;
      const key = this.insertionKey(url.origin, segments, at);
      this.insertions.add(key);
      this.record(`insert ${key}`, this.insertionReason(url.origin, segments, at), href);
      return 'trap';
    }
    if (twins.length < EXAMPLES * 4) twins.push(href);
    const copies = (this.copies.get(textHash) ?? 1) + 1;
    this.copies.set(textHash, copies);
    if (copies <= MAX_COPIES_EXPANDED) return undefined;
    this.record(`copies ${textHash}`, `the same content under more than ${MAX_COPIES_EXPANDED} URLs (their links not followed), e.g. ${twins[0]}`, href);
    return 'copy';
  }

  /**
   * A mirror segment is a directory that repeats the site's structure under a parent (a
   * language or region prefix: /de/mod/core.html beside /mod/core.html). A URL /P/m/X
   * found while /P/X is known too is evidence that m mirrors P. Gathered as URLs are
   * found, which runs a level ahead of fetching: the evidence is in before the stacks.
   */
  private gatherMirrorEvidence(url: URL, segments: string[]) {
    for (let i = 0; i < segments.length - 1; i++) {
      if (segments[i] === '') continue;
      const without = `${url.origin}/${[...segments.slice(0, i), ...segments.slice(i + 1)].join('/')}${url.search}`;
      if (!this.isKnown(without)) continue;
      const key = this.mirrorKey(url.origin, segments, i);
      this.mirrorEvidence.set(key, (this.mirrorEvidence.get(key) ?? 0) + 1);
    }
  }

  /** Whether the segment at `at` and the one after it both mirror their parent: a stack of prefixes. */
  private stackedMirrors(origin: string, segments: string[], at: number): boolean {
    const next = [...segments.slice(0, at), ...segments.slice(at + 1)];
    return (this.mirrorEvidence.get(this.mirrorKey(origin, segments, at)) ?? 0) >= MIRROR_EVIDENCE &&
      (this.mirrorEvidence.get(this.mirrorKey(origin, next, at)) ?? 0) >= MIRROR_EVIDENCE;
  }

  private mirrorKey(origin: string, segments: string[], at: number) {
    return `${origin}/${segments.slice(0, at).join('/')}\u0000${segments[at]}`;
  }

  /** Records the URL under its trap pattern; true: it is not fetched. */
  private refuse(key: string, reason: string, href: string): true {
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
