import { sql, type Kysely } from 'kysely';
import type { DB, NotificationSendKind } from '../../db/types.ts';

/** Which e-mail: its kind, its recipient and workspace, and what it is about (a day, an audit). */
export interface SendKey { kind: NotificationSendKind; userId: string; workspaceId: string; subjectKey: string }

/** A claim never confirmed for this long is a worker that died while sending: it may be claimed again. */
export const STALE_CLAIM = '10 minutes';

/** Claims on e-mail notifications, so each is sent once (migration 0030). */
export function createNotificationSendsRepo(db: Kysely<DB>) {
  const row = (key: SendKey) => db.selectFrom('notification_sends')
    .where('kind', '=', key.kind).where('user_id', '=', key.userId)
    .where('workspace_id', '=', key.workspaceId).where('subject_key', '=', key.subjectKey);
  return {
    /** True when this caller may send it: nobody claimed it yet, or a claim went stale unconfirmed. */
    async claim(key: SendKey): Promise<boolean> {
      const claimed = await db.insertInto('notification_sends')
        .values({ kind: key.kind, user_id: key.userId, workspace_id: key.workspaceId, subject_key: key.subjectKey })
        .onConflict((oc) => oc.columns(['kind', 'user_id', 'workspace_id', 'subject_key'])
          .doUpdateSet({ claimed_at: sql`now()` })
          .where('notification_sends.sent_at', 'is', null)
          .where('notification_sends.claimed_at', '<', sql<Date>`now() - ${STALE_CLAIM}::interval`))
        .returning('kind').executeTakeFirst();
      return claimed !== undefined;
    },

    async confirm(key: SendKey) {
      await db.updateTable('notification_sends').set({ sent_at: sql`now()` })
        .where('kind', '=', key.kind).where('user_id', '=', key.userId)
        .where('workspace_id', '=', key.workspaceId).where('subject_key', '=', key.subjectKey).execute();
    },

    /** The send failed: the claim goes, so the job's retry sends it. */
    async release(key: SendKey) {
      await db.deleteFrom('notification_sends')
        .where('kind', '=', key.kind).where('user_id', '=', key.userId)
        .where('workspace_id', '=', key.workspaceId).where('subject_key', '=', key.subjectKey)
        .where('sent_at', 'is', null).execute();
    },

    /** For tests and operations: the claim as stored. */
    find: (key: SendKey) => row(key).select(['claimed_at', 'sent_at']).executeTakeFirst(),
  };
}

export type NotificationSendsRepo = ReturnType<typeof createNotificationSendsRepo>;
