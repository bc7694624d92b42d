import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { hashPassword } from '../users/passwords.ts';
import { demoSearchData } from './demo-data.ts';
import { brandOf } from './intent.ts';
import type { SearchDataRepo } from './search-data.repo.ts';

export const DEMO_EMAIL = 'demo@example.org';
export const DEMO_DOMAIN = 'demo-garden.example.com';

/**
 * `npm run demo`: a demo user (a fresh password each run, printed once) and a demo site with
 * 16 months of synthetic Search Console and GA4 data, so the dashboards, trends and keywords
 * have something to show on a fresh install. Safe to run again: the data is replaced.
 */
export async function seedDemo(deps: { db: Kysely<DB>; searchData: SearchDataRepo }, now = new Date()) {
  const { db } = deps;
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const user = await db.insertInto('users')
    .values({ email: DEMO_EMAIL, name: 'Demo User', role: 'user', password_hash: passwordHash })
    .onConflict((oc) => oc.column('email').doUpdateSet({ password_hash: passwordHash }))
    .returning('id').executeTakeFirstOrThrow();
  // The data below is what a finished sync would have stored: say so, with its time.
  const demoSite = {
    gsc_property: `sc-domain:${DEMO_DOMAIN}`, ga4_property: 'properties/000000000',
    search_backfilled: true, search_synced_at: now, search_sync_error: null,
  };
  const site = await db.insertInto('sites')
    // No health score: the contract says null until an audit has run, and the demo runs none.
    .values({ ...demoSite, owner_id: user.id, name: 'Demo Garden Shop', domain: DEMO_DOMAIN })
    .onConflict((oc) => oc.columns(['owner_id', 'domain']).doUpdateSet(demoSite))
    .returning('id').executeTakeFirstOrThrow();
  const data = demoSearchData(`https://${DEMO_DOMAIN}`, now);
  await deps.searchData.upsertSearchDays(site.id, data.days);
  await deps.searchData.replaceQueryDays(site.id, [...new Set(data.queryDays.map((r) => r.date))], data.queryDays);
  await deps.searchData.upsertAnalyticsDays(site.id, data.analytics);
  await deps.searchData.refreshKeywords(site.id, brandOf(DEMO_DOMAIN));
  return { email: DEMO_EMAIL, password, siteId: site.id, days: data.days.length, queries: data.queries };
}
