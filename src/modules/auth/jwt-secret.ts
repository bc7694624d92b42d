import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * JWT_SECRET when configured; otherwise a secret generated on first start and kept in
 * DATA_DIR (mode 0600), so tokens survive restarts of a single instance.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string, log: FastifyBaseLogger) {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error; // another process won the race: use its secret
  });
  log.warn({ file }, 'JWT_SECRET is not set: generated one and stored it in DATA_DIR. Set JWT_SECRET when running more than one instance.');
  return (await fs.readFile(file, 'utf8')).trim();
}
