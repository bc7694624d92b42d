import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/**
 * A Search Console property of `rows` query x page x day rows over `days` days ending at
 * `end`, generated inside the database (generate_series, no row crosses the wire), the same
 * on PostgreSQL and PGlite: every figure is a hash of (query, day, page slot), not random().
 *
 * Shape (at 10M rows): 60,000 queries of Zipf-like popularity (a query of rank r shows on a
 * day with probability min(1, (A/r)^0.75), A fitted to the row count, and the site grows:
 * the tail shows more often at the end), ~5,000 pages (skewed: a few pages rank for many
 * queries), each query ranking with 1-3 pages (60% one, 30% two, 10% three; a second or third
 * page shows on half the days), positions 1-36 (most near the top, improving over time),
 * impressions ~ 30,000 / r^0.95 a day with a weekend dip, clicks from a CTR curve.
 */
export interface Shape { rows: number; days: number; queries: number; pages: number; a: number }

const S = 0.75;
const PAGE_DAY_SHARE = 1 + 0.5 * (0.4 + 0.1); // expected page rows per (query, day)
const growth = (i: number, days: number) => 0.8 + 0.4 * (i / (days - 1));

export function shapeFor(rows: number, days = 485): Shape {
  const queries = Math.max(2000, Math.round(60_000 * Math.sqrt(rows / 10_000_000)));
  const pages = Math.max(300, Math.round(5_000 * Math.sqrt(rows / 10_000_000)));
  const expected = (a: number) => {
    let total = 0;
    for (let i = 0; i < days; i += 5) {
      const g = growth(i, days);
      for (let r = 1; r <= queries; r++) total += Math.min(1, (a / r) ** S * g);
    }
    return total * 5 * PAGE_DAY_SHARE;
  };
  let [lo, hi] = [1, queries * 10];
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (expected(mid) < rows) lo = mid; else hi = mid;
  }
  return { rows, days, queries, pages, a: lo };
}

const WORDS = [
  ['garden', 'rose', 'tulip', 'fern', 'lawn', 'hedge', 'orchid', 'tomato', 'basil', 'compost', 'seed', 'bulb', 'shrub', 'cactus', 'ivy',
    'lily', 'maple', 'oak', 'pine', 'moss', 'herb', 'mint', 'sage', 'pepper', 'bean', 'pea', 'onion', 'garlic', 'carrot', 'potato',
    'apple', 'pear', 'plum', 'cherry', 'grape', 'berry', 'melon', 'squash', 'pumpkin', 'leek'],
  ['pruning', 'planting', 'watering', 'feeding', 'care', 'pests', 'disease', 'soil', 'pots', 'indoor', 'outdoor', 'winter', 'summer',
    'spring', 'autumn', 'shade', 'sun', 'growing', 'harvest', 'cuttings', 'seeds', 'fertilizer', 'mulch', 'tools', 'beds', 'borders',
    'climbing', 'dwarf', 'organic', 'varieties', 'problems', 'yellow leaves', 'brown tips', 'spacing', 'depth', 'timing', 'ideas',
    'tips', 'guide', 'calendar'],
  ['', 'uk', 'near me', 'how to', 'best', 'when', 'why', 'cheap', 'for beginners', 'in pots', 'zone 7', 'zone 5', 'australia', 'canada',
    'video', 'diy', 'kit', 'price', 'reviews', 'vs', 'free', 'online', 'delivery', 'sale', 'nursery', 'images', 'meaning', 'facts',
    'problems', 'mistakes', 'schedule', 'chart', 'list', 'types', 'names', 'uses', 'benefits', 'recipe', 'stand', 'shop'],
];
const SECTIONS = ['guides', 'plants', 'shop', 'blog', 'how-to', 'pests', 'soil', 'tools', 'seasonal', 'vegetables', 'flowers', 'trees'];
/** A number written into the SQL (a parameter's type would be unknown to the planner). */
const n = (x: number) => sql.raw(String(x));
/** A text[] constant (one literal: the planner folds it, an array[...] of literals is built again for every row). */
const array = (words: string[]) => sql.raw(`'{${words.map((w) => `"${w}"`).join(',')}}'::text[]`);

