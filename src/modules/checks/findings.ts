/** One affected URL of one check, with the offending value where there is one. */
export interface Finding {
  url: string;
  value?: string;
}

/** Collects findings per check id; a URL is counted once per check. */
export class Findings {
  readonly byCheck = new Map<string, Finding[]>();
  private readonly seen = new Set<string>();

  add(checkId: string, url: string, value?: string) {
    const key = `${checkId}\u0000${url}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const list = this.byCheck.get(checkId) ?? [];
    list.push(value === undefined ? { url } : { url, value: value.slice(0, 500) });
    this.byCheck.set(checkId, list);
  }

  count(checkId: string): number {
    return this.byCheck.get(checkId)?.length ?? 0;
  }
}
