/** Both drivers surface PostgreSQL's SQLSTATE as `code` and the constraint's name. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: name } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || name === constraint);
}

/** SQLSTATE 55P03: a `FOR UPDATE NOWAIT` found the row locked by another transaction. */
export function isLockNotAvailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '55P03';
}
