// Property-based fuzzing over the OpenAPI document: every operation, with values drawn from
// its own schemas, their boundaries and plain junk, signed in (as the owner, another user,
// an admin) or not, Google configured (against its local stand-in). Fixed seed, so a
// failure replays. Nothing may answer 5xx, every error is a problem document, and every
// status is one the document declares for the operation.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from './helpers/app.ts';
import { startGoogleServer, type GoogleServer } from './helpers/google-server.ts';
import { signClaims } from './helpers/tokens.ts';

const SEED = 20_261_123;
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let admin: SignedInUser;
let document: any;
let google: GoogleServer;
const ids: Record<string, string[]> = {};

before(async () => {
  // No rate limits: the point is to reach the handlers, not to be told to slow down.
  google = await startGoogleServer();
  ctx = await startTestApp({ ...google.env, RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0' }, { workJobs: false });
  [owner, other, admin] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx, { role: 'admin' })]);
  const db = ctx.database.db;
  const site = async (user: SignedInUser, domain: string) =>
    (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Fuzz', domain } })).data.id as string;
  const [mine, theirs] = [await site(owner, 'fuzz-owner.example.org'), await site(other, 'fuzz-other.example.org')];
  const task = async (siteId: string, status: 'awaiting_approval' | 'completed') => (await db.insertInto('tasks').values({
    site_id: siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', status, title: 'T', description: 'D',
    target: `https://fuzz.example.org/${randomUUID()}`, configuration: '{}', evidence: '[]', deliverables: '[]',
  }).returning('id').executeTakeFirstOrThrow()).id;
  const audit = async (siteId: string) => (await db.insertInto('audits').values({ site_id: siteId, status: 'completed', max_pages: 5, pages_by_status: '{}', score: 80 })
    .returning('id').executeTakeFirstOrThrow()).id;
  const keyword = async (siteId: string) => (await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: siteId === mine ? owner.accessToken : other.accessToken, payload: { site_id: siteId, keyword: `kw ${randomUUID()}` } })).data.id as string;
  ids.site_id = [mine, theirs];
  ids.task_id = [await task(mine, 'awaiting_approval'), await task(mine, 'completed'), await task(theirs, 'awaiting_approval')];
  ids.audit_id = [await audit(mine), await audit(theirs)];
  ids.keyword_id = [await keyword(mine), await keyword(theirs)];
  ids.check_id = ['page_4xx', 'title_missing'];
  document = (await call(ctx, { method: 'GET', url: '/api/v1/openapi.json' })).data;
});
after(async () => {
  await ctx.close();
  await google.close();
});

// Values at and around the edges, and junk no schema allows.
const junkString = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '%00', '%zz', '..', '../../etc/passwd', "' or 1=1 --", '<script>', '{}', '[]', 'null', 'NaN', 'Infinity', '-1', '1e20', 'é', '🌱', 'x'.repeat(300)),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
// Past 32, 53 and 64 bits (an offset of page × page_size overflows PostgreSQL's bigint), fractions, signs.
const junkNumber = fc.constantFrom(0, -1, 1.5, 1_000_001, 2 ** 31, 2 ** 53, 9.3e18, 2 ** 63, 1e19, 1e20, 1e300, -1e20);
const anyJson = fc.jsonValue({ maxDepth: 2 });

