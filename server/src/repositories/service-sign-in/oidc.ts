/**
 * SQL of the OpenID Connect provider (services/service-sign-in/oidc/): its registered clients,
 * the records its adapter keeps (sessions, interactions, grants, codes, tokens), its signing keys,
 * and who an account is to a relying party.
 */
import type { Queryable } from '../../db/database.js';

export interface OidcClientRecord {
  clientId: string;
  name: string;
  /** SHA-256 (hex) of the client secret. */
  secretHash: string;
  redirectUris: string[];
  service: string | null;
  consent: boolean;
  createdAt: Date;
  rotatedAt: Date | null;
}

interface ClientRow {
  client_id: string;
  name: string;
  secret_hash: string;
  redirect_uris: string[];
  service: string | null;
  consent: boolean;
  created_at: Date | string;
  rotated_at: Date | string | null;
}

const CLIENT_COLUMNS = 'client_id, name, secret_hash, redirect_uris, service, consent, created_at, rotated_at';

function clientOf(row: ClientRow): OidcClientRecord {
  return {
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    redirectUris: row.redirect_uris,
    service: row.service,
    consent: row.consent,
    createdAt: new Date(row.created_at),
    rotatedAt: row.rotated_at === null ? null : new Date(row.rotated_at),
  };
}

export async function findOidcClient(db: Queryable, clientId: string): Promise<OidcClientRecord | undefined> {
  const { rows } = await db.query<ClientRow>(`select ${CLIENT_COLUMNS} from oidc_clients where client_id = $1`, [clientId]);
  return rows[0] ? clientOf(rows[0]) : undefined;
}

export async function listOidcClients(db: Queryable): Promise<OidcClientRecord[]> {
  const { rows } = await db.query<ClientRow>(`select ${CLIENT_COLUMNS} from oidc_clients order by name`);
  return rows.map(clientOf);
}

/** False when a client of that name exists already. */
export async function insertOidcClient(
  db: Queryable,
  client: Pick<OidcClientRecord, 'clientId' | 'name' | 'secretHash' | 'redirectUris' | 'service' | 'consent'>,
  at: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `insert into oidc_clients (client_id, name, secret_hash, redirect_uris, service, consent, created_at)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (name) do nothing returning client_id`,
    [client.clientId, client.name, client.secretHash, client.redirectUris, client.service, client.consent, at],
  );
  return rows.length === 1;
}

/** The client's id; undefined when there is no client of that name. */
export async function rotateOidcClientSecret(db: Queryable, name: string, secretHash: string, at: Date): Promise<string | undefined> {
  const { rows } = await db.query<{ client_id: string }>('update oidc_clients set secret_hash = $2, rotated_at = $3 where name = $1 returning client_id', [
    name,
    secretHash,
    at,
  ]);
  return rows[0]?.client_id;
}

/** Removes the client and every record the provider keeps for it; its id, or undefined when there is none. */
export async function deleteOidcClient(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ client_id: string }>('delete from oidc_clients where name = $1 returning client_id', [name]);
  const clientId = rows[0]?.client_id;
  if (clientId !== undefined) await db.query("delete from oidc_models where payload->>'clientId' = $1", [clientId]);
  return clientId;
}

// The provider's records

export interface OidcModelPayload {
  [key: string]: unknown;
}

interface ModelRow {
  payload: OidcModelPayload;
  consumed_at: Date | string | null;
}

/** The record, unless it is past its expiry; `consumed` (epoch seconds) added when it was consumed. */
function payloadOf(row: ModelRow | undefined): OidcModelPayload | undefined {
  if (!row) return undefined;
  return row.consumed_at === null ? row.payload : { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) };
}

export async function upsertOidcModel(
  db: Queryable,
  model: string,
  id: string,
  payload: OidcModelPayload,
  expiresAt: Date | null,
): Promise<void> {
  const text = (key: string) => (typeof payload[key] === 'string' ? payload[key] : null);
  await db.query(
    `insert into oidc_models (model, id, payload, grant_id, user_code, uid, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (model, id) do update
       set payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
           uid = excluded.uid, expires_at = excluded.expires_at`,
    [model, id, JSON.stringify(payload), text('grantId'), text('userCode'), text('uid'), expiresAt],
  );
}

const LIVE = '(expires_at is null or expires_at > $3)';

export async function findOidcModel(db: Queryable, model: string, id: string, now: Date): Promise<OidcModelPayload | undefined> {
  const { rows } = await db.query<ModelRow>(`select payload, consumed_at from oidc_models where model = $1 and id = $2 and ${LIVE}`, [model, id, now]);
  return payloadOf(rows[0]);
}

export async function findOidcModelBy(db: Queryable, model: string, column: 'uid' | 'user_code', value: string, now: Date): Promise<OidcModelPayload | undefined> {
  const { rows } = await db.query<ModelRow>(`select payload, consumed_at from oidc_models where model = $1 and ${column} = $2 and ${LIVE} limit 1`, [
    model,
    value,
    now,
  ]);
  return payloadOf(rows[0]);
}

export async function consumeOidcModel(db: Queryable, model: string, id: string, now: Date): Promise<void> {
  await db.query('update oidc_models set consumed_at = $3 where model = $1 and id = $2 and consumed_at is null', [model, id, now]);
}

export async function destroyOidcModel(db: Queryable, model: string, id: string): Promise<void> {
  await db.query('delete from oidc_models where model = $1 and id = $2', [model, id]);
}

/** Every record issued under a grant (its tokens, codes, the grant itself): a reused code revokes them. */
export async function revokeOidcGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query('delete from oidc_models where grant_id = $1', [grantId]);
}

// Signing keys

/** The private JWKs, oldest first. */
export async function listOidcSigningKeys(db: Queryable): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<{ jwk: Record<string, unknown> | string }>('select jwk from oidc_signing_keys order by generation');
  return rows.map((row) => (typeof row.jwk === 'string' ? (JSON.parse(row.jwk) as Record<string, unknown>) : row.jwk));
}

/** Stores the first key unless another server stored one first. */
export async function insertFirstOidcSigningKey(db: Queryable, jwk: Record<string, unknown>): Promise<void> {
  await db.query('insert into oidc_signing_keys (generation, jwk) values (1, $1) on conflict (generation) do nothing', [JSON.stringify(jwk)]);
}

// Who an account is to a relying party

export interface OidcAccount {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** Every group the account holds, directly or through nested groups, sorted. */
  groups: string[];
}

/** An active account that is not closed, with all its groups; undefined otherwise. */
export async function findActiveOidcAccount(db: Queryable, accountId: number): Promise<OidcAccount | undefined> {
  const { rows } = await db.query<{ id: number | string; username: string; email: string; first_name: string | null; last_name: string | null; groups: string[] | null }>(
    `select a.id, a.username, a.email, a.first_name, a.last_name,
            array(with recursive held(group_name) as (
                    select m.group_name from group_memberships m where m.account_id = a.id
                    union
                    select n.group_name from held h join group_nestings n on n.member_group = h.group_name
                  )
                  select distinct group_name from held order by group_name) as groups
       from accounts a
      where a.id = $1 and a.active and not a.closed`,
    [accountId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { id: Number(row.id), username: row.username, email: row.email, firstName: row.first_name, lastName: row.last_name, groups: row.groups ?? [] };
}
