import { createHash, randomBytes } from 'node:crypto';

// A recognisable prefix lets secret scanners find leaked tokens.
const PREFIX = 'sor_';

/** A new opaque refresh token: 256 random bits. Only its hash is ever stored. */
export const newRefreshToken = () => PREFIX + randomBytes(32).toString('base64url');

export const hashRefreshToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