/** A number in [0, 1) from integers (query rank, day, salt): hashint8 is PostgreSQL's own, on both databases. */
const h = (r: string, i: string | number, salt: string | number) =>
  sql.raw(`((hashint8((${r}::bigint * 4096 + ${i}) * 64 + ${salt}) & 2147483647)::float8 / 2147483648.0)`);

/** Inserts the days [from, to] (0-based, of shape.days ending at `end`) of the property. */
/** The queries of the property, once (a table the day chunks join, dropped by dropQueries). */
export async function createQueries(db: Kysely<DB>, shape: Shape) {
  const { queries, pages, a } = shape;
  await sql`
    create table scale_bench_queries as
    select r, least(1.0, power(${n(a)}::float8 / r, ${n(S)})) as p,
      trim((${array(WORDS[0]!)})[1 + r % 40] || ' ' || (${array(WORDS[1]!)})[1 + (r / 40) % 40] || ' ' || (${array(WORDS[2]!)})[1 + (r / 1600) % 40]) as text,
      case when ${h('r', 0, 1)} < 0.6 then 1 when ${h('r', 0, 1)} < 0.9 then 2 else 3 end as npages,
      floor(${n(pages)} * power(${h('r', 0, 10)}, 2))::integer as page0,
      1 + 35 * power(${h('r', 0, 2)}, 2) as base_position,
      30000 / power(r, 0.95) as impressions0
    from generate_series(1, ${n(queries)}) r`.execute(db);
}
export const dropQueries = (db: Kysely<DB>) => sql`drop table scale_bench_queries`.execute(db);

/** Inserts the days [from, to] (0-based, of shape.days ending at `end`) of the property. */
export async function insertDays(db: Kysely<DB>, siteId: string, shape: Shape, end: string, from: number, to: number) {
  const { days, pages } = shape;
  const third = Math.floor(pages / 3);
  await sql`
    insert into search_query_daily (site_id, date, query, page, clicks, impressions, position)
    select ${siteId}::uuid, d.date, q.text, 'https://scale-bench.example/' || (${array(SECTIONS)})[1 + p.page % 12] || '/article-' || p.page,
      least(p.impressions, round(p.impressions * 0.32 / power(p.position, 1.4) * (0.6 + 0.8 * ${h('q.r', 'd.i', 5)})))::integer,
      p.impressions, p.position
    from scale_bench_queries q
    cross join (
      select i, (${end}::date - ${n(days - 1)} + i) as date, 0.8 + 0.4 * i::float8 / ${n(days - 1)} as growth,
        case when extract(isodow from ${end}::date - ${n(days - 1)} + i) >= 6 then 0.75 else 1 end as weekly
      from generate_series(${n(from)}, ${n(to)}) i
      offset 0
    ) d
    cross join lateral (
      select (q.page0 + j * ${n(third)} + j) % ${n(pages)} as page,
        greatest(1, round(q.impressions0 * (case j when 0 then 1 when 1 then 0.35 else 0.12 end) * d.weekly * d.growth * (0.5 + ${h('q.r', 'd.i', 4)})))::integer as impressions,
        round(greatest(1, q.base_position + j * 2.5 - 2.0 * d.i / ${n(days)}::float8 + (${h('q.r', 'd.i', 3)} - 0.5) * 2)::numeric, 2)::float8 as position
      from generate_series(0, q.npages - 1) j
      where j = 0 or ${h('q.r', 'd.i', '(20 + j)')} < 0.5
    ) p
    where ${h('q.r', 'd.i', 6)} < q.p * d.growth`.execute(db);
}

/** The property's own totals per day (search_daily): its rows' and the anonymised queries' (a fifth more). */
export async function insertTotals(db: Kysely<DB>, siteId: string) {
  await sql`
    insert into search_daily (site_id, date, clicks, impressions, ctr, position)
    select site_id, date, round(sum(clicks) * 1.2)::integer, round(sum(impressions) * 1.3)::integer,
      sum(clicks)::float8 / nullif(sum(impressions), 0), sum(position * impressions) / nullif(sum(impressions), 0)
    from search_query_daily where site_id = ${siteId} group by site_id, date`.execute(db);
}
