import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { SearchDataService } from '../search-data/search-data.service.ts';
import { brandOf } from '../search-data/intent.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { demoSearchData } from './demo-data.ts';
import type { WordPressServer } from './wordpress-stand-in.ts';

export const DEMO_EMAIL = 'demo@example.org';
/** Proposals the demo approves itself, so some work is shown executed and verified; the rest wait for the user. */
const APPROVED_BY_THE_DEMO = 3;
const EXECUTED_KINDS = ['fix_missing_meta_description', 'fix_title_tag', 'add_image_alt_text'];

export interface DemoDeps {
  /** The service itself: the demo acts through its public API, as a user would. */
  app: Pick<FastifyInstance, 'inject' | 'jobs'>;
  users: UsersService;
  sites: SitesService;
  searchData: SearchDataService;
  /** The demo's website (WordPress REST wire format), already listening. */
  website: Pick<WordPressServer, 'origin' | 'host' | 'username' | 'applicationPassword'>;
  /** A client-rendered shop (spa-site.ts), already listening: audited too, to show what only JavaScript shows. */
  spa?: { host: string };
  /** How long to wait for the audit and the executions (the journey runs on this process's job workers). */
  timeoutMs?: number;
}

export interface DemoResult {
  email: string;
  password: string;
  siteId: string;
  days: number;
  queries: number;
  audit: { status: string; score: number | null; pages: number; agent: string; findings: number; checks: number };
  awaitingApproval: number;
  executed: Array<{ id: string; title: string; status: string; verification: string | null }>;
  /** The client-rendered shop's audit: pages crawled, pages rendered (0 without Chromium), and why not. */
  spa?: { siteId: string; status: string; pages: number; rendered: number; unavailable: string | null };
}

class DemoError extends Error {}

/**
 * `npm run demo`: the whole journey on a fresh account, through the public API. A demo user
 * (a fresh password each run, printed once; the previous demo account and all it owned are
 * removed) adds the demo shop's website, connects it as WordPress, and has it audited; the
 * strategy agent proposes from the findings; the demo approves a few proposals, which are
 * executed through the connector and verified on the live page; the rest wait for the user.
 * 16 months of synthetic Search Console and GA4 data for the same pages fill the analytics.
 */
