/**
 * SQL for requests of every kind and their update history (migration 0005: requests,
 * request_updates). A kind's own fields live in `details` (jsonb). The one repository that
 * writes these tables; the adjudicators' reads (queues, details, the denied search) are in
 * request-queue.ts.
 */
import type { RequestKind, RequestStatus } from '@portal/api';
import type { Queryable } from '../db/database.js';

/** The unique indexes of migration 0005 (the names its errors carry; see unique-violation.ts). */
export const REQUEST_UNIQUE_INDEXES = {
  openNewUsername: 'requests_open_new_username_key',
  openNewEmail: 'requests_open_new_email_key',
  pendingPerAccount: 'requests_pending_per_account_key',
} as const;

export interface NewRequest {
  kind: RequestKind;
  status: RequestStatus;
  accountId: number | null;
  username: string;
  email: string;
  reason: string;
  details: Record<string, unknown>;
  submittedBy?: string | null;
  /** Who decided it, for a request inserted already decided (a membership applied at once). */
  adjudicator?: string | null;
  createdAt: Date;
}

/** Inserts a request (created_at = updated_at); returns its id. */
export async function insertRequest(db: Queryable, request: NewRequest): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `insert into requests (kind, status, account_id, username, email, reason, details, submitted_by, adjudicator, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $10) returning id`,
    [
      request.kind,
      request.status,
      request.accountId,
      request.username,
      request.email,
      request.reason,
      JSON.stringify(request.details),
      request.submittedBy ?? null,
      request.adjudicator ?? null,
      request.createdAt,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into requests returned no id');
  return Number(id);
}

export async function insertRequestUpdate(
  db: Queryable,
  update: { requestId: number; status: RequestStatus; username: string; comment: string; createdAt: Date },
): Promise<void> {
  await db.query('insert into request_updates (request_id, status, username, comment, created_at) values ($1, $2, $3, $4, $5)', [
    update.requestId,
    update.status,
    update.username,
    update.comment,
    update.createdAt,
  ]);
}

/** Sets a request's status (and updated_at); with `from`, only when it has that status now. True when it changed. */
export async function setRequestStatus(
  db: Queryable,
  requestId: number,
  change: { status: RequestStatus; at: Date; from?: RequestStatus; adjudicator?: string },
): Promise<boolean> {
  const { rows } = await db.query(
    `update requests set status = $2, updated_at = $3, adjudicator = coalesce($5, adjudicator)
      where id = $1 and ($4::text is null or status = $4) returning id`,
    [requestId, change.status, change.at, change.from ?? null, change.adjudicator ?? null],
  );
  return rows.length > 0;
}

/** A new account request as the applicant's status check needs it. */
export interface NewAccountRequestStatus {
  id: number;
  username: string;
  email: string;
  status: RequestStatus;
  /** The last comment of someone other than the applicant ('' if none). */
  comment: string;
}

/** The latest new account request of an address (any letter case), with the last adjudicator comment. */
export async function findLatestNewRequestByEmail(db: Queryable, email: string): Promise<NewAccountRequestStatus | undefined> {
  const { rows } = await db.query<{ id: string | number; username: string; email: string; status: RequestStatus; comment: string | null }>(
    `select r.id, r.username, r.email, r.status,
            (select u.comment from request_updates u
              where u.request_id = r.id and lower(u.username) <> lower(r.username)
              order by u.created_at desc, u.id desc limit 1) as comment
       from requests r
      where r.kind = 'new' and lower(r.email) = lower($1)
      order by r.created_at desc, r.id desc limit 1`,
    [email.trim()],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { id: Number(row.id), username: row.username, email: row.email, status: row.status, comment: row.comment ?? '' };
}

/** The address's open new account request with this username (any letter case), in `status`, locked for update. */
export async function findOpenNewRequestForUpdate(
  db: Queryable,
  by: { email: string; username: string; status: RequestStatus },
): Promise<{ id: number; username: string } | undefined> {
  const { rows } = await db.query<{ id: string | number; username: string }>(
    `select id, username from requests
      where kind = 'new' and lower(email) = lower($1) and lower(username) = lower($2) and status = $3
      order by created_at desc, id desc limit 1 for update`,
    [by.email.trim(), by.username.trim(), by.status],
  );
  return rows[0] ? { id: Number(rows[0].id), username: rows[0].username } : undefined;
}

/**
 * Whether a username and an email are used by an open request: a new account request pending
 * or incomplete (username, email), or a pending email change (its new email).
 */
export async function openRequestUses(db: Queryable, by: { username: string; email: string }): Promise<{ username: boolean; email: boolean }> {
  const { rows } = await db.query<{ username: boolean; email: boolean }>(
    `select exists(select 1 from requests where kind = 'new' and status in ('pending', 'incomplete') and lower(username) = lower($1)) as username,
            exists(select 1 from requests
                    where lower(email) = lower($2)
                      and ((kind = 'new' and status in ('pending', 'incomplete')) or (kind = 'profilechange' and status = 'pending'))) as email`,
    [by.username.trim(), by.email.trim()],
  );
  return rows[0] ?? { username: false, email: false };
}

/**
 * Whether the account has a pending request of this kind. Migration 0005 allows one pending
 * request of a kind per account (REQUEST_UNIQUE_INDEXES.pendingPerAccount), which settles two
 * submissions this check let through at once.
 */
export async function hasPendingRequest(db: Queryable, accountId: number, kind: RequestKind): Promise<boolean> {
  const { rows } = await db.query<{ pending: boolean }>(
    "select exists(select 1 from requests where kind = $1 and account_id = $2 and status = 'pending') as pending",
    [kind, accountId],
  );
  return rows[0]?.pending === true;
}

/** Whether a mailing list request for the address is open (pending or incomplete). */
export async function hasOpenMailingListRequest(db: Queryable, listId: string): Promise<boolean> {
  const { rows } = await db.query(
    "select 1 from requests where kind = 'mailinglist' and status in ('pending', 'incomplete') and details ->> 'list_id' = $1",
    [listId],
  );
  return rows.length > 0;
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

/**
 * Decides the account's pending requests (of `kind`, or of every kind): the status, the
 * adjudicator and updated_at, and a request update each (the status, the adjudicator, the time,
 * the comment). A request decided meanwhile by someone else is left alone (the status is checked
 * again as the row is written). Returns the ids decided.
 */
export async function decidePendingRequests(
  db: Queryable,
  decision: { accountId: number; kind?: RequestKind; status: Extract<RequestStatus, 'approved' | 'denied'>; adjudicator: string; comment: string; at: Date },
): Promise<number[]> {
  const { rows } = await db.query<{ id: string | number }>(
    `with decided as (
       update requests set status = $3, adjudicator = $4, updated_at = $5
        where account_id = $1 and status = 'pending' and ($2::text is null or kind = $2)
        returning id)
     insert into request_updates (request_id, status, username, comment, created_at)
     select id, $3, $4, $6, $5 from decided order by id
     returning request_id as id`,
    [decision.accountId, decision.kind ?? null, decision.status, decision.adjudicator, decision.at, decision.comment],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
