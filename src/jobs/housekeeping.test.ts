import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';
import { JOBS } from './registry.ts';
import { RETENTION } from './housekeeping.repo.ts';

let ctx: TestContext;
let user: SignedInUser;
let workspaceId: string;
const db = () => ctx.database.db;
/** Ids the test seeded, by table, as `old` (to go) or `fresh` (to stay). */
const seeded: Record<string, { old: string[]; fresh: string[] }> = {};
const mark = (table: string, kind: 'old' | 'fresh', id: string) => ((seeded[table] ??= { old: [], fresh: [] })[kind].push(id), id);
const ago = (interval: string) => sql<Date>`now() - ${interval}::interval`;
const ahead = (interval: string) => sql<Date>`now() + ${interval}::interval`;

async function seedPasswordResets() {
  for (const [kind, expires] of [['old', ago('2 days')], ['fresh', ago('1 hour')], ['fresh', ahead('20 minutes')]] as const) {
    const id = mark('password_resets', kind, randomUUID());
    await db().insertInto('password_resets').values({ id, user_id: user.id, token_hash: randomUUID(), expires_at: expires }).execute();
  }
}

async function seedInvitations() {
  const rows = [
    ['old', { revoked_at: ago('40 days'), expires_at: ago('35 days') }],
    ['old', { expires_at: ago('31 days') }],
    ['fresh', { accepted_at: ago('31 days'), expires_at: ago('25 days') }],
    ['fresh', { expires_at: ago('3 days') }],
    ['fresh', { expires_at: ahead('6 days') }],
  ] as const;
  for (const [kind, when] of rows) {
    const id = mark('workspace_invitations', kind, randomUUID());
    await db().insertInto('workspace_invitations').values({ id, workspace_id: workspaceId, email: `${id}@example.com`, role: 'viewer', token_hash: randomUUID(), ...when }).execute();
  }
}

/** An endpoint with one delivery 91 days old and one 89; another with the newest 1,000 and 3 older, one of them pending. */
async function seedWebhookDeliveries() {
  const endpoint = async () => {
    const id = randomUUID();
    await db().insertInto('webhook_endpoints').values({ id, workspace_id: workspaceId, url: 'https://hooks.example.com/x', secret_sealed: 'x' }).execute();
    return id;
  };
  const delivery = async (endpointId: string, kind: 'old' | 'fresh', age: string, status: 'succeeded' | 'pending' = 'succeeded') => {
    const id = mark('webhook_deliveries', kind, randomUUID());
    await sql`insert into webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, created_at)
      values (${id}, ${endpointId}, ${randomUUID()}, 'webhook.test', '{}', ${status}, ${ago(age)})`.execute(db());
  };
  const aged = await endpoint();
  await delivery(aged, 'old', `${RETENTION.webhookDeliveriesDays + 1} days`);
  await delivery(aged, 'fresh', `${RETENTION.webhookDeliveriesDays - 1} days`);
  const busy = await endpoint();
  await delivery(busy, 'old', '3 hours');
  await delivery(busy, 'old', '2 hours 30 minutes');
  await delivery(busy, 'fresh', '2 hours', 'pending');
  // The newest 1,000, in one statement.
  await sql`insert into webhook_deliveries (endpoint_id, event_id, event_type, body, status, created_at)
    select ${busy}, gen_random_uuid(), 'webhook.test', '{}', 'succeeded', now() - make_interval(secs => n)
    from generate_series(1, ${RETENTION.webhookDeliveriesPerEndpoint}) as n`.execute(db());
  return busy;
}

async function seedTokens() {
  for (const [kind, expires] of [['old', ago('2 days')], ['fresh', ago('1 hour')], ['fresh', ahead('30 days')]] as const) {
    const id = mark('refresh_tokens', kind, randomUUID());
    await db().insertInto('refresh_tokens').values({ id, user_id: user.id, family_id: randomUUID(), token_hash: randomUUID(), expires_at: expires }).execute();
  }
  for (const [kind, expires] of [['old', ago('1 minute')], ['fresh', ahead('10 minutes')]] as const) {
    const id = mark('token_revocations', kind, randomUUID());
    await db().insertInto('token_revocations').values({ token_id: id, user_id: user.id, expires_at: expires }).execute();
  }
}

