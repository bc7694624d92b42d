import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/client.ts';
import { pendingMigrations } from '../../db/migrate.ts';

const ReadySchema = Type.Object({
  status: Type.String({ description: 'ready or unavailable' }),
  checks: Type.Record(Type.String(), Type.String(), { description: 'Each dependency and its state' }),
});

async function check(probe: () => Promise<string>): Promise<string> {
  try {
    return await probe();
  } catch {
    return 'down';
  }
}

export async function healthRoutes(app: FastifyInstance, deps: { database: Database; redis?: Redis | undefined }) {
  app.get(
    '/live',
    { config: { public: true }, schema: { tags: ['health'], operationId: 'getLiveness', summary: 'Liveness: the process is running', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    { config: { public: true }, schema: { tags: ['health'], operationId: 'getReadiness', summary: 'Readiness: database reachable, migrations current', response: { 200: ReadySchema, 503: ReadySchema } } },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      checks.database = await check(async () => {
        await sql`select 1`.execute(deps.database.db);
        return 'up';
      });
      checks.migrations =
        checks.database === 'up'
          ? await check(async () => ((await pendingMigrations(deps.database)).length === 0 ? 'current' : 'pending'))
          : 'unknown';
      if (deps.redis) checks.redis = await check(async () => ((await deps.redis?.ping()) === 'PONG' ? 'up' : 'down'));
      const ready = checks.database === 'up' && checks.migrations === 'current' && (checks.redis ?? 'up') === 'up';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    },
  );
}