export async function runDemo(deps: DemoDeps, now = new Date()): Promise<DemoResult> {
  const { app, website } = deps;
  const deadline = Date.now() + (deps.timeoutMs ?? 120_000);
  const password = randomBytes(12).toString('base64url');
  await deps.users.recreateUser({ email: DEMO_EMAIL, name: 'Demo User', password });

  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: DEMO_EMAIL, password } });
  const token = login.json<{ access_token: string }>().access_token;
  const api = async <T>(method: InjectOptions['method'], url: string, payload?: object): Promise<T> => {
    const res = await app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new DemoError(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json<T>();
  };
  const waitFor = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new DemoError(`the demo gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const site = await api<{ id: string }>('POST', '/sites', { name: 'Demo Garden Shop', domain: website.host });
  const data = demoSearchData(website.origin, now);
  await deps.searchData.upsertSearchDays(site.id, data.days);
  await deps.searchData.replaceQueryDays(site.id, [...new Set(data.queryDays.map((r) => r.date))], data.queryDays);
  const syncedDays = data.days.map((d) => d.date);
  await deps.searchData.replaceSegmentDays(site.id, 'country', syncedDays, data.countries);
  await deps.searchData.replaceSegmentDays(site.id, 'device', syncedDays, data.devices);
  await deps.searchData.upsertAnalyticsDays(site.id, data.analytics);
  await deps.searchData.refreshKeywords(site.id, brandOf('demo-garden-shop.example'));
  // What a finished sync would have recorded, and the event it would have sent.
  await deps.sites.setSearchSync(site.id, {
    gsc_property: `sc-domain:${website.host}`, ga4_property: 'properties/000000000', search_backfilled: true, search_sync_error: null, synced: true,
  });
  // (A sync sends agent.plan-from-search; here the audit below comes first, and its agent plans from the search data too.)

  await api('PUT', `/sites/${site.id}/connector`, {
    type: 'wordpress', base_url: website.origin, username: website.username, application_password: website.applicationPassword,
  });
  // The shop's monthly report to its owner (without SMTP_URL the service writes each message to its log instead).
  await api('PUT', `/sites/${site.id}/report/schedule`, { frequency: 'monthly', recipients: ['owner@demo-garden-shop.example'] });
  const started = await api<{ id: string }>('POST', '/audits', { site_id: site.id });
  type Audit = { id: string; status: string; agent: string; score: number | null; pages_crawled: number; issues: Array<{ affected_count: number }> };
  const audit = await waitFor('the audit and the strategy agent',
    () => api<Audit>('GET', `/audits/site/${site.id}/latest`),
    (a) => a.id === started.id && (a.status === 'failed' || ['finished', 'failed', 'skipped'].includes(a.agent)));

  type Task = { id: string; title: string; type: string; status: string; verification: { status: string } | null };
  const queue = await api<{ items: Task[]; total: number }>('GET', `/tasks/awaiting-approval?site_id=${site.id}&page_size=100`);
  // One proposal of each kind the connector carries out itself, so the demo shows them executed and verified.
  const chosen = EXECUTED_KINDS.flatMap((type) => queue.items.find((t) => t.type === type) ?? []).slice(0, APPROVED_BY_THE_DEMO);
  for (const task of chosen) await api('POST', `/tasks/${task.id}/approve`);
  const executed = [];
  for (const task of chosen) {
    const done = await waitFor(`task ${task.id} to be executed and verified`,
      () => api<Task>('GET', `/tasks/${task.id}`),
      (t) => t.status === 'failed' || (t.status === 'completed' && t.verification !== null && t.verification.status !== 'pending'));
    executed.push({ id: done.id, title: done.title, status: done.status, verification: done.verification?.status ?? null });
  }
  const remaining = await api<{ total: number }>('GET', `/tasks/awaiting-approval?site_id=${site.id}&page_size=1`);
  const spa = deps.spa ? await auditClientRendered(deps.spa.host) : undefined;
  return {
    email: DEMO_EMAIL, password, siteId: site.id, days: data.days.length, queries: data.queries,
    audit: {
      status: audit.status, score: audit.score, pages: audit.pages_crawled, agent: audit.agent,
      findings: audit.issues.reduce((sum, issue) => sum + issue.affected_count, 0), checks: audit.issues.length,
    },
    awaitingApproval: remaining.total,
    executed,
    ...(spa ? { spa } : {}),
  };

  /** The client-rendered shop, audited in auto: its pages rendered where Chromium is installed, its shell alone otherwise. */
  async function auditClientRendered(host: string): Promise<NonNullable<DemoResult['spa']>> {
    const shop = await api<{ id: string }>('POST', '/sites', { name: 'Northwind Roasters (JavaScript app)', domain: host });
    const begun = await api<{ id: string }>('POST', '/audits', { site_id: shop.id });
    const done = await waitFor('the client-rendered shop\'s audit',
      () => api<{ id: string; status: string; agent: string; pages_crawled: number }>('GET', `/audits/site/${shop.id}/latest`),
      (a) => a.id === begun.id && (a.status === 'failed' || ['finished', 'failed', 'skipped'].includes(a.agent)));
    const rendering = done.status === 'completed'
      ? await api<{ rendered: number; unavailable: string | null }>('GET', `/audits/${done.id}/rendering?page_size=1`)
      : { rendered: 0, unavailable: null };
    return { siteId: shop.id, status: done.status, pages: done.pages_crawled, rendered: rendering.rendered, unavailable: rendering.unavailable };
  }
}
