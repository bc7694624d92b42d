import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { NotificationKind } from './email-notifications.repo.ts';

const KINDS: readonly NotificationKind[] = ['digest', 'alerts'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Unsubscription { userId: string; workspaceId: string; kind: NotificationKind }

/**
 * One-click unsubscribe links (RFC 8058): the token names the member, workspace and kind of
 * e-mail, with an HMAC-SHA256 under a key derived from SECRETS_KEY, so nothing is stored and
 * a link keeps working as long as the key does. It can only turn e-mail off.
 */
export function createUnsubscribeTokens(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'site-optimization unsubscribe links', 32));
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    sign(u: Unsubscription): string {
      const body = Buffer.from(`${u.userId}:${u.workspaceId}:${u.kind}`).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    /** What a token turns off, or undefined for one that was not made here (or was altered). */
    verify(token: string): Unsubscription | undefined {
      const [body, sig, extra] = token.split('.');
      if (!body || !sig || extra !== undefined) return undefined;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [userId, workspaceId, kind] = Buffer.from(body, 'base64url').toString('utf8').split(':');
      if (!userId || !workspaceId || !UUID.test(userId) || !UUID.test(workspaceId) || !KINDS.includes(kind as NotificationKind)) return undefined;
      return { userId, workspaceId, kind: kind as NotificationKind };
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
