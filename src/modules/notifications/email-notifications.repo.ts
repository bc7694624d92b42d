import { sql, type Kysely } from 'kysely';
import type { DB, DigestFrequency } from '../../db/types.ts';

export type NotificationKind = 'digest' | 'alerts';
const DEFAULTS = { digest: 'weekly' as DigestFrequency, alerts: true };
/** The error audits.service records for a site that did not answer. */
export const UNREACHABLE_PREFIX = 'The site could not be reached';

/** Members' e-mail settings and what their messages say. A member without a row has the defaults. */
export function createEmailNotificationsRepo(db: Kysely<DB>) {
  /** Active members of a workspace with their settings (defaults filled in). */
  const members = (executor: Kysely<DB>) => executor.selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('notification_settings as n', (j) => j.onRef('n.user_id', '=', 'm.user_id').onRef('n.workspace_id', '=', 'm.workspace_id'))
    .where('u.disabled_at', 'is', null);
  const digestOf = sql<DigestFrequency>`coalesce(n.digest, ${DEFAULTS.digest})`;
  const alertsOf = sql<boolean>`coalesce(n.alerts, ${DEFAULTS.alerts})`;

  return {
    async settings(userId: string, workspaceId: string) {
      const row = await db.selectFrom('notification_settings').select(['digest', 'alerts'])
        .where('user_id', '=', userId).where('workspace_id', '=', workspaceId).executeTakeFirst();
      return row ?? DEFAULTS;
    },

    async save(userId: string, workspaceId: string, change: { digest?: DigestFrequency | undefined; alerts?: boolean | undefined }) {
      const current = await this.settings(userId, workspaceId);
      const next = { digest: change.digest ?? current.digest, alerts: change.alerts ?? current.alerts };
      await db.insertInto('notification_settings').values({ user_id: userId, workspace_id: workspaceId, ...next })
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ ...next, updated_at: sql`now()` })).execute();
      return next;
    },

    /** The member's address and settings, or undefined when they are no (active) member of the workspace. */
    recipient: (userId: string, workspaceId: string) => members(db)
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .select(['u.email', 'u.name', 'w.name as workspace_name', digestOf.as('digest'), alertsOf.as('alerts')])
      .where('m.user_id', '=', userId).where('m.workspace_id', '=', workspaceId).executeTakeFirst(),

    /** Members who chose one of these digest frequencies, in workspaces where something awaits approval. */
    digestRecipients: (frequencies: DigestFrequency[]) => members(db)
      .select(['m.user_id', 'm.workspace_id'])
      .where(digestOf, 'in', frequencies)
      .where(({ exists, selectFrom }) => exists(selectFrom('tasks').innerJoin('sites', 'sites.id', 'tasks.site_id')
        .select(sql`1`.as('one')).whereRef('sites.workspace_id', '=', 'm.workspace_id').where('tasks.status', '=', 'awaiting_approval')))
      .orderBy('m.workspace_id').execute(),

    /** Members with alerts on, read in the transaction that makes the alert true. */
    alertRecipients: (workspaceId: string, trx: Kysely<DB> = db) => members(trx)
      .select('m.user_id').where('m.workspace_id', '=', workspaceId).where(alertsOf, '=', true).execute(),

    /** The proposals awaiting approval in the workspace's sites: per site, how many and the first titles (by priority). */
    async awaiting(workspaceId: string, titlesPerSite: number) {
      const rows = await db.selectFrom('tasks').innerJoin('sites', 'sites.id', 'tasks.site_id')
        .select(['sites.id as site_id', 'sites.name as site_name', 'sites.domain', 'tasks.title',
          sql<number>`count(*) over (partition by sites.id)`.as('count'),
          sql<number>`row_number() over (partition by sites.id order by case tasks.priority when 'critical' then 0 when 'high' then 1 when 'medium' then 2 else 3 end, tasks.created_at, tasks.id)`.as('rank')])
        .where('sites.workspace_id', '=', workspaceId).where('tasks.status', '=', 'awaiting_approval')
        .execute();
      const sites = new Map<string, { id: string; name: string; domain: string; count: number; titles: string[] }>();
      for (const row of rows) {
        const site = sites.get(row.site_id) ?? { id: row.site_id, name: row.site_name, domain: row.domain, count: Number(row.count), titles: [] };
        sites.set(row.site_id, site);
        if (Number(row.rank) <= titlesPerSite) site.titles.push(row.title);
      }
      return [...sites.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    },

    /** An ended audit, its site, and the site's audit that ended before it. */
    async auditWithPrevious(auditId: string, trx: Kysely<DB> = db) {
      const audit = await trx.selectFrom('audits').innerJoin('sites', 'sites.id', 'audits.site_id')
        .select(['audits.id', 'audits.status', 'audits.error', 'audits.created_at', 'audits.site_id', 'sites.name as site_name', 'sites.domain', 'sites.workspace_id'])
        .where('audits.id', '=', auditId).executeTakeFirst();
      if (!audit) return undefined;
      const previous = await trx.selectFrom('audits').select(['id', 'status', 'error'])
        .where('site_id', '=', audit.site_id).where('id', '!=', audit.id).where('status', 'in', ['completed', 'failed'])
        .where('created_at', '<=', audit.created_at).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
      return { ...audit, previous };
    },

    /** Issues of these checks in the audit that the previous audit did not have (same check and URL). */
    newIssues: (auditId: string, previousId: string, checkIds: string[], trx: Kysely<DB> = db) => checkIds.length === 0 ? Promise.resolve([]) :
      trx.selectFrom('audit_issues as i').select(['i.check_id', 'i.url'])
        .where('i.audit_id', '=', auditId).where('i.check_id', 'in', checkIds)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('audit_issues as p').select(sql`1`.as('one'))
          .where('p.audit_id', '=', previousId).whereRef('p.check_id', '=', 'i.check_id').whereRef('p.url', '=', 'i.url'))))
        .orderBy('i.check_id').orderBy('i.url').limit(200).execute(),
  };
}

export type EmailNotificationsRepo = ReturnType<typeof createEmailNotificationsRepo>;
