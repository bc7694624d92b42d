import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
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

export function registerErrorHandling(app: FastifyInstance) {
  // An empty body with a JSON content type means "no body" (many clients send the header
  // on every POST); anything else must be valid JSON, prototype pollution refused.
  // JSON is the only body the API takes; Fastify's text/plain parser would let plain
  // text reach validation and come back with a confusing message.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new ProblemError('validation_failed', 'The request body is not valid JSON'), undefined);
    }
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
