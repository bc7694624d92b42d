import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import { isDatabaseUnavailable } from '../db/client.ts';
import {
  PROBLEM_TYPES,
  ProblemError,
  toProblemBody,
  type FieldError,
  type ProblemCode,
} from '../lib/problem.ts';
import { validationErrorsToFields } from '../lib/validation.ts';

const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Fastify's own errors that the contract answers differently from Fastify's default. */
const FASTIFY_CODES: Record<string, { code: ProblemCode; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'validation_failed',
    detail: 'Request bodies must be JSON sent with Content-Type: application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'Request bodies are limited to 1 MiB' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad_request', detail: 'Content-Length does not match the body' },
};

function codeForStatus(status: number): ProblemCode {
  const entry = Object.entries(PROBLEM_TYPES).find(([, type]) => type.status === status);
  return (entry?.[0] as ProblemCode | undefined) ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  errors?: FieldError[],
) {
  const body = toProblemBody(code, detail, request.url.split('?')[0] ?? '/', errors);
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** PostgreSQL refuses U+0000 in text; the first string (or key) carrying one, as a JSON pointer. */
export function findNul(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const path = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.includes('\u0000')) return path;
    const found = findNul(item, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

const nulRefused = (path: string) =>
  new ProblemError('validation_failed', `${path} must not contain NUL (\\u0000) characters`, {
    errors: [{ path, message: 'must not contain NUL (\\u0000) characters' }],
  });

export const PATH_SEGMENT_TOO_LONG = 'A path segment is longer than any identifier this API uses';

/**
 * Errors Fastify raises before a request reaches the router (a malformed percent-escape, a
 * path parameter over maxParamLength) and errors Node's HTTP parser raises before Fastify
 * sees a request (oversized headers) answer as problem documents with an X-Request-Id too.
 */
export const problemServerOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors: (error, request, reply) => {
    reply.header('x-request-id', request.id);
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    return sendProblem(
      request,
      reply,
      tooLong ? 'uri_too_long' : 'bad_request',
      tooLong ? PATH_SEGMENT_TOO_LONG : 'The request URL is not valid (a malformed percent-escape?)',
    );
  },
  clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [code, detail]: [ProblemCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW' ? ['header_fields_too_large', 'The request headers are larger than this server accepts']
      : error.code === 'HPE_URI_TOO_LONG' ? ['uri_too_long', 'The request URL is longer than this server accepts']
      : ['bad_request', 'The request is not valid HTTP'];
    const body = JSON.stringify(toProblemBody(code, detail, '/'));
    const status = PROBLEM_TYPES[code].status;
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
};

export function registerErrorHandling(app: FastifyInstance) {
  // An empty body with a JSON content type means "no body" (many clients send the header
  // on every POST); anything else must be valid JSON, prototype pollution refused.
  // JSON is the only body the API takes; Fastify's text/plain parser would let plain
  // text reach validation and come back with a confusing message.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(new ProblemError('validation_failed', 'The request body is not valid JSON'), undefined);
    }
    // One place for every body, public routes included: a NUL would reach PostgreSQL (a 500).
    const nulAt = text.includes('\\u0000') ? findNul(parsed) : undefined;
    if (nulAt !== undefined) return done(nulRefused(`/body${nulAt}`), undefined);
    done(null, parsed);
  });

  // The same for the URL (path and query) of every request, before routing and authentication.
  app.addHook('onRequest', async (request) => {
    const mark = request.url.indexOf('?');
    if (mark >= 0 && /%00/i.test(request.url.slice(mark))) throw nulRefused('/query');
    if (/%00/i.test(mark >= 0 ? request.url.slice(0, mark) : request.url)) throw nulRefused('/path');
  });

  app.setErrorHandler((error: FastifyError | ProblemError, request, reply) => {
    if (error instanceof ProblemError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendProblem(request, reply, error.code, error.message, error.errors);
    }
    if (error.validation) {
      const errors = validationErrorsToFields(error.validation, error.validationContext);
      const detail = errors.map((e) => `${e.path} ${e.message}`).join('; ');
      return sendProblem(request, reply, 'validation_failed', detail, errors);
    }
    const known = FASTIFY_CODES[error.code];
    if (known) return sendProblem(request, reply, known.code, known.detail);
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: { message: error.message, code: error.code } }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendProblem(request, reply, 'service_unavailable', 'The database is unavailable; try again shortly');
    }

    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // Never a stack trace, SQL text or internal name to the client.
      return sendProblem(request, reply, 'internal_error', 'The server could not complete the request');
    }
    return sendProblem(request, reply, codeForStatus(status), error.message);
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}
