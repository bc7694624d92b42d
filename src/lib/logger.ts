import type { FastifyServerOptions } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import type { LogLevel } from '../config.ts';

/** Query parameters whose values are credentials or one-time codes: never logged. */
const SECRET_QUERY_NAMES = new Set([
  'access_token', 'refresh_token', 'id_token', 'token', 'code', 'state', 'password', 'secret', 'client_secret',
  'key', 'api_key', 'apikey', 'signature', 'sig', 'auth', 'authorization', 'session', 'jwt',
]);

/** Paths whose last segment is a capability (an invitation's link: whoever holds it may accept it). */
const SECRET_PATH = /(\/invitations\/)[^/?#]+/u;

/** The URL with the values of secret-named query parameters, and capability path segments, replaced. */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(SECRET_PATH, '$1[redacted]');
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url.slice(mark + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' '));
    } catch {
      // a malformed escape: judge the name as written
    }
    return eq >= 0 && SECRET_QUERY_NAMES.has(name.trim().toLowerCase()) ? `${rawName}=[redacted]` : pair;
  });
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

// Driver errors carry what a failed query was given: PGlite adds `params` (argon2 hashes,
// sealed secrets, e-mails) and PostgreSQL's `detail` may quote a row ("Failing row
// contains ...", "Key (email)=(...)"). None of it reaches a log.
const ERROR_FIELDS_DROPPED = new Set(['params', 'parameters', 'queryOptions', 'detail']);

function scrub(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, seen));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (!ERROR_FIELDS_DROPPED.has(name)) out[name] = scrub(item, seen);
  }
  return out;
}

const serializers = {
  err: (error: Error) => scrub(pino.stdSerializers.err(error)) as ReturnType<typeof pino.stdSerializers.err>,
  req: (request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/** Structured JSON logs; anything that could carry a credential is redacted. */
export function loggerOptions(level: LogLevel, pretty = Boolean(process.stdout.isTTY)): FastifyServerOptions['logger'] {
  return {
    level,
    serializers,
    // A person at a terminal reads lines; anything else (a file, a collector) gets JSON.
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refresh_token',
        '*.access_token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
}

/** The logger of a process before its Fastify instance exists (same level and redaction). */
export const startupLogger = (level: LogLevel) => pino(loggerOptions(level) as LoggerOptions);
