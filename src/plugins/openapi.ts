import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ProblemSchema } from '../lib/schema.ts';

/** OpenAPI 3.1 generated from the route schemas that also validate and serialise. */
export async function registerOpenApi(app: FastifyInstance, version: string) {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Site Optimization Service',
        version,
        description:
          'Sites, audits, agent-proposed tasks, verification and rollback, analytics and keywords. ' +
          'Errors are RFC 9457 problem details (application/problem+json).',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { persistAuthorization: false } });

  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());

  // Every API route documents the problem body for its errors.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.schema?.hide) return;
    route.schema = {
      ...route.schema,
      response: { ...(route.schema?.response as object), '4XX': { $ref: 'Problem#' }, '5XX': { $ref: 'Problem#' } },
    };
  });
}