function fromSchema(schema: any, name = ''): fc.Arbitrary<unknown> {
  if (!schema) return anyJson;
  if (schema.$ref) return anyJson;
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s: any) => fromSchema(s, name)));
  if (ids[name]) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ids[name]!) }, { weight: 1, arbitrary: fc.uuid() }, { weight: 1, arbitrary: junkString });
  if (schema.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: junkString });
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const edges = [schema.minimum, schema.maximum, schema.minimum - 1, schema.maximum + 1].filter((v) => Number.isFinite(v));
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }), ...(edges.length ? [fc.constantFrom(...edges)] : []), { weight: 2, arbitrary: junkNumber }, { weight: 1, arbitrary: junkString });
    }
    case 'boolean':
      return fc.oneof(fc.boolean(), junkString);
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.oneof(fc.array(fromSchema(schema.items), { maxLength: 3 }), anyJson);
    case 'object': {
      const properties = Object.entries((schema.properties ?? {}) as Record<string, any>);
      const record = Object.fromEntries(properties.map(([key, value]) => [key, fromSchema(value, key)]));
      return fc.oneof(
        { weight: 5, arbitrary: fc.record(record, { requiredKeys: (schema.required ?? []).filter((k: string) => k in record) }) },
        { weight: 1, arbitrary: fc.record(record) },
        { weight: 1, arbitrary: fc.record({ ...record, unexpected: anyJson }) },
        { weight: 1, arbitrary: anyJson },
      );
    }
    default: {
      const valid = schema.format === 'uuid' ? fc.uuid()
        : schema.format === 'email' ? fc.emailAddress()
        : schema.format === 'uri' ? fc.webUrl()
        : schema.format === 'date' ? fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
        : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60) });
      // PostgreSQL refuses NUL in text: a valid-looking value with one must still be a 422.
      return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: junkString }, { weight: 1, arbitrary: valid.map((v) => `${v}\u0000`) });
    }
  }
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');
const encode = (value: unknown) => {
  const text = asText(value);
  // A few raw, unencoded strings on purpose: the server must cope with what arrives.
  return /^[%\w.-]*$/.test(text) ? text : encodeURIComponent(text);
};

type Actor = 'owner' | 'other' | 'admin' | 'none' | 'junk';
function tokenFor(actor: Actor): Promise<string | undefined> | string | undefined {
  if (actor === 'none') return undefined;
  if (actor === 'junk') return 'eyJhbGciOiJIUzI1NiJ9.e30.junk';
  // A fresh session per request: a fuzzed logout ends only its own.
  const user = { owner, other, admin }[actor];
  return signClaims({ sub: user.id });
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it(`answers ${RUNS} generated requests with no 5xx, problem documents for errors, and only declared statuses`, async (t) => {
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
    assert.ok(operations.length >= 39, `${operations.length} operations`);

    const request = fc.constantFrom(...operations).chain(({ path, method, op }) => {
      const parameters = (op.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema: any }>;
      const pathParams = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, fromSchema(p.schema, p.name)])));
      // Known parameters, each present or not; now and then one no schema knows.
      const query = fc.tuple(
        fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, fromSchema(p.schema, p.name)])), { requiredKeys: [] }),
        fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: junkString }),
      ).map(([known, unexpected]) => (unexpected === null ? known : { ...known, unexpected }));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const body = bodySchema ? fc.option(fromSchema(bodySchema), { freq: 8 }) : fc.constant(null);
      const actor = fc.constantFrom<Actor>('owner', 'owner', 'other', 'admin', 'none', 'junk');
      return fc.record({ path: fc.constant(path), method: fc.constant(method), op: fc.constant(op), pathParams, query, body, actor });
    });

    const seen = new Map<number, number>();
    const undeclared: string[] = [];
    let count = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ path, method, op, pathParams, query, body, actor }) => {
        const url = path.replace(/\{(\w+)\}/g, (_, name) => encode((pathParams as Record<string, unknown>)[name]))
          + '?' + Object.entries(query).map(([k, v]) => `${k}=${encode(v)}`).join('&');
        const token = await tokenFor(actor);
        const res = await call(ctx, {
          method: method as 'GET', url, ...(token ? { token } : {}),
          ...(body !== null && body !== undefined ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
        });
        count++;
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        const label = `${method} ${url} as ${actor} ${JSON.stringify(body)?.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
        assert.ok(res.statusCode < 500, label);
        if (res.statusCode >= 400 && path !== '/ready') assert.match(String(res.headers['content-type']), /^application\/problem\+json/, label);
        if (!(String(res.statusCode) in op.responses)) undeclared.push(`${op.operationId}: ${res.statusCode}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const statuses = [...seen.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    t.diagnostic(`fuzz: ${count} requests over ${operations.length} operations, seed ${SEED}; statuses ${statuses}`);
    console.log(`fuzz: ${count} requests over ${operations.length} operations, seed ${SEED}; statuses ${statuses}`);
    assert.deepEqual([...new Set(undeclared)], [], 'every status is declared in the document');
    assert.ok(![...seen.keys()].some((s) => s >= 500), 'no 5xx');
    for (const status of [200, 401, 404, 422]) assert.ok(seen.has(status), `the run reached ${status}`);
  });
});
