export const NO_LINKS = new Int32Array(0);
const LINK_BLOCK = 1 << 20;

/**
 * Out-link ids of every page, stored in shared blocks of 1M ids: each page keeps a view
 * into a block, not an ArrayBuffer of its own (20,000 small typed arrays cost 14 MB).
 */
export class LinkStore {
  private block = new Int32Array(LINK_BLOCK);
  private used = 0;

  store(ids: Set<number>): Int32Array {
    if (ids.size === 0) return NO_LINKS;
    if (ids.size > LINK_BLOCK) return Int32Array.from(ids);
    if (this.used + ids.size > LINK_BLOCK) {
      this.block = new Int32Array(LINK_BLOCK);
      this.used = 0;
    }
    const start = this.used;
    for (const id of ids) this.block[this.used++] = id;
    return this.block.subarray(start, this.used);
  }
}
