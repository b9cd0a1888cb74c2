/**
 * SQL for the adjudicators' reads of the requests (server/docs/adjudication.md): the open queues a
 * page at a time, the summary counts, one request with its history, the denied search, and the
 * row lock a decision holds. The requests are written by requests.ts.
 */
import type { RequestKind, RequestStatus } from '@portal/api';
import type { Queryable } from '../db/database.js';
import { escapeLikePattern } from './account-admin.js';

/** A request row as the lists show it. */
export interface RequestRowRecord {
  id: number;
  kind: RequestKind;
  accountId: number | null;
  username: string;
  email: string;
  status: RequestStatus;
  reason: string;
  details: Record<string, unknown>;
  submittedBy: string | null;
  adjudicator: string | null;
  created: Date;
  updated: Date;
  /** The account's names (kinds about an account); the request's own for a new account request. */
  firstName: string;
  lastName: string;
  /** The account's email (kinds about an account), else the request's. */
  accountEmail: string;
}

interface Row {
  id: string | number;
  kind: RequestKind;
  account_id: string | number | null;
  username: string;
  email: string;
  status: RequestStatus;
  reason: string;
  details: Record<string, unknown> | string | null;
  submitted_by: string | null;
  adjudicator: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  first_name: string | null;
  last_name: string | null;
  account_email: string | null;
}

const COLUMNS = `r.id, r.kind, r.account_id, r.username, r.email, r.status, r.reason, r.details, r.submitted_by,
       r.adjudicator, r.created_at, r.updated_at,
       coalesce(a.first_name, r.details->>'first_name') as first_name,
       coalesce(a.last_name, r.details->>'last_name') as last_name,
       coalesce(a.email, r.email) as account_email`;

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function record(row: Row): RequestRowRecord {
  const details = typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : (row.details ?? {});
  return {
    id: Number(row.id),
    kind: row.kind,
    accountId: row.account_id === null ? null : Number(row.account_id),
    username: row.username,
    email: row.email,
    status: row.status,
    reason: row.reason,
    details,
    submittedBy: row.submitted_by,
    adjudicator: row.adjudicator,
    created: date(row.created_at),
    updated: date(row.updated_at),
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    accountEmail: row.account_email ?? row.email,
  };
}

export interface Page {
  startIndex: number;
  maxResults: number;
}

/** One more row than asked for, to tell whether there are more. */
function paged(rows: Row[], page: Page): { rows: RequestRowRecord[]; hasMore: boolean } {
  return { rows: rows.slice(0, page.maxResults).map(record), hasMore: rows.length > page.maxResults };
}

/**
 * A kind's open requests (pending and incomplete; the caller narrows the statuses), oldest first.
 * The partial index requests_open_queue_idx serves the order and the page.
 */
export async function listOpenRequests(
  db: Queryable,
  kind: RequestKind,
  statuses: readonly RequestStatus[],
  page: Page,
): Promise<{ rows: RequestRowRecord[]; hasMore: boolean }> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS}
       from requests r left join accounts a on a.id = r.account_id
      where r.kind = $1 and r.status in ('pending', 'incomplete') and r.status = any($2::text[])
      order by r.created_at, r.id
      limit $3 offset $4`,
    [kind, [...statuses], page.maxResults + 1, page.startIndex],
  );
  return paged(rows, page);
}

/** Pending requests per kind (kinds without any are absent). */
export async function countPendingByKind(db: Queryable): Promise<Partial<Record<RequestKind, number>>> {
  const { rows } = await db.query<{ kind: RequestKind; count: number }>(
    "select kind, count(*)::int as count from requests where status = 'pending' group by kind",
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.count]));
}

/** A request of a kind by id; with `forUpdate`, its row locked until the transaction ends. */
export async function findRequest(db: Queryable, kind: RequestKind, id: number, forUpdate = false): Promise<RequestRowRecord | undefined> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS}
       from requests r left join accounts a on a.id = r.account_id
      where r.id = $1 and r.kind = $2${forUpdate ? ' for update of r' : ''}`,
    [id, kind],
  );
  return rows[0] ? record(rows[0]) : undefined;
}

export interface RequestUpdateRecord {
  status: RequestStatus;
  username: string;
  created: Date;
  comment: string;
}

/** A request's updates, oldest first. */
export async function findRequestUpdates(db: Queryable, requestId: number): Promise<RequestUpdateRecord[]> {
  const { rows } = await db.query<{ status: RequestStatus; username: string; created_at: Date | string; comment: string }>(
    'select status, username, created_at, comment from request_updates where request_id = $1 order by created_at, id',
    [requestId],
  );
  return rows.map((r) => ({ status: r.status, username: r.username, created: date(r.created_at), comment: r.comment }));
}

/**
 * Denied new account requests whose username, email, first or last name contains every word
 * (any letter case), newest first.
 */
export async function searchDeniedRequests(db: Queryable, words: readonly string[], page: Page): Promise<{ rows: RequestRowRecord[]; hasMore: boolean }> {
  const params: unknown[] = [];
  const conditions = words.map((word) => {
    params.push(`%${escapeLikePattern(word.toLowerCase())}%`);
    const p = `$${params.length}`;
    return `(lower(r.username) like ${p} or lower(r.email) like ${p}
             or lower(r.details->>'first_name') like ${p} or lower(r.details->>'last_name') like ${p})`;
  });
  params.push(page.maxResults + 1, page.startIndex);
  const { rows } = await db.query<Row>(
    `select ${COLUMNS}
       from requests r left join accounts a on a.id = r.account_id
      where r.kind = 'new' and r.status = 'denied' and ${conditions.join(' and ')}
      order by r.updated_at desc, r.id desc
      limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return paged(rows, page);
}

/**
 * A user group's pending membership requests (every group's without one), oldest first; the
 * partial index requests_membership_group_idx serves a group's order and page.
 */
export async function listPendingMembershipRequests(
  db: Queryable,
  userGroup: string | undefined,
  page: Page,
): Promise<{ rows: RequestRowRecord[]; hasMore: boolean }> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS}
       from requests r left join accounts a on a.id = r.account_id
      where r.kind = 'membership' and r.status = 'pending' and ($1::text is null or r.details ->> 'user_group' = $1)
      order by r.created_at, r.id
      limit $2 offset $3`,
    [userGroup ?? null, page.maxResults + 1, page.startIndex],
  );
  return paged(rows, page);
}
