/**
 * SQL for access tokens and service credentials (migration 0008). A token's secret is never
 * here: the embedded issuer's tokens are found by the SHA-256 of theirs.
 */
import type { Queryable } from '../db/database.js';

export type IssuerName = 'embedded' | 'artifactory';

export interface NewToken {
  id: string;
  accountId: number;
  description: string;
  scopes: readonly string[];
  issuer: IssuerName;
  secretHash: string | null;
  issuedAt: Date;
  expiresAt: Date | null;
  revocable: boolean;
}

export interface TokenRecord {
  id: string;
  accountId: number;
  description: string;
  scopes: string[];
  issuer: IssuerName;
  issuedAt: Date;
  expiresAt: Date | null;
  revocable: boolean;
  revokedAt: Date | null;
}

interface TokenRow {
  id: string;
  account_id: number | string;
  description: string;
  scopes: string[];
  issuer: IssuerName;
  issued_at: Date | string;
  expires_at: Date | string | null;
  revocable: boolean;
  revoked_at: Date | string | null;
}

const TOKEN_COLUMNS = 'id, account_id, description, scopes, issuer, issued_at, expires_at, revocable, revoked_at';
const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function tokenRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    accountId: Number(row.account_id),
    description: row.description,
    scopes: row.scopes,
    issuer: row.issuer,
    issuedAt: date(row.issued_at),
    expiresAt: row.expires_at === null ? null : date(row.expires_at),
    revocable: row.revocable,
    revokedAt: row.revoked_at === null ? null : date(row.revoked_at),
  };
}

export async function insertToken(db: Queryable, token: NewToken): Promise<void> {
  await db.query(
    `insert into access_tokens (id, account_id, description, scopes, issuer, secret_hash, issued_at, expires_at, revocable, issuer_revoked_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, null)`,
    [token.id, token.accountId, token.description, token.scopes, token.issuer, token.secretHash, token.issuedAt, token.expiresAt, token.revocable],
  );
}

/** An account's tokens not revoked, newest first (expired ones included). */
export async function listLiveTokens(db: Queryable, accountId: number): Promise<TokenRecord[]> {
  const { rows } = await db.query<TokenRow>(
    `select ${TOKEN_COLUMNS} from access_tokens where account_id = $1 and revoked_at is null order by issued_at desc, id`,
    [accountId],
  );
  return rows.map(tokenRecord);
}

/** One of an account's tokens, not revoked, locked for the change. */
export async function findLiveTokenForUpdate(db: Queryable, accountId: number, id: string): Promise<TokenRecord | undefined> {
  const { rows } = await db.query<TokenRow>(
    `select ${TOKEN_COLUMNS} from access_tokens where id = $1 and account_id = $2 and revoked_at is null for update`,
    [id, accountId],
  );
  return rows[0] ? tokenRecord(rows[0]) : undefined;
}

/** Marks tokens revoked; the embedded issuer's are confirmed at once. Returns the ids revoked. */
export async function markRevoked(db: Queryable, ids: readonly string[], by: string, at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `update access_tokens
        set revoked_at = $2, revoked_by = $3, issuer_revoked_at = case when issuer = 'embedded' then $2::timestamptz end
      where id = any($1::text[]) and revoked_at is null
      returning id`,
    [ids, at, by],
  );
  return rows.map((r) => r.id);
}

/** Revokes every live token of an account (lock, close); returns them as they were. */
export async function revokeAccountTokens(db: Queryable, accountId: number, by: string, at: Date): Promise<TokenRecord[]> {
  const { rows } = await db.query<TokenRow>(
    `update access_tokens
        set revoked_at = $2, revoked_by = $3, issuer_revoked_at = case when issuer = 'embedded' then $2::timestamptz end
      where account_id = $1 and revoked_at is null
      returning ${TOKEN_COLUMNS}`,
    [accountId, at, by],
  );
  return rows.map(tokenRecord);
}

/** Revocations the issuer has not confirmed yet, oldest first. */
export async function listUnconfirmedRevocations(db: Queryable, limit: number): Promise<TokenRecord[]> {
  const { rows } = await db.query<TokenRow>(
    `select ${TOKEN_COLUMNS} from access_tokens where revoked_at is not null and issuer_revoked_at is null order by revoked_at limit $1`,
    [limit],
  );
  return rows.map(tokenRecord);
}

export async function confirmRevocation(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('update access_tokens set issuer_revoked_at = $2 where id = $1 and issuer_revoked_at is null', [id, at]);
}

