/**
 * SQL for the requests a signed-in user submits about their own account (or a surrogate about
 * another's): email changes (kind 'profilechange') and authentication changes ('authchange').
 * Migration 0005 allows one pending request of each of these kinds per account
 * (requests_pending_per_account_key); see isUniqueViolation for the race.
 */
import type { Queryable } from '../db/database.js';

export type SelfRequestKind = 'profilechange' | 'authchange';

/** The partial unique index that keeps one pending request of a kind per account. */
export const PENDING_PER_ACCOUNT_INDEX = 'requests_pending_per_account_key';

export async function hasPendingRequest(db: Queryable, kind: SelfRequestKind, accountId: number): Promise<boolean> {
  const { rows } = await db.query<{ pending: boolean }>(
    "select exists(select 1 from requests where kind = $1 and account_id = $2 and status = 'pending') as pending",
    [kind, accountId],
  );
  return rows[0]?.pending === true;
}

/**
 * Whether an address (any letter case) is used by an account, by an open new account request
 * (pending or incomplete) or by a pending email change.
 */
export async function isEmailInUse(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query<{ used: boolean }>(
    `select exists(select 1 from accounts where lower(email) = lower($1))
         or exists(select 1 from requests
                    where lower(email) = lower($1)
                      and ((kind = 'new' and status in ('pending', 'incomplete'))
                        or (kind = 'profilechange' and status = 'pending'))) as used`,
    [email],
  );
  return rows[0]?.used === true;
}

export interface NewSelfRequest {
  kind: SelfRequestKind;
  accountId: number;
  username: string;
  email: string;
  reason: string;
  details: Record<string, unknown>;
  /** The surrogate's username; null when the account's owner submits. */
  submittedBy: string | null;
  at: Date;
}

/** Inserts a pending request and its first update (by whoever submitted it); returns its id. */
export async function insertSelfRequest(db: Queryable, request: NewSelfRequest, update: { username: string; comment: string }): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `insert into requests (kind, status, account_id, username, email, reason, details, submitted_by, created_at, updated_at)
     values ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $8) returning id`,
    [request.kind, request.accountId, request.username, request.email, request.reason, JSON.stringify(request.details), request.submittedBy, request.at],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into requests returned no id');
  await db.query("insert into request_updates (request_id, status, username, comment, created_at) values ($1, 'pending', $2, $3, $4)", [
    id,
    update.username,
    update.comment,
    request.at,
  ]);
  return Number(id);
}

/** Whether an error is PostgreSQL's unique violation (23505), of the named index or constraint when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  if (code !== '23505') return false;
  return constraint === undefined || violated === undefined || violated === constraint;
}
