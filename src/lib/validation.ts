import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { FieldError } from './problem.ts';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const shared: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false, // unknown properties are an error (422), never silently dropped
  strict: false,
  messages: true,
};

// Query strings and path parameters arrive as text, so they are coerced; JSON bodies are
// not: {"name": 5} is a client bug the service reports instead of guessing.
const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** AJV errors as `{ path, message }` pairs, path a JSON pointer under the request part. */
export function validationErrorsToFields(
  errors: FastifySchemaValidationError[] | ErrorObject[],
  context: string | undefined,
): FieldError[] {
  const root = `/${PART_NAMES[context ?? 'body'] ?? context}`;
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const error of errors as ErrorObject[]) {
    const field = describe(error, root);
    const key = `${field.path}\u0000${field.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push(field);
    }
  }
  return fields;
}

function describe(error: ErrorObject, root: string): FieldError {
  const at = `${root}${error.instancePath ?? ''}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${at}/${String(params.missingProperty)}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${at}/${String(params.additionalProperty)}`, message: 'is not an allowed property' };
    case 'enum':
      return { path: at, message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return { path: at, message: `must be a valid ${String(params.format)}` };
    case 'type':
      return { path: at === root ? root : at, message: `must be ${String(params.type)}` };
    default:
      return { path: at, message: error.message ?? 'is invalid' };
  }
}
