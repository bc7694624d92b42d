import { Type, type TSchema } from 'typebox';

/** A string enum as `{ type: string, enum }`, which gives one clear error instead of an anyOf cascade. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * A display name (a person's, a workspace's, a site's): not blank, no control characters. Names are written into e-mails
 * others receive, where a line break would start a line of the writer's.
 */
export const DisplayName = (description = 'Display name') =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001F\\u007F]*$', description });

export const Uuid = (options: Record<string, unknown> = {}) => Type.String({ format: 'uuid', ...options });

export const Timestamp = (description?: string) =>
  Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The RFC 9457 body every error response carries (documented once, referenced by every route). */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);
