import { sql, type RawBuilder } from 'kysely';

/**
 * Search intent by rules, first match wins (documented in the README):
 * - navigational: the query names the site itself (its domain's main word, "garden shop");
 * - transactional: the searcher wants to act now (buy, order, price, coupon, near me…);
 * - commercial: the searcher is comparing before buying (best, review, vs, alternative…);
 * - navigational: the searcher wants this site or a page of it (the site's own name, login…);
 * - informational: everything else (how, what, why, guides, facts).
 * Patterns are PostgreSQL regular expressions (`~*`, case-insensitive, \m \M word bounds).
 */
export const INTENT_RULES = [
  { intent: 'transactional', pattern: String.raw`\m(buy|order|purchase|price|prices|pricing|cost|cheap|deal|deals|discount|coupon|voucher|sale|for sale|shop|store|near me|delivery|hire|book|booking|subscribe|download)\M` },
  { intent: 'commercial', pattern: String.raw`\m(best|top|review|reviews|vs|versus|compare|comparison|alternative|alternatives|recommended|rated)\M` },
  { intent: 'navigational', pattern: String.raw`\m(login|log in|sign in|account|website|official|contact|customer service|opening hours)\M` },
] as const;

/** The intent CASE expression for a keyword column; a query naming the site itself is navigational, whatever else it says. */
export function intentSql(keyword: RawBuilder<string>, brand: string | undefined): RawBuilder<string> {
  const brandRule = brand && brand.length >= 3 ? [sql`when ${keyword} ~* ${`\\m${escapeRegex(brand)}\\M`} then 'navigational'`] : [];
  const rules = INTENT_RULES.map((r) => sql`when ${keyword} ~* ${r.pattern} then ${r.intent}`);
  return sql<string>`case ${sql.join([...brandRule, ...rules], sql` `)} else 'informational' end`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The brand word of a site: its domain's main label ("www.garden-shop.co.uk" -> "garden shop"). */
export function brandOf(domain: string): string {
  const host = domain.toLowerCase().replace(/:\d+$/, '');
  if (/^[\d.]+$/.test(host) || host.includes(':')) return ''; // an IP address names no brand
  const labels = host.split('.').filter((l) => l !== 'www');
  const main = labels.length > 2 && labels.at(-2)!.length <= 3 ? labels.at(-3) : labels.at(-2) ?? labels[0];
  return (main ?? '').replace(/-/g, ' ');
}