async function seedClaimsAndStates() {
  for (const [kind, claimed] of [['old', ago('31 days')], ['fresh', ago('29 days')]] as const) {
    const key = mark('notification_sends', kind, randomUUID());
    await db().insertInto('notification_sends').values({ kind: 'alert', user_id: user.id, workspace_id: workspaceId, subject_key: key, claimed_at: claimed, sent_at: claimed }).execute();
  }
  for (const [kind, created] of [['old', ago('2 days')], ['fresh', ago('5 minutes')]] as const) {
    const hash = mark('oauth_states', kind, randomUUID());
    await sql`insert into oauth_states (state_hash, purpose, user_id, code_verifier, created_at) values (${hash}, 'connect', ${user.id}, 'v', ${created})`.execute(db());
  }
  // A sync that died before promoting its staged rows, and one staging now.
  const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Old', domain: 'old-housekeeping.example.org' } })).data.id;
  for (const [kind, staged] of [['old', ago('25 hours')], ['fresh', ago('5 minutes')]] as const) {
    const syncId = mark('search_query_staging', kind, randomUUID());
    await db().insertInto('search_query_staging').values({ sync_id: syncId, site_id: siteId, date: '2026-11-01', query: 'q', page: 'https://old-housekeeping.example.org/', clicks: 1, impressions: 2, position: 3, staged_at: staged }).execute();
  }
}

/** The seeded ids of a table still there. */
async function left(table: string): Promise<string[]> {
  const column = { token_revocations: 'token_id', notification_sends: 'subject_key', oauth_states: 'state_hash', search_query_staging: 'sync_id' }[table] ?? 'id';
  const ids = [...seeded[table]!.old, ...seeded[table]!.fresh];
  const rows = await sql<{ id: string }>`select ${sql.ref(column)}::text as id from ${sql.table(table)} where ${sql.ref(column)}::text in (${sql.join(ids)})`.execute(db());
  return rows.rows.map((r) => r.id).sort();
}

before(async () => {
  ctx = await startTestApp({}, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  user = await signUp(ctx);
  workspaceId = (await call(ctx, { method: 'POST', url: '/api/v1/workspaces', token: user.accessToken, payload: { name: 'Old Co.' } })).data.id;
});
after(() => ctx.close());

describe('the daily housekeeping job', () => {
  it('is scheduled daily, as the digest is', async () => {
    const [schedule] = await ctx.app.jobs.schedules('housekeeping.daily');
    assert.equal(schedule?.cron, JOBS['housekeeping.daily'].cron);
    assert.match(JOBS['housekeeping.daily'].cron, /^\d+ \d+ \* \* \*$/);
  });

  it('deletes the old rows of every table that only grows, and leaves the fresh ones', async () => {
    await seedPasswordResets();
    await seedInvitations();
    const busy = await seedWebhookDeliveries();
    await seedTokens();
    await seedClaimsAndStates();
    const id = await ctx.app.jobs.send('housekeeping.daily', {});
    await until(async () => (await ctx.app.jobs.findJobs('housekeeping.daily')).find((j) => j.id === id), (j) => j?.state === 'completed', 'the housekeeping job');
    for (const [table, { fresh }] of Object.entries(seeded)) assert.deepEqual(await left(table), [...fresh].sort(), table);
    const kept = await db().selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string>().as('n')).where('endpoint_id', '=', busy).executeTakeFirstOrThrow();
    assert.equal(Number(kept.n), RETENTION.webhookDeliveriesPerEndpoint + 1, 'the newest 1,000 and the pending one');
  });
});
