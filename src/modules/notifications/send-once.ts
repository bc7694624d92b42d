import type { Mail, Mailer } from './mailer.ts';
import type { NotificationSendsRepo, SendKey } from './notification-sends.repo.ts';

/**
 * Sends a notification at most once per key, whatever the queue does: the claim is taken in the
 * database before the SMTP conversation, so a job retried after it sent (a worker that lost its
 * lease, a duplicated job, the cron run twice) finds it and sends nothing. A send that throws
 * gives the claim back and rethrows, so pg-boss retries the job and the retry sends it.
 */
export function createSendOnce(deps: { repo: NotificationSendsRepo; mailer: Pick<Mailer, 'send'> }) {
  return async function sendOnce(key: SendKey, mail: Mail): Promise<boolean> {
    const claim = await deps.repo.claim(key);
    if (claim === 'sent') return false;
    // Another attempt claimed it and has not confirmed: it may be sending now, or its worker died. Not done: the job fails
    // and pg-boss retries it later, when a dead worker's claim has gone stale (STALE_CLAIM) and this one takes it.
    if (claim === 'in_progress') throw new SendInProgress();
    try {
      await deps.mailer.send(mail);
    } catch (error) {
      await deps.repo.release(key);
      throw error;
    }
    await deps.repo.confirm(key);
    return true;
  };
}

export type SendOnce = ReturnType<typeof createSendOnce>;

/** A send another attempt holds (retried later by the job's queue). */
export class SendInProgress extends Error {
  constructor() {
    super('another attempt is sending this notification: retried once its claim is confirmed or stale');
    this.name = 'SendInProgress';
  }
}
