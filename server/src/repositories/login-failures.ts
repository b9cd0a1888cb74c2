/**
 * Failed sign-ins per normalized identifier. Keys: 'account:<id>' when the identifier names an
 * account (so its username and email, in any letter case, count together), else
 * 'id:<lower-cased, trimmed identifier>'. Counted in one statement, so parallel attempts on any
 * number of server processes are each counted exactly once.
 */
import type { Queryable } from '../db/database.js';

/** The key of an account's failures. */
export function accountFailureKey(accountId: number): string {
  return `account:${accountId}`;
}

/** The key of an identifier that names no account. */
export function unknownIdentifierKey(identifier: string): string {
  return `id:${identifier.trim().toLowerCase()}`;
}

/** Adds one failure; returns the count including it. */
export async function countFailure(db: Queryable, key: string, at: Date): Promise<number> {
  const { rows } = await db.query<{ failures: number }>(
    `insert into login_failures as f (key, failures, last_failure_at) values ($1, 1, $2)
     on conflict (key) do update set failures = f.failures + 1, last_failure_at = excluded.last_failure_at
     returning f.failures`,
    [key, at],
  );
  return Number(rows[0]?.failures ?? 0);
}

export async function resetFailures(db: Queryable, key: string): Promise<void> {
  await db.query('delete from login_failures where key = $1', [key]);
}
