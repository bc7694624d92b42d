import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Authenticated encryption of secrets at rest (AES-256-GCM from node:crypto). Each sealed
 * value is bound to a context (such as the site it belongs to) as additional data, so a
 * ciphertext copied to another row does not open.
 */
export function createSecretBox(secret: string) {
  // The configured secret may be any long string: derive a proper 256-bit key from it.
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'site-optimization secrets at rest', 32));
  return {
    seal(plaintext: string, context: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    /** Throws when the value was tampered with, sealed for another context or with another key. */
    open(sealed: string, context: string): string {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
