import { sql, type Kysely } from 'kysely';
import type { DB, ReportFrequency } from '../../db/types.ts';

export interface ScheduleValues {
  frequency: ReportFrequency;
  compare: 'previous' | 'year';
  recipients: string[];
  senderId: string;
}

/**
 * Report schedules (migration 0036). Reads and writes by a site id the caller has checked (the
 * sites service's getSite), except the hourly run's, which reads them all and queues what is due.
 */
export function createReportSchedulesRepo(db: Kysely<DB>) {
  const withSender = (trx: Kysely<DB>) => trx.selectFrom('report_schedules as r')
    .innerJoin('users as u', 'u.id', 'r.sender_id')
    .innerJoin('sites as s', 's.id', 'r.site_id')
    .select(['r.site_id', 'r.frequency', 'r.compare', 'r.recipients', 'r.sender_id', 'r.last_sent_period', 'r.last_error', 'r.updated_at',
      'u.email as sender_email', 's.workspace_id']);

  return {
    find: (siteId: string, trx: Kysely<DB> = db) => withSender(trx).where('r.site_id', '=', siteId).executeTakeFirst(),

    /** Creates or replaces the site's schedule; a new one starts after `firstAfter` (the period before its first). */
    async save(siteId: string, values: ScheduleValues, firstAfter: string) {
      await db.insertInto('report_schedules')
        .values({ site_id: siteId, frequency: values.frequency, compare: values.compare, recipients: values.recipients, sender_id: values.senderId, last_sent_period: firstAfter })
        .onConflict((oc) => oc.column('site_id').doUpdateSet((eb) => ({
          frequency: eb.ref('excluded.frequency'), compare: eb.ref('excluded.compare'), recipients: eb.ref('excluded.recipients'),
          sender_id: eb.ref('excluded.sender_id'), updated_at: sql`now()`, last_error: null,
          // A change of frequency restarts the count from now (a weekly period is no monthly one).
          last_sent_period: sql`case when report_schedules.frequency = excluded.frequency then report_schedules.last_sent_period else excluded.last_sent_period end`,
        })))
        .execute();
    },

    remove: async (siteId: string) => (await db.deleteFrom('report_schedules').where('site_id', '=', siteId).executeTakeFirst()).numDeletedRows > 0n,

    /** Every schedule with the period it last queued (the hourly run compares it with the period now due). */
    all: () => db.selectFrom('report_schedules').select(['site_id', 'frequency', 'last_sent_period']).execute(),

    /**
     * Marks `period` queued unless it already was: true for the one caller that moved it (two runs at once queue it once).
     * Only forward: a period key sorts by its start date, so a run with a stale clock cannot send an old period again.
     */
    async markQueued(siteId: string, frequency: ReportFrequency, period: string, trx: Kysely<DB>) {
      const moved = await trx.updateTable('report_schedules').set({ last_sent_period: period })
        .where('site_id', '=', siteId)
        .where('frequency', '=', frequency) // changed meanwhile: that period is no period of this schedule
        .where((eb) => eb.or([eb('last_sent_period', 'is', null), eb('last_sent_period', '<', period)]))
        .executeTakeFirst();
      return moved.numUpdatedRows > 0n;
    },

    /** A scheduled period that was not sent: the next hourly run queues it again (unless the schedule moved on or changed). */
    async requeue(siteId: string, period: string, previous: string, error: string) {
      await db.updateTable('report_schedules').set({ last_sent_period: previous, last_error: error })
        .where('site_id', '=', siteId).where('last_sent_period', '=', period).execute();
    },

    /** Why the last delivery sent nothing (null: it was sent). */
    async setLastError(siteId: string, error: string | null) {
      await db.updateTable('report_schedules').set({ last_error: error }).where('site_id', '=', siteId).execute();
    },
  };
}

export type ReportSchedulesRepo = ReturnType<typeof createReportSchedulesRepo>;
