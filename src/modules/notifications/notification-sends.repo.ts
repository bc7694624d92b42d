import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB, NotificationSendKind } from '../../db/types.ts';

/** Which e-mail: its kind, its recipient and workspace, and what it is about (a day, an audit). */
export interface SendKey { kind: NotificationSendKind; userId: string; workspaceId: string; subjectKey: string }

/**
 * A claim never confirmed for this long is a worker that died while sending: it may be claimed again. Longer than a mail
 * job may run (pg-boss expires it after 120 s; the mailer's own timeouts are under a minute), shorter than the job's
 * later retries (registry.ts: a minute, doubling), so a job that finds a live claim comes back after it went stale.
 */
export const STALE_CLAIM = '3 minutes';
/** What a claim found: this caller sends; it was sent; or another attempt, not yet stale, may be sending it now. */
export type Claim = 'claimed' | 'sent' | 'in_progress';

/** The condition naming one claim's row (for a select, an update or a delete alike). */
const byKey = (key: SendKey) => (eb: ExpressionBuilder<DB, 'notification_sends'>) =>
  eb.and({ kind: key.kind, user_id: key.userId, workspace_id: key.workspaceId, subject_key: key.subjectKey });

/** Claims on e-mail notifications, so each is sent once (migration 0030). */
export function createNotificationSendsRepo(db: Kysely<DB>) {
  const row = (key: SendKey) => db.selectFrom('notification_sends').where(byKey(key));
  return {
    /** 'claimed' when this caller may send it: nobody claimed it yet, or a claim went stale unconfirmed. */
    async claim(key: SendKey): Promise<Claim> {
      const claimed = await db.insertInto('notification_sends')
        .values({ kind: key.kind, user_id: key.userId, workspace_id: key.workspaceId, subject_key: key.subjectKey })
        .onConflict((oc) => oc.columns(['kind', 'user_id', 'workspace_id', 'subject_key'])
          .doUpdateSet({ claimed_at: sql`now()` })
          .where('notification_sends.sent_at', 'is', null)
          .where('notification_sends.claimed_at', '<', sql<Date>`now() - ${STALE_CLAIM}::interval`))
        .returning('kind').executeTakeFirst();
      if (claimed) return 'claimed';
      const held = await row(key).select('sent_at').executeTakeFirst();
      return held?.sent_at ? 'sent' : 'in_progress';
    },

    async confirm(key: SendKey) {
      await db.updateTable('notification_sends').set({ sent_at: sql`now()` }).where(byKey(key)).execute();
    },

    /** The send failed: the claim goes, so the job's retry sends it. */
    async release(key: SendKey) {
      await db.deleteFrom('notification_sends').where(byKey(key)).where('sent_at', 'is', null).execute();
    },

    /** For tests and operations: the claim as stored. */
    find: (key: SendKey) => row(key).select(['claimed_at', 'sent_at']).executeTakeFirst(),
  };
}

export type NotificationSendsRepo = ReturnType<typeof createNotificationSendsRepo>;
