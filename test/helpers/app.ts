import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createUsersRepo } from '../../src/modules/users/users.repo.ts';
import { createUsersService } from '../../src/modules/users/users.service.ts';
import type { Role, User } from '../../src/modules/users/users.schemas.ts';
import { createTestDatabase } from './database.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The real app on a database of its own; call close() in the file's after hook. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: Pick<AppOptions, 'jobTuning' | 'workJobs'> & { database?: Database; config?: Partial<Config> } = {},
): Promise<TestContext> {
  const loaded = loadConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: 'node_modules/.cache/site-optimization-tests/data',
    LOG_LEVEL: 'silent',
    // Lighthouse takes seconds a page: only the suites about Core Web Vitals turn it on.
    PAGE_SPEED_PAGES: '0',
    ...env,
  });
  // Settings no environment variable can express (a list of allowed private hosts, say).
  const config: Config = { ...loaded, ...options.config };
  // With a database given, this is a second instance on it: closing it leaves the database open.
  const database = options.database ?? (await createTestDatabase());
  const app = await buildApp({ config, database, logger: false, jobTuning: options.jobTuning, workJobs: options.workJobs });
  await app.ready();
  const close = async () => {
    await app.close();
    if (!options.database) await database.close();
  };
  return { app, database, config, close };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${++counter}-${Date.now()}@example.com`;

export interface SignedInUser extends User {
  password: string;
  accessToken: string;
  refreshToken: string;
  /** Headers for an authenticated JSON request. */
  auth: Record<string, string>;
}

/** Creates an account directly (as the CLI would) and signs it in through the API. */
export async function signUp(ctx: TestContext, options: { role?: Role; name?: string } = {}): Promise<SignedInUser> {
  const password = 'correct-horse-battery';
  const users = createUsersService({ repo: createUsersRepo(ctx.database.db) });
  const user = await users.createUser({
    email: uniqueEmail(options.role ?? 'user'),
    password,
    name: options.name ?? 'Test User',
    role: options.role ?? 'user',
  });
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed in test setup: ${res.statusCode} ${res.body}`);
  const tokens = res.json() as { access_token: string; refresh_token: string };
  return {
    ...user,
    password,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    auth: { authorization: `Bearer ${tokens.access_token}` },
  };
}

/** inject() with the response body parsed when it is JSON. */
export async function call(
  ctx: TestContext,
  options: InjectOptions & { token?: string },
): Promise<LightMyRequestResponse & { body: string; data: any }> {
  const { token, headers, ...rest } = options;
  const res = await ctx.app.inject({
    ...rest,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const type = String(res.headers['content-type'] ?? '');
  const data = type.includes('json') && res.body ? JSON.parse(res.body) : undefined;
  return Object.assign(res, { data });
}
