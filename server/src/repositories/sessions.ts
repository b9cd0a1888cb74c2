/** SQL for sessions. Only the SHA-256 of a session id is ever stored or looked up. */
import type { Queryable } from '../db/database.js';

export interface SessionRecord {
  idHash: string;
  accountId: number | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The signed-in account, with its state, roles and certification dates (null for an anonymous session). */
  account: {
    id: number;
    username: string;
    active: boolean;
    closed: boolean;
    roles: string[];
    /** When the account last certified (renewal); null: never. */
    lastCertified: Date | null;
    createdAt: Date;
  } | null;
}

/** A row of SESSION_COLUMNS. */
export interface SessionRow {
  id_hash: string;
  account_id: string | number | null;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  username: string | null;
  active: boolean | null;
  closed: boolean | null;
  /** Absent when the statement read SESSION_STATE_COLUMNS alone. */
  roles?: string[] | null;
  last_certified: Date | string | null;
  account_created_at: Date | string | null;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export async function insertSession(
  db: Queryable,
  session: { idHash: string; accountId: number | null; now: Date; lastSeenAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at) values ($1, $2, $3, $4, $5)',
    [session.idHash, session.accountId, session.now, session.lastSeenAt, session.expiresAt],
  );
}

/**
 * The session and its account's state and certification dates, without the account's roles: for
 * a statement that decides by the account's state alone (forward auth; its record has no role).
 */
export const SESSION_STATE_COLUMNS = `s.id_hash, s.account_id, s.created_at, s.last_seen_at, s.expires_at,
            a.username, a.active, a.closed, a.last_certified, a.created_at as account_created_at`;

/**
 * The columns of a session record (SessionRow), for a statement that reads `sessions s left join
 * accounts a on a.id = s.account_id`: the session, its account (with its certification dates) and
 * the account's roles.
 */
export const SESSION_COLUMNS = `${SESSION_STATE_COLUMNS},
            case when a.id is null then null
                 else array(select r.role from account_roles r where r.account_id = a.id order by r.role) end as roles`;

/** One query: the session, its account (with its certification dates) and the account's roles. */
export async function findSession(db: Queryable, idHash: string): Promise<SessionRecord | undefined> {
  const { rows } = await db.query<SessionRow>(
    `select ${SESSION_COLUMNS}
       from sessions s left join accounts a on a.id = s.account_id
      where s.id_hash = $1`,
    [idHash],
    // Every request looks its session up: prepared once, planned once (db/pglite.ts, db/postgres.ts).
    { prepare: 'portal_find_session' },
  );
  const row = rows[0];
  return row ? sessionRecordOf(row) : undefined;
}

/** A row of SESSION_COLUMNS as a session record. */
export function sessionRecordOf(row: SessionRow): SessionRecord {
  const accountId = row.account_id === null ? null : Number(row.account_id);
  return {
    idHash: row.id_hash,
    accountId,
    createdAt: date(row.created_at),
    lastSeenAt: date(row.last_seen_at),
    expiresAt: date(row.expires_at),
    account:
      accountId === null || row.username === null
        ? null
        : {
            id: accountId,
            username: row.username,
            active: row.active === true,
            closed: row.closed === true,
            roles: row.roles ?? [],
            lastCertified: row.last_certified === null ? null : date(row.last_certified),
            createdAt: date(row.account_created_at ?? row.created_at),
          },
  };
}

/**
 * Records a use (last_seen_at only ever moves forward, whichever server writes last).
 * `appliedByCaller`: the caller applies the mark to the session it keeps in memory itself
 * (services/session-cache.ts), so the write does not drop other kept reads.
 */
export async function touchSession(db: Queryable, idHash: string, lastSeenAt: Date, appliedByCaller = false): Promise<void> {
  await db.query('update sessions set last_seen_at = $2 where id_hash = $1 and last_seen_at < $2', [idHash, lastSeenAt], { appliedByCaller });
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('delete from sessions where id_hash = $1', [idHash]);
}

export async function deleteAccountSessions(db: Queryable, accountId: number): Promise<number> {
  const { rows } = await db.query('delete from sessions where account_id = $1 returning id_hash', [accountId]);
  return rows.length;
}

/** Deletes the sessions past their absolute expiry or idle longer than allowed. */
export async function purgeExpiredSessions(db: Queryable, now: Date, idleSince: Date): Promise<void> {
  await db.query('delete from sessions where expires_at <= $1 or last_seen_at <= $2', [now, idleSince]);
}
