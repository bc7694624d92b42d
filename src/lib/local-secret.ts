import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A secret from configuration when set; otherwise one generated on first start and kept
 * in DATA_DIR (mode 0600), so a single instance keeps it across restarts. Several
 * instances must share the configured value.
 */
export async function resolveLocalSecret(options: {
  configured: string | undefined;
  dataDir: string;
  file: string;
  envName: string;
  log: FastifyBaseLogger;
}): Promise<string> {
  if (options.configured) return options.configured;
  const file = path.join(options.dataDir, options.file);
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(options.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error; // another process won the race: use its secret
  });
  options.log.warn({ file }, `${options.envName} is not set: generated one and stored it in DATA_DIR. Set ${options.envName} when running more than one instance.`);
  return (await fs.readFile(file, 'utf8')).trim();
}
