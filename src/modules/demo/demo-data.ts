import { expectedCtr } from '../search-data/ctr-curve.ts';
import { PLANTS } from './demo-site.ts';
import { DAY_MS as DAY, isoDate } from '../search-data/periods.ts';
import type { AnalyticsDay, QueryPageDay, SearchDay, SegmentDay } from '../search-data/search-data.repo.ts';


/** A small seeded PRNG (mulberry32): the same demo every time. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}


// The demo site's guides (demo-site.ts): each topic has a guide page and a care page.
const TOPICS = PLANTS.map((p) => p.topic.replaceAll('-', ' '));
const PATTERNS = [
  (t: string) => `how to grow ${t}`, (t: string) => `when to prune ${t}`, (t: string) => `best ${t} for small gardens`,
  (t: string) => `buy ${t} online`, (t: string) => `${t} price`, (t: string) => `${t} care guide`, (t: string) => `${t} problems`,
  (t: string) => `${t} vs alternatives`, (t: string) => `planting ${t} in autumn`, (t: string) => `${t} delivery near me`,
  (t: string) => `why are my ${t} dying`, (t: string) => `${t} ideas`, (t: string) => `cheap ${t}`, (t: string) => `${t} for shade`,
  (t: string) => `organic ${t}`, (t: string) => `${t} in pots`, (t: string) => `${t} varieties`, (t: string) => `${t} garden shop`,
  (t: string) => `${t} watering`, (t: string) => `${t} tips`, (t: string) => `${t} review`, (t: string) => `propagating ${t}`,
  (t: string) => `${t} pests`, (t: string) => `${t} fertiliser`, (t: string) => `${t} from seed`,
];

export interface DemoData {
  days: SearchDay[];
  queryDays: QueryPageDay[];
  /** Each day's totals split by country and by device, as Search Console reports them. */
  countries: SegmentDay[];
  devices: SegmentDay[];
  analytics: AnalyticsDay[];
  queries: number;
}

/** A garden shop's audience: [country (ISO 3166-1 alpha-3, as Search Console writes it), share, places from the average]. */
const COUNTRY_SHARES = [['usa', 0.38, 0.5], ['gbr', 0.16, -1], ['prt', 0.1, -2], ['can', 0.08, 0], ['deu', 0.07, 2], ['aus', 0.06, 1], ['bra', 0.05, 3], ['fra', 0.04, 2], ['irl', 0.03, -0.5], ['nld', 0.03, 1.5]] as const;
const DEVICE_SHARES = [['mobile', 0.58, 0.8], ['desktop', 0.38, -1], ['tablet', 0.04, 0.5]] as const;

/**
 * Synthetic but realistic search data for a demo site: 16 months of site totals and GA4
 * figures with weekly and yearly seasonality and growth, and per-query rows for the last
 * 90 days (300 queries over 24 pages) whose positions drift, so rankings change.
 */
export function demoSearchData(origin: string, now = new Date(), seed = 42): DemoData {
  const rand = random(seed);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const queries = TOPICS.flatMap((topic) => PATTERNS.map((pattern) => ({ topic, query: pattern(topic) }))).slice(0, 300).map(({ topic, query }, i) => ({
    query,
    page: `${origin}/guides/${topic.replace(/ /g, '-')}/${i % 2 === 0 ? '' : 'care/'}`,
    volume: Math.round(20 + rand() ** 3 * 4000),
    start: 2 + rand() * 40,
    drift: (rand() - 0.55) * 0.12, // positions per day; most queries improve slowly
  }));
  const season = (time: number) => {
    const dayOfYear = (time - Date.UTC(new Date(time).getUTCFullYear(), 0, 1)) / DAY;
    const weekday = new Date(time).getUTCDay();
    return (1 + 0.35 * Math.sin(((dayOfYear - 80) / 365) * 2 * Math.PI)) * (weekday === 0 || weekday === 6 ? 1.2 : 1);
  };

  const days: SearchDay[] = [];
  const analytics: AnalyticsDay[] = [];
  const countries: SegmentDay[] = [];
  const devices: SegmentDay[] = [];
  // A day's figures shared out (shares drifting a little each day), each part ranking a little better or worse than the whole.
  // The day's clicks are shared out by each part's impressions and click-through at its position, so the parts add up to
  // the day's clicks as Search Console's do (an agency checks that first).
  const split = (into: SegmentDay[], date: string, whole: SearchDay, parts: ReadonlyArray<readonly [string, number, number]>) => {
    const shares = parts.map(([key, share, offset]) => {
      const impressions = Math.round(whole.impressions * share * (0.85 + rand() * 0.3));
      const position = Math.max(1, whole.position + offset + (rand() - 0.5));
      return { key, impressions, position, weight: impressions * expectedCtr(position) };
    }).filter((p) => p.impressions > 0);
    const total = shares.reduce((sum, p) => sum + p.weight, 0) || 1;
    for (const { key, impressions, position, weight } of shares) {
      into.push({ date, key, clicks: Math.min(impressions, Math.round((whole.clicks * weight) / total)), impressions, position });
    }
  };
  const totalDays = 16 * 30 + 6; // 16 months
  for (let back = totalDays; back >= 3; back--) { // Search Console is 2-3 days behind
    const time = today - back * DAY;
    const growth = 1 + (totalDays - back) / totalDays;
    const impressions = Math.round(9000 * season(time) * growth * (0.9 + rand() * 0.2));
    const position = Math.max(1, 18 - (totalDays - back) / 60 + rand() * 1.5);
    const clicks = Math.round(impressions * expectedCtr(position) * 1.6);
    const day = { date: isoDate(time), clicks, impressions, ctr: clicks / impressions, position };
    days.push(day);
    split(countries, day.date, day, COUNTRY_SHARES);
    split(devices, day.date, day, DEVICE_SHARES);
    const sessions = Math.round(clicks * 1.4 + 40 * rand());
    analytics.push({
      date: isoDate(time), sessions, page_views: Math.round(sessions * (1.8 + rand() * 0.6)),
      bounce_rate: 0.38 + rand() * 0.15, conversions: Math.round(sessions * 0.021 * (0.7 + rand() * 0.6)),
    });
  }

  const queryDays: QueryPageDay[] = [];
  for (let back = 90; back >= 3; back--) {
    const time = today - back * DAY;
    for (const q of queries) {
      const position = Math.min(80, Math.max(1, q.start + q.drift * (90 - back) + (rand() - 0.5) * 1.5));
      const impressions = Math.round((q.volume / 30) * season(time) * (position <= 10 ? 1 : position <= 20 ? 0.1 : 0.02) * (0.8 + rand() * 0.4));
      if (impressions === 0) continue; // Search Console omits empty rows
      queryDays.push({ date: isoDate(time), query: q.query, page: q.page, clicks: Math.round(impressions * expectedCtr(position)), impressions, position });
    }
  }
  return { days, queryDays, countries, devices, analytics, queries: queries.length };
}

