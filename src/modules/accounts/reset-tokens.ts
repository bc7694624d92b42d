import { createHash, randomBytes } from 'node:crypto';

/** How long an e-mailed reset link works. */
export const RESET_TOKEN_MINUTES = 30;

// A recognisable prefix lets secret scanners find leaked tokens (like refresh tokens' sor_).
const PREFIX = 'sopr_';

/** A new reset token: 256 random bits. Only its hash is stored; the token goes out sealed in the mail job. */
export const newResetToken = () => PREFIX + randomBytes(32).toString('base64url');

export const hashResetToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