/** What introspection needs of an embedded token and its account, found by the secret's hash. */
export interface IntrospectedToken extends TokenRecord {
  username: string;
  accountActive: boolean;
  accountClosed: boolean;
  lastCertified: Date | null;
  accountCreatedAt: Date;
}

export async function findTokenBySecretHash(db: Queryable, secretHash: string): Promise<IntrospectedToken | undefined> {
  const { rows } = await db.query<
    TokenRow & { username: string; active: boolean; closed: boolean; last_certified: Date | string | null; created_at: Date | string }
  >(
    `select t.id, t.account_id, t.description, t.scopes, t.issuer, t.issued_at, t.expires_at, t.revocable, t.revoked_at,
            a.username, a.active, a.closed, a.last_certified, a.created_at
       from access_tokens t join accounts a on a.id = t.account_id
      where t.secret_hash = $1`,
    [secretHash],
    // Every introspection looks its token up: prepared once, planned once (db/pglite.ts, db/postgres.ts).
    { prepare: 'portal_token_by_secret' },
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...tokenRecord(row),
    username: row.username,
    accountActive: row.active,
    accountClosed: row.closed,
    lastCertified: row.last_certified === null ? null : date(row.last_certified),
    accountCreatedAt: date(row.created_at),
  };
}

/**
 * Live tokens expiring before `before` whose owner has not been told yet (and issued for longer
 * than the notice period), with the owner's address; marked told.
 */
export async function claimExpiryNotices(
  db: Queryable,
  now: Date,
  before: Date,
  limit: number,
): Promise<{ id: string; description: string; expiresAt: Date; username: string; email: string }[]> {
  const { rows } = await db.query<{ id: string; description: string; expires_at: Date | string; username: string; email: string }>(
    `with due as (
       select t.id from access_tokens t
        where t.revoked_at is null and t.expiry_notice_at is null and t.expires_at > $1 and t.expires_at <= $2
          -- a token issued for less than the notice period is never told about: its owner chose it
          and t.expires_at - t.issued_at > ($2::timestamptz - $1::timestamptz)
        order by t.expires_at
        limit $3
        for update skip locked
     )
     update access_tokens t set expiry_notice_at = $1
       from due, accounts a
      where t.id = due.id and a.id = t.account_id and a.active and not a.closed
      returning t.id, t.description, t.expires_at, a.username, a.email`,
    [now, before, limit],
  );
  return rows.map((r) => ({ id: r.id, description: r.description, expiresAt: date(r.expires_at), username: r.username, email: r.email }));
}

// Service credentials -------------------------------------------------------------------------

export async function findServiceSecretHash(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ secret_hash: string }>('select secret_hash from service_credentials where name = $1', [name], {
    prepare: 'portal_service_secret',
  });
  return rows[0]?.secret_hash;
}

/** Creates the credential; false when the name is taken. */
export async function insertServiceCredential(db: Queryable, name: string, secretHash: string, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    'insert into service_credentials (name, secret_hash, created_at) values ($1, $2, $3) on conflict (name) do nothing returning name',
    [name, secretHash, at],
  );
  return rows.length === 1;
}

/** Replaces the secret; false when there is no such credential. */
export async function rotateServiceCredential(db: Queryable, name: string, secretHash: string, at: Date): Promise<boolean> {
  const { rows } = await db.query('update service_credentials set secret_hash = $2, rotated_at = $3 where name = $1 returning name', [
    name,
    secretHash,
    at,
  ]);
  return rows.length === 1;
}

export async function deleteServiceCredential(db: Queryable, name: string): Promise<boolean> {
  const { rows } = await db.query('delete from service_credentials where name = $1 returning name', [name]);
  return rows.length === 1;
}

export async function listServiceCredentials(db: Queryable): Promise<{ name: string; createdAt: Date; rotatedAt: Date | null }[]> {
  const { rows } = await db.query<{ name: string; created_at: Date | string; rotated_at: Date | string | null }>(
    'select name, created_at, rotated_at from service_credentials order by name',
  );
  return rows.map((r) => ({ name: r.name, createdAt: date(r.created_at), rotatedAt: r.rotated_at === null ? null : date(r.rotated_at) }));
}

/** The user groups using the artifact repository (only those named, when `ids` is given), by id. */
export async function findArtifactGroups(db: Queryable, ids?: readonly string[]): Promise<{ id: string; name: string }[]> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from user_groups where 'artifacts' = any(services) and ($1::text[] is null or id = any($1::text[])) order by id`,
    [ids ?? null],
  );
  return rows;
}
