/** A unique index refusing a row, as PostgreSQL and PGlite report it (e.g. two parallel submissions, one of them refused). */

/** PostgreSQL's unique_violation. */
export const UNIQUE_VIOLATION = '23505';

/** Whether an error is a unique violation (of the named index or constraint, when given), on PostgreSQL and PGlite alike. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  return code === UNIQUE_VIOLATION && (constraint === undefined || violated === constraint);
}
