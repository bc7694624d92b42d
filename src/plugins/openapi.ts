import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PROBLEM_TYPES, type ProblemCode } from '../lib/problem.ts';
import { ProblemSchema } from '../lib/schema.ts';

/**
 * Error statuses an operation answers beyond those every operation of its kind answers
 * (see problemStatuses): the conflicts, refusals and upstream failures its service raises.
 */
const OPERATION_PROBLEMS: Record<string, number[]> = {
  createUser: [403, 409],
  listUsers: [403],
  listTaskRejections: [403],
  createSite: [409],
  updateSite: [409],
  saveConnector: [409, 502],
  getConnector: [409],
  addKeyword: [409],
  approveTask: [409],
  retryTask: [409],
  cancelTask: [409],
  rollbackTask: [409, 502],
  startGoogleConnect: [503],
  completeGoogleConnect: [400, 502, 503],
  getGoogleConnection: [503],
  disconnectGoogle: [409, 503],
  listSearchConsoleProperties: [409, 502, 503],
  startGoogleSignIn: [503],
  completeGoogleSignIn: [400, 401, 403, 502, 503],
  login: [401, 403],
  // Account lifecycle (modules/accounts): a Google-only account has no password to change (409);
  // an admin may not disable their own account (409).
  changePassword: [409],
  updateUser: [403, 409],
  refreshTokens: [401],
  // The web app's cookie session: 403 when the request is not the app's own (CSRF guard).
  createBrowserSession: [401, 403],
  refreshBrowserSession: [401, 403],
  endBrowserSession: [403],
  retryAuditAgent: [409],
};

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { anyOf?: Array<{ type?: string }> } }> };
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: unknown }>;
  'x-internal'?: boolean;
};

const REQUEST_ID = { $ref: '#/components/headers/X-Request-Id' };
const RETRY_AFTER = { $ref: '#/components/headers/Retry-After' };

/** The statuses an operation can answer with a problem document, from what it is. */
function problemStatuses(path: string, operation: Operation): number[] {
  const statuses = new Set<number>([422, 429, 500, 503]);
  const authenticated = (operation.security ?? []).length > 0;
  if (authenticated) statuses.add(401);
  const inputs = operation.parameters ?? [];
  // Another user's object, or one that does not exist, is a 404: any id in the path or a site_id.
  if (inputs.some((p) => p.in === 'path' || p.name === 'site_id') || hasBodyProperty(operation, 'site_id')) statuses.add(404);
  if (inputs.some((p) => p.in === 'path')) {
    statuses.add(400); // a malformed percent-escape in the path
    statuses.add(414);
  }
  if (operation.requestBody) {
    statuses.add(400); // a Content-Length that does not match the body
    statuses.add(413);
  }
  // Probes take no input, but a NUL in their query string is still refused.
  if (!path.startsWith('/api/')) return [422];
  for (const status of OPERATION_PROBLEMS[operation.operationId ?? ''] ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function hasBodyProperty(operation: Operation, name: string) {
  const schema = operation.requestBody?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
  return Boolean(schema?.properties?.[name]);
}

const titleOf = (status: number) => Object.values(PROBLEM_TYPES).find((t) => t.status === status)?.title ?? 'Error';
const codesOf = (status: number) => (Object.entries(PROBLEM_TYPES) as Array<[ProblemCode, { status: number }]>).filter(([, t]) => t.status === status).map(([c]) => c);

/**
 * What the generated document needs beyond the route schemas, as a client generator reads
 * it: the error statuses each operation really answers, as application/problem+json with
 * their headers; an explicit empty security on public operations; optional bodies marked
 * optional; the admin operations marked internal (not part of the public contract).
 */
export function finishDocument(document: Record<string, any>, publicUrl: string) {
  document.servers = [{ url: publicUrl, description: 'This server (PUBLIC_URL)' }];
  document.components ??= {};
  document.components.headers = {
    'X-Request-Id': { description: "The request's id (the client's own when it sent a plain token): quote it when reporting a problem", schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
  };
  document.tags = [
    { name: 'auth', description: 'Signing in and out, tokens' },
    { name: 'sites', description: 'Websites and their connectors' },
    { name: 'audits', description: 'Crawls and their findings' },
    { name: 'tasks', description: 'Agent-proposed tasks, approval, execution and rollback' },
    { name: 'verification', description: 'Whether changes are live, and rollbacks' },
    { name: 'analytics', description: 'Dashboards and trends' },
    { name: 'keywords', description: 'Tracked keywords' },
    { name: 'webhooks', description: 'A workspace\'s webhook endpoints (Standard Webhooks) and their delivery logs' },
    { name: 'integrations', description: 'Google Search Console and GA4' },
    { name: 'health', description: 'Liveness and readiness probes' },
    { name: 'internal', description: 'Admin and internal operations: not part of the public contract, may change without notice' },
  ];
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(operations)) {
      operation.security ??= [];
      if (path.startsWith('/api/v1/admin/')) {
        operation.tags = ['internal'];
        operation['x-internal'] = true;
      }
      // A body whose schema accepts null may be left out (logout).
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (operation.requestBody && body?.anyOf?.some((s) => s.type === 'null')) operation.requestBody.required = false;

      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '4XX' || status === '5XX') continue;
        responses[status] = { ...response, headers: { ...response.headers, 'X-Request-Id': REQUEST_ID } };
      }
      for (const status of problemStatuses(path, operation)) {
        if (responses[status]) continue;
        responses[status] = {
          description: `${titleOf(status)} (code: ${codesOf(status).join(' or ')})`,
          headers: { 'X-Request-Id': REQUEST_ID, ...(status === 429 || status === 503 ? { 'Retry-After': RETRY_AFTER } : {}) },
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
      }
      operation.responses = responses;
    }
  }
  return document;
}

/** OpenAPI 3.1 generated from the route schemas that also validate and serialise. */
export async function registerOpenApi(app: FastifyInstance, version: string, publicUrl = 'http://localhost:8080') {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Site Optimization Service',
        version,
        description:
          'Sites, audits, agent-proposed tasks, verification and rollback, analytics and keywords. ' +
          'Errors are RFC 9457 problem details (application/problem+json). Operations tagged `internal` ' +
          '(x-internal) are not part of the public contract.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => finishDocument(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, any>, publicUrl),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { persistAuthorization: false } });

  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
}
