import { atomically } from '../../db/transact.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Finding } from '../checks/findings.ts';
import { ACTIVE_AUDIT, AGENT_TRANSITIONS, AUDIT_TRANSITIONS } from './lifecycle.ts';
import { memberWorkspaces } from '../workspaces/access.repo.ts';

const COLUMNS = [
  'id', 'site_id', 'status', 'max_pages', 'pages_crawled', 'pages_discovered', 'pages_by_status', 'score',
  'score_breakdown', 'agent', 'agent_error', 'agent_summary', 'error', 'created_at', 'started_at', 'finished_at',
] as const;
const AUDIT_COLUMNS = COLUMNS.map((c) => `audits.${c}` as const);

/** One audit_pages row: a page as the crawl found it, and its stored content as JSON (main-content.ts auditPageRecords). */
export interface PageRecord {
  url: string; status: number | null; title: string | null; meta_description: string | null;
  depth: number | null; inlinks: number; content_hash: string | null; redirect_to: string | null;
  content: string | null;
  /** Raw against rendered, as JSON (render-compare.ts PageRendering); null or absent for a page read as raw HTML. */
  rendering?: string | null;
}

/** Where an audit's issues export goes on from: the last row read's place in its order. */
export interface IssueSeek { check_rank: number; check_id: string; url: string; value: string | null }

