/**
 * RFC 9457 problem details. Every error the service sends is one of these codes; the
 * table below is the only place that maps a code to its HTTP status and title.
 */
export const PROBLEM_TYPES = {
  bad_request: { status: 400, title: 'Bad request' },
  validation_failed: { status: 422, title: 'Validation failed' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  /** A refresh token another request is rotating at this moment: its successor, once that request has it, works. */
  refresh_in_progress: { status: 401, title: 'Refresh in progress' },
  forbidden: { status: 403, title: 'Forbidden' },
  /** The right password for an account an admin has disabled (a wrong one is 401 like any other). */
  account_disabled: { status: 403, title: 'Account disabled' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  rate_limited: { status: 429, title: 'Too many requests' },
  header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  bad_gateway: { status: 502, title: 'Bad gateway' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_TYPES;

export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  errors?: FieldError[];
}

export const problemTypeUri = (code: ProblemCode) => `urn:site-optimization:problem:${code}`;

export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail: string, extra: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(detail, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.status = PROBLEM_TYPES[code].status;
    this.errors = extra.errors;
    this.headers = extra.headers ?? {};
  }
}

export function toProblemBody(code: ProblemCode, detail: string, instance: string, errors?: FieldError[]): ProblemBody {
  return {
    type: problemTypeUri(code),
    title: PROBLEM_TYPES[code].title,
    status: PROBLEM_TYPES[code].status,
    detail,
    instance,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export const notFound = (what: string) => new ProblemError('not_found', `${what} not found`);
export const conflict = (detail: string) => new ProblemError('conflict', detail);
export const unauthorized = (detail: string) => new ProblemError('unauthorized', detail);
export const forbidden = (detail: string) => new ProblemError('forbidden', detail);
export const invalid = (path: string, message: string) =>
  new ProblemError('validation_failed', `${path}: ${message}`, { errors: [{ path, message }] });
