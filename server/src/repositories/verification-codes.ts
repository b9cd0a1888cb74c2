/**
 * SQL for the verification codes (migration 0005, table verification_codes). A code is kept only
 * as its HMAC; an address's latest code is the only one that counts (a new code replaces the
 * earlier ones). Addresses are stored lower-cased and trimmed.
 */
import type { Queryable } from '../db/database.js';

export interface VerificationCode {
  id: number;
  email: string;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
  tries: number;
  usedAt: Date | null;
}

interface CodeRow {
  id: string | number;
  email: string;
  code_hash: string;
  created_at: Date | string;
  expires_at: Date | string;
  tries: number;
  used_at: Date | string | null;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function codeOf(row: CodeRow): VerificationCode {
  return {
    id: Number(row.id),
    email: row.email,
    codeHash: row.code_hash,
    createdAt: date(row.created_at),
    expiresAt: date(row.expires_at),
    tries: Number(row.tries),
    usedAt: row.used_at === null ? null : date(row.used_at),
  };
}

/**
 * Serializes the sends and checks of one address until the transaction ends (an advisory lock
 * keyed by the address; PGlite runs one transaction at a time anyway, and accepts it too).
 */
export async function lockAddress(tx: Queryable, email: string): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtextextended('verification:' || $1, 0))", [email]);
}

/** How many codes were asked for the address since `since`. */
export async function countCodesSince(db: Queryable, email: string, since: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from verification_codes where email = $1 and created_at > $2', [email, since]);
  return Number(rows[0]?.n ?? 0);
}

export async function insertCode(db: Queryable, code: { email: string; codeHash: string; createdAt: Date; expiresAt: Date }): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    'insert into verification_codes (email, code_hash, created_at, expires_at) values ($1, $2, $3, $4) returning id',
    [code.email, code.codeHash, code.createdAt, code.expiresAt],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into verification_codes returned no id');
  return Number(id);
}

/** The address's latest code (the only valid one), locked for update when `forUpdate`. */
export async function findLatestCode(db: Queryable, email: string, forUpdate = false): Promise<VerificationCode | undefined> {
  const { rows } = await db.query<CodeRow>(
    `select id, email, code_hash, created_at, expires_at, tries, used_at from verification_codes
      where email = $1 order by created_at desc, id desc limit 1${forUpdate ? ' for update' : ''}`,
    [email],
  );
  return rows[0] ? codeOf(rows[0]) : undefined;
}

/** Counts a wrong try; returns the tries now counted. */
export async function addWrongTry(db: Queryable, id: number): Promise<number> {
  const { rows } = await db.query<{ tries: number }>('update verification_codes set tries = tries + 1 where id = $1 returning tries', [id]);
  return Number(rows[0]?.tries ?? 0);
}

/**
 * Uses a code up, if it is still usable: unused, unexpired, fewer than `maxTries` wrong tries.
 * False when it is not (e.g. a parallel call used it first).
 */
export async function useCode(db: Queryable, id: number, now: Date, maxTries: number): Promise<boolean> {
  const { rows } = await db.query(
    'update verification_codes set used_at = $2 where id = $1 and used_at is null and expires_at > $2 and tries < $3 returning id',
    [id, now, maxTries],
  );
  return rows.length > 0;
}