/** Every method that writes takes an optional transaction (trx) to run in; the database otherwise. */
export function createAuditsRepo(db: Kysely<DB>) {
  /** Runs fn in the caller's transaction, or in a new one. */
  const inTransaction = <T>(trx: Kysely<DB> | undefined, fn: (trx: Kysely<DB>) => Promise<T>) => atomically(trx ?? db, fn);

  /** Audits of the owner's sites only: every user-facing read starts here. */
  const owned = (ownerId: string) =>
    db.selectFrom('audits').innerJoin('sites', 'sites.id', 'audits.site_id').select(AUDIT_COLUMNS).where('sites.workspace_id', 'in', memberWorkspaces(db, ownerId));

  const active = (siteId: string) =>
    db.selectFrom('audits').select(AUDIT_COLUMNS).where('site_id', '=', siteId).where('status', 'in', ACTIVE_AUDIT).executeTakeFirst();

  return {
    /** A new queued audit, or undefined when the site already has one queued or running. */
    async insertQueued(siteId: string, maxPages: number, trx: Kysely<DB> = db) {
      return trx
        .insertInto('audits')
        .values({ site_id: siteId, max_pages: maxPages })
        .onConflict((oc) => oc.column('site_id').where('status', 'in', ACTIVE_AUDIT).doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
    },
    findActive: active,

    /** The latest audit of a site the owner has. */
    latestForOwner(ownerId: string, siteId: string) {
      return owned(ownerId).where('audits.site_id', '=', siteId).orderBy('audits.created_at', 'desc').limit(1).executeTakeFirst();
    },

    findForOwner(ownerId: string, auditId: string) {
      return owned(ownerId).where('audits.id', '=', auditId).executeTakeFirst();
    },

    /** For the agents (internal): the latest completed audit of a site. */
    latestCompleted(siteId: string) {
      return db
        .selectFrom('audits')
        .select(['id', 'finished_at'])
        .where('site_id', '=', siteId)
        .where('status', '=', AUDIT_TRANSITIONS.complete.to)
        .orderBy('finished_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** An audit of the owner's sites with its Core Web Vitals (page-speed/measure.ts PageSpeedReport; null when none were measured), in one read. */
    pageSpeedOf(ownerId: string, auditId: string) {
      return owned(ownerId).select('audits.page_speed').where('audits.id', '=', auditId).executeTakeFirst();
    },

    /** For the agents and verification (internal): an audit's Core Web Vitals report, null when none was measured. */
    async pageSpeed(auditId: string): Promise<unknown> {
      return (await db.selectFrom('audits').select('page_speed').where('id', '=', auditId).executeTakeFirst())?.page_speed ?? null;
    },

    /** An audit of the owner's sites with how it rendered (crawl.types.ts RenderingSummary; null before it was recorded), in one read. */
    renderingOf(ownerId: string, auditId: string) {
      return owned(ownerId).select('audits.rendering').where('audits.id', '=', auditId).executeTakeFirst();
    },

    /** A page of the rendered pages of an audit of the owner's sites, raw against rendered: failed renders first, then by URL. */
    async renderedPages(ownerId: string, auditId: string, page: number, pageSize: number) {
      const base = db.selectFrom('audit_pages as p')
        .innerJoin('audits as a', 'a.id', 'p.audit_id').innerJoin('sites as s', 's.id', 'a.site_id')
        .where('p.audit_id', '=', auditId).where('s.workspace_id', 'in', memberWorkspaces(db, ownerId)).where('p.rendering', 'is not', null);
      const [rows, count] = await Promise.all([
        base.select(['p.url', 'p.rendering'])
          .orderBy(sql`p.rendering ? 'error'`, 'desc').orderBy('p.url')
          .limit(pageSize).offset((page - 1) * pageSize).execute(),
        base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** An audit's AI-access document (internal: the caller has checked the audit is the user's). */
    async aiAccess(auditId: string) {
      const row = await db.selectFrom('audits').select('ai_access').where('id', '=', auditId).executeTakeFirst();
      return row?.ai_access ?? null;
    },

    /**
     * The pages an llms.txt draft lists (internal, as aiAccess): pages that answered 200 with a title,
     * neither noindex nor canonicalised elsewhere; the home page first, then the most linked to.
     */
    draftPages(auditId: string, limit: number) {
      return db
        .selectFrom('audit_pages as p')
        .select(['p.url', 'p.title', 'p.meta_description', 'p.depth'])
        .where('p.audit_id', '=', auditId)
        .where('p.status', '=', 200)
        .where('p.redirect_to', 'is', null)
        .where('p.title', 'is not', null)
        .where((eb) => eb.not(eb.exists(
          eb.selectFrom('audit_issues as i').select('i.url').whereRef('i.audit_id', '=', 'p.audit_id').whereRef('i.url', '=', 'p.url')
            .where('i.check_id', 'in', ['noindex_meta', 'noindex_header', 'canonical_to_other_url']),
        )))
        .orderBy(sql`p.depth = 0`, (ob) => ob.desc().nullsLast())
        .orderBy('p.inlinks', 'desc')
        .orderBy('p.depth', (ob) => ob.asc().nullsLast())
        .orderBy('p.url')
        .limit(limit)
        .execute();
    },

    /** For the agents (internal): an audit's findings of some checks. */
    findings(auditId: string, checkIds: readonly string[]) {
      return db
        .selectFrom('audit_issues')
        .select(['check_id', 'url', 'value'])
        .where('audit_id', '=', auditId)
        .where('check_id', 'in', [...checkIds])
        .orderBy('url')
        .execute();
    },

    /** For the agents (internal): every page of an audit with its title, description and place in the site (not its text). */
    pages(auditId: string) {
      return db
        .selectFrom('audit_pages')
        .select(['url', 'status', 'title', 'meta_description', 'depth', 'inlinks', 'content_hash', 'redirect_to'])
        .where('audit_id', '=', auditId)
        .execute();
    },

    /** For the agents (internal): the text the crawl kept of some pages of an audit. */
    pageContents(auditId: string, urls: readonly string[]) {
      if (urls.length === 0) return Promise.resolve([]);
      return db.selectFrom('audit_pages').select(['url', 'content']).where('audit_id', '=', auditId).where('url', 'in', [...urls]).execute();
    },

    /** For a site already checked to be the caller's: its latest audit and its completed scores, oldest first. */
    async progressFor(siteId: string, historyLength: number) {
      const [latest, history] = await Promise.all([
        db
          .selectFrom('audits')
          .select(['id', 'status', 'pages_crawled', 'pages_discovered', 'started_at', 'finished_at'])
          .where('site_id', '=', siteId)
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirst(),
        db
          .selectFrom((eb) =>
            eb.selectFrom('audits')
              .select(['id as audit_id', 'score', 'finished_at'])
              .where('site_id', '=', siteId)
              .where('status', '=', AUDIT_TRANSITIONS.complete.to)
              .orderBy('finished_at', 'desc')
              .limit(historyLength)
              .as('recent'),
          )
          .selectAll()
          .orderBy('finished_at')
          .execute(),
      ]);
      const first = await db
        .selectFrom('audits')
        .select('score')
        .where('site_id', '=', siteId)
        .where('status', '=', AUDIT_TRANSITIONS.complete.to)
        .orderBy('finished_at')
        .limit(1)
        .executeTakeFirst();
      return { latest, history, initialScore: first?.score ?? null };
    },

    /**
     * Active sites whose schedule says a re-audit is due: audited before, the last audit
     * older than a day (daily) or a week (weekly), and none queued or running now.
     */
    async dueForReaudit(limit: number) {
      const { rows } = await sql<{ site_id: string; max_pages: number }>`
        select s.id as site_id, last.max_pages
        from sites s
        join lateral (
          select a.max_pages, a.created_at from audits a where a.site_id = s.id order by a.created_at desc limit 1
        ) last on true
        where s.is_active
          and s.audit_schedule <> 'off'
          and last.created_at < now() - case s.audit_schedule when 'daily' then interval '1 day' else interval '7 days' end
          and not exists (select 1 from audits x where x.site_id = s.id and x.status in (${sql.join(ACTIVE_AUDIT.map((a) => sql`${a}`))}))
        order by last.created_at
        limit ${limit}
      `.execute(db);
      return rows;
    },

    /** For the worker (not a user request): the audit and its site's domain. */
    findForRun(auditId: string) {
      return db
        .selectFrom('audits')
        .innerJoin('sites', 'sites.id', 'audits.site_id')
        .select(['audits.id', 'audits.site_id', 'audits.status', 'audits.max_pages', 'sites.domain', 'sites.rendering'])
        .where('audits.id', '=', auditId)
        .executeTakeFirst();
    },

    /** Starts an attempt: its number, or undefined when the audit is already finished. */
    async startAttempt(auditId: string): Promise<number | undefined> {
      const row = await db
        .updateTable('audits')
        .set((eb) => ({ status: AUDIT_TRANSITIONS.start.to, started_at: sql`now()`, error: null, attempt: eb('attempt', '+', 1) }))
        .where('id', '=', auditId)
        .where('status', 'in', AUDIT_TRANSITIONS.start.from)
        .returning('attempt')
        .executeTakeFirst();
      return row?.attempt;
    },

    async updateProgress(auditId: string, attempt: number, crawled: number, discovered: number) {
      await db
        .updateTable('audits')
        .set({ pages_crawled: crawled, pages_discovered: discovered })
        .where('id', '=', auditId)
        .where('attempt', '=', attempt)
        .where('status', '=', AUDIT_TRANSITIONS.start.to)
        .execute();
    },

    /**
     * Writes a batch of an attempt's pages (audit_pages) in a short transaction of its own,
     * before the attempt completes: a thousand pages' stored text written inside complete()
     * held the embedded database's one connection, and every request behind it, for seconds.
     * A batch lands only while this attempt is the audit's running one (checked under the
     * audit row's lock, which starting a new attempt takes too), so a superseded attempt
     * stops writing; `replace` (its first batch) clears what a dead attempt had written.
     * False when the attempt has been superseded.
     */
    async writePages(auditId: string, attempt: number, pages: PageRecord[], options: { replace: boolean }): Promise<boolean> {
      return atomically(db, async (trx) => {
        const current = await trx
          .selectFrom('audits')
          .select('id')
          .where('id', '=', auditId)
          .where('attempt', '=', attempt)
          .where('status', 'in', AUDIT_TRANSITIONS.complete.from)
          .forShare()
          .executeTakeFirst();
        if (!current) return false;
        if (options.replace) await trx.deleteFrom('audit_pages').where('audit_id', '=', auditId).execute();
        if (pages.length > 0) await trx.insertInto('audit_pages').values(pages.map((p) => ({ audit_id: auditId, ...p }))).execute();
        return true;
      });
    },

    /** Completes the attempt whose pages are written (writePages): its figures and findings, in one transaction. */
    async complete(auditId: string, attempt: number, result: {
      crawled: number; discovered: number; pagesByStatus: Record<string, number>; score: number; breakdown: unknown;
      findings: Map<string, Finding[]>; aiAccess?: unknown; rendering?: unknown; pageSpeed?: unknown;
    }, outer?: Kysely<DB>) {
      return inTransaction(outer, async (trx) => {
        // Claim the finish first: a superseded attempt finds nothing to update and writes nothing.
        const claimed = await trx
          .updateTable('audits')
          .set({
            status: AUDIT_TRANSITIONS.complete.to, finished_at: sql`now()`, pages_crawled: result.crawled, pages_discovered: result.discovered,
            pages_by_status: JSON.stringify(result.pagesByStatus), score: result.score, score_breakdown: JSON.stringify(result.breakdown),
            ai_access: result.aiAccess === undefined ? null : JSON.stringify(result.aiAccess),
            rendering: result.rendering === undefined ? null : JSON.stringify(result.rendering),
            page_speed: result.pageSpeed === undefined ? null : JSON.stringify(result.pageSpeed),
          })
          .where('id', '=', auditId)
          .where('attempt', '=', attempt)
          .where('status', 'in', AUDIT_TRANSITIONS.complete.from)
          .returning('id')
          .executeTakeFirst();
        if (!claimed) return false;
        await trx.deleteFrom('audit_issues').where('audit_id', '=', auditId).execute();
        const rows = [...result.findings].flatMap(([checkId, list]) =>
          list.map((f) => ({ audit_id: auditId, check_id: checkId, url: f.url, value: f.value ?? null })),
        );
        for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('audit_issues').values(rows.slice(i, i + 1000)).execute();
        return true;
      });
    },

    /**
     * Fails the audit (its agent has nothing to plan from); with an attempt, only if that attempt
     * is still the current one. `crawled`: the pages that answered, when the crawl got that far.
     */
    async fail(auditId: string, error: string, attempt?: number, crawled?: number, executor: Kysely<DB> = db): Promise<boolean> {
      const skip = AGENT_TRANSITIONS.skip;
      return atomically(executor, async (trx) => {
        let query = trx
          .updateTable('audits')
          .set({
            status: AUDIT_TRANSITIONS.fail.to, finished_at: sql`now()`, error, ...(crawled === undefined ? {} : { pages_crawled: crawled }),
            agent: sql`case when agent in (${sql.join(skip.from.map((s) => sql`${s}`))}) then ${skip.to} else agent end`,
          })
          .where('id', '=', auditId)
          .where('status', 'in', AUDIT_TRANSITIONS.fail.from);
        if (attempt !== undefined) query = query.where('attempt', '=', attempt);
        const failed = await query.returning('id').executeTakeFirst();
        // The pages an attempt wrote before it failed (writePages) describe no completed audit.
        if (failed) await trx.deleteFrom('audit_pages').where('audit_id', '=', auditId).execute();
        return failed !== undefined;
      });
    },

    /**
     * Starts a run of the strategy agent on a completed audit: its attempt number and site, or
     * undefined when the audit is not completed or its agent already finished or failed.
     */
    async startAgent(auditId: string) {
      return db
        .updateTable('audits')
        .set((eb) => ({ agent: AGENT_TRANSITIONS.start.to, agent_error: null, agent_attempt: eb('agent_attempt', '+', 1) }))
        .where('id', '=', auditId)
        .where('status', '=', AUDIT_TRANSITIONS.complete.to)
        .where('agent', 'in', AGENT_TRANSITIONS.start.from)
        .returning(['site_id', 'agent_attempt'])
        .executeTakeFirst();
    },

    /** Records the run's result, if that run is still the current one. */
    async finishAgent(auditId: string, attempt: number, summary: { proposed: number; rejected: number }, trx: Kysely<DB> = db) {
      const value = JSON.stringify({ ...summary, finished_at: new Date().toISOString() });
      const row = await trx
        .updateTable('audits')
        .set({ agent: AGENT_TRANSITIONS.finish.to, agent_summary: value })
        .where('id', '=', auditId)
        .where('agent_attempt', '=', attempt)
        .where('agent', 'in', AGENT_TRANSITIONS.finish.from)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async failAgent(auditId: string, error: string) {
      await db
        .updateTable('audits')
        .set({ agent: AGENT_TRANSITIONS.fail.to, agent_error: error })
        .where('id', '=', auditId)
        .where('status', '=', AUDIT_TRANSITIONS.complete.to)
        .where('agent', 'in', AGENT_TRANSITIONS.fail.from)
        .execute();
    },

    /** The owner's failed agent run made pending again (in the caller's transaction); false when it is not failed. */
    async retryAgent(ownerId: string, auditId: string, trx: Kysely<DB> = db) {
      const row = await trx
        .updateTable('audits')
        .set({ agent: AGENT_TRANSITIONS.retry.to, agent_error: null })
        .where('id', '=', auditId)
        .where('agent', 'in', AGENT_TRANSITIONS.retry.from)
        .where('site_id', 'in', trx.selectFrom('sites').select('id').where('workspace_id', 'in', memberWorkspaces(trx, ownerId)))
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Affected URLs per check (a page with three broken links counts once). */
    issueCounts(auditId: string) {
      return db
        .selectFrom('audit_issues')
        .select(['check_id', (eb) => eb.fn.count<number>('url').distinct().as('count')])
        .where('audit_id', '=', auditId)
        .groupBy('check_id')
        .execute();
    },

    /** The first `perCheck` affected URLs of every check, in URL order. */
    issueSamples(auditId: string, perCheck: number) {
      return db
        .selectFrom((eb) =>
          eb.selectFrom('audit_issues')
            .select(['check_id', 'url', 'value', sql<number>`row_number() over (partition by check_id order by url, value)`.as('n')])
            .where('audit_id', '=', auditId)
            .as('ranked'),
        )
        .select(['check_id', 'url', 'value'])
        .where('n', '<=', perCheck)
        .orderBy('check_id')
        .orderBy('url')
        .orderBy('value')
        .execute();
    },

    async countIssues(auditId: string, checkId: string): Promise<number> {
      const row = await db
        .selectFrom('audit_issues')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('audit_id', '=', auditId)
        .where('check_id', '=', checkId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** One page of a check's rows: every (URL, value), so every broken target of a page shows. */
    issuesPage(auditId: string, checkId: string, page: number, pageSize: number) {
      return db
        .selectFrom('audit_issues')
        .select(['url', 'value'])
        .where('audit_id', '=', auditId)
        .where('check_id', '=', checkId)
        .orderBy('url')
        .orderBy('value')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
    },

    /**
     * Rows of an audit's issues export: checks in the order given (most severe first; any other last), then by URL and
     * value (no value last); the rows after `after`, the last row read (the crawler keeps check, URL and value unique).
     */
    exportIssues(auditId: string, checkOrder: readonly string[], checkId: string | undefined, after: IssueSeek | undefined, limit: number) {
      const rank = sql<number>`coalesce(array_position(${sql.val(checkOrder)}::text[], check_id), ${checkOrder.length + 1})`;
      let query = db.selectFrom('audit_issues').select(['check_id', 'url', 'value', rank.as('check_rank')]).where('audit_id', '=', auditId);
      if (checkId !== undefined) query = query.where('check_id', '=', checkId);
      if (after) {
        const place = sql`(${rank}, check_id, url)`;
        const last = sql`(${after.check_rank}::int, ${after.check_id}::text, ${after.url}::text)`;
        // A null value sorts last: after one, only the next URL; after a value, a greater one or none.
        query = query.where(after.value === null ? sql<boolean>`${place} > ${last}`
          : sql<boolean>`(${place} > ${last} or (${place} = ${last} and (value > ${after.value} or value is null)))`);
      }
      return query.orderBy(rank).orderBy('check_id').orderBy('url').orderBy('value').limit(limit).execute();
    },

    /** Issues (check, url) of this audit that the previous completed audit of the site did not have, and vice versa. */
    async changesSincePrevious(audit: { id: string; site_id: string; created_at: Date }) {
      const previous = await db
        .selectFrom('audits')
        .select('id')
        .where('site_id', '=', audit.site_id)
        .where('status', '=', AUDIT_TRANSITIONS.complete.to)
        .where('created_at', '<', audit.created_at)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!previous) return null;
      const { rows } = await sql<{ new_issues: number; fixed_issues: number }>`
        select
          (select count(*) from (select check_id, url from audit_issues where audit_id = ${audit.id}
             except select check_id, url from audit_issues where audit_id = ${previous.id}) n) as new_issues,
          (select count(*) from (select check_id, url from audit_issues where audit_id = ${previous.id}
             except select check_id, url from audit_issues where audit_id = ${audit.id}) f) as fixed_issues
      `.execute(db);
      return rows[0] ?? null;
    },
  };
}

export type AuditsRepo = ReturnType<typeof createAuditsRepo>;
export type AuditRow = NonNullable<Awaited<ReturnType<AuditsRepo['findForOwner']>>>;
