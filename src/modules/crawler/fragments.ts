/**
 * Fragment links (`page.html#section`), checked as linkinator --check-fragments does: the
 * target page must have an element with that id (or an <a name>). Pages keep their anchors
 * as sorted 32-bit hashes (FNV-1a): a 20,000-page documentation site has millions of ids.
 */

/** The fragment a link points at, undefined for none, '' and "top" (both always scroll somewhere). */
export function fragmentOf(href: string): string | undefined {
  const at = href.indexOf('#');
  if (at === -1) return undefined;
  const fragment = href.slice(at + 1);
  if (fragment === '' || fragment.toLowerCase() === 'top') return undefined;
  return fragment;
}

export function hashAnchor(anchor: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < anchor.length; i++) {
    hash ^= anchor.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export function anchorHashes(anchors: string[]): Int32Array {
  const hashes = Int32Array.from(new Set(anchors.map(hashAnchor)));
  return hashes.sort();
}

/** Whether the page's anchors hold the fragment, raw or percent-decoded (the HTML standard tries both). */
export function hasAnchor(anchors: Int32Array | undefined, fragment: string): boolean {
  if (!anchors) return false;
  if (contains(anchors, hashAnchor(fragment))) return true;
  try {
    const decoded = decodeURIComponent(fragment);
    return decoded !== fragment && contains(anchors, hashAnchor(decoded));
  } catch {
    return false;
  }
}

function contains(sorted: Int32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
