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
  /** Where RP-initiated logout may send the browser back to (exactly one of them). */
  postLogoutRedirectUris: string[];
  /** Where a back-channel logout token is posted; null: none is. */
  backchannelLogoutUri: string | null;
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
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  service: string | null;
  consent: boolean;
  created_at: Date | string;
  rotated_at: Date | string | null;
}

const CLIENT_COLUMNS = 'client_id, name, secret_hash, redirect_uris, post_logout_redirect_uris, backchannel_logout_uri, service, consent, created_at, rotated_at';

function clientOf(row: ClientRow): OidcClientRecord {
  return {
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    redirectUris: row.redirect_uris,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    backchannelLogoutUri: row.backchannel_logout_uri,
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
  client: Pick<OidcClientRecord, 'clientId' | 'name' | 'secretHash' | 'redirectUris' | 'postLogoutRedirectUris' | 'backchannelLogoutUri' | 'service' | 'consent'>,
  at: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `insert into oidc_clients (client_id, name, secret_hash, redirect_uris, post_logout_redirect_uris, backchannel_logout_uri, service, consent, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (name) do nothing returning client_id`,
    [client.clientId, client.name, client.secretHash, client.redirectUris, client.postLogoutRedirectUris, client.backchannelLogoutUri, client.service, client.consent, at],
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

/** A provider session of an account: its id, and the clients it signed in to (their sid and grant). */
export interface OidcSessionRecord {
  id: string;
  authorizations: Record<string, { sid?: string; grantId?: string }>;
}

function sessionOf(row: { id: string; payload: OidcModelPayload }): OidcSessionRecord {
  const authorizations = row.payload['authorizations'];
  return { id: row.id, authorizations: typeof authorizations === 'object' && authorizations !== null ? (authorizations as OidcSessionRecord['authorizations']) : {} };
}

export async function hasOidcRecordsOfAccount(db: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await db.query("select 1 from oidc_models where model in ('Session', 'Grant') and payload->>'accountId' = $1 limit 1", [accountId]);
  return rows.length > 0;
}

/** The provider sessions of an account, live or not. */
export async function findOidcSessionsOfAccount(db: Queryable, accountId: string): Promise<OidcSessionRecord[]> {
  const { rows } = await db.query<{ id: string; payload: OidcModelPayload }>(
    "select id, payload from oidc_models where model = 'Session' and payload->>'accountId' = $1",
    [accountId],
  );
  return rows.map(sessionOf);
}

/** The provider session of that id, when it is the account's. */
export async function findOidcSessionOfAccount(db: Queryable, id: string, accountId: string): Promise<OidcSessionRecord | undefined> {
  const { rows } = await db.query<{ id: string; payload: OidcModelPayload }>(
    "select id, payload from oidc_models where model = 'Session' and id = $1 and payload->>'accountId' = $2",
    [id, accountId],
  );
  return rows[0] ? sessionOf(rows[0]) : undefined;
}

/** The grants of an account: their ids and clients. */
export async function findOidcGrantsOfAccount(db: Queryable, accountId: string): Promise<{ id: string; clientId: string }[]> {
  const { rows } = await db.query<{ id: string; client_id: string | null }>(
    "select id, payload->>'clientId' as client_id from oidc_models where model = 'Grant' and payload->>'accountId' = $1",
    [accountId],
  );
  return rows.map((row) => ({ id: row.id, clientId: row.client_id ?? '' }));
}

/** Deletes provider sessions, and the grants named with everything issued under them (codes, tokens). */
export async function deleteOidcSignIns(db: Queryable, sessionIds: string[], grantIds: string[]): Promise<void> {
  if (grantIds.length > 0) {
    await db.query("delete from oidc_models where grant_id = any($1::text[]) or (model = 'Grant' and id = any($1::text[]))", [grantIds]);
  }
  if (sessionIds.length > 0) await db.query("delete from oidc_models where model = 'Session' and id = any($1::text[])", [sessionIds]);
}

/**
 * Takes one client's part out of provider sessions (its sid and grant): the sessions stay, signed
 * in to the other clients.
 */
export async function removeOidcSessionAuthorizations(db: Queryable, sessionIds: string[], clientId: string): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.query("update oidc_models set payload = payload #- array['authorizations', $2::text] where model = 'Session' and id = any($1::text[])", [
    sessionIds,
    clientId,
  ]);
}

/** A live grant or provider session of an account, as the list of its sign-ins to services reads it. */
export interface OidcSignInRecord {
  model: 'Grant' | 'Session';
  id: string;
  payload: OidcModelPayload;
  expiresAt: Date | null;
}

/** The account's grants and provider sessions not past their expiry. */
export async function findLiveOidcSignInsOfAccount(db: Queryable, accountId: string, now: Date): Promise<OidcSignInRecord[]> {
  const { rows } = await db.query<{ model: 'Grant' | 'Session'; id: string; payload: OidcModelPayload; expires_at: Date | string | null }>(
    `select model, id, payload, expires_at from oidc_models
      where model in ('Session', 'Grant') and payload->>'accountId' = $1 and (expires_at is null or expires_at > $2)`,
    [accountId, now],
  );
  return rows.map((row) => ({ model: row.model, id: row.id, payload: row.payload, expiresAt: row.expires_at === null ? null : new Date(row.expires_at) }));
}

/** Whether any OpenID client is registered. */
export async function hasOidcClients(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('select 1 from oidc_clients limit 1');
  return rows.length > 0;
}

/** The client of that name. */
export async function findOidcClientByName(db: Queryable, name: string): Promise<OidcClientRecord | undefined> {
  const { rows } = await db.query<ClientRow>(`select ${CLIENT_COLUMNS} from oidc_clients where name = $1`, [name]);
  return rows[0] ? clientOf(rows[0]) : undefined;
}

// Signing keys

export interface OidcSigningKeyRecord {
  generation: number;
  /** The private JWK. */
  jwk: Record<string, unknown>;
  createdAt: Date;
}

/** The newest `limit` keys, newest first. */
export async function listOidcSigningKeys(db: Queryable, limit: number): Promise<OidcSigningKeyRecord[]> {
  const { rows } = await db.query<{ generation: number | string; jwk: Record<string, unknown> | string; created_at: Date | string }>(
    'select generation, jwk, created_at from oidc_signing_keys order by generation desc limit $1',
    [limit],
  );
  return rows.map((row) => ({
    generation: Number(row.generation),
    jwk: typeof row.jwk === 'string' ? (JSON.parse(row.jwk) as Record<string, unknown>) : row.jwk,
    createdAt: new Date(row.created_at),
  }));
}

/** The newest generation; 0 when there is no key. */
export async function newestOidcSigningGeneration(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ generation: number | string | null }>('select max(generation) as generation from oidc_signing_keys');
  return Number(rows[0]?.generation ?? 0);
}

/** Stores the first key unless another server stored one first. */
export async function insertFirstOidcSigningKey(db: Queryable, jwk: Record<string, unknown>): Promise<void> {
  await db.query('insert into oidc_signing_keys (generation, jwk) values (1, $1) on conflict (generation) do nothing', [JSON.stringify(jwk)]);
}

/**
 * Stores a key as the generation after the newest and deletes those older than the newest `kept`;
 * the new generation, or undefined when another rotation took that generation first.
 */
export async function insertNextOidcSigningKey(db: Queryable, jwk: Record<string, unknown>, at: Date, kept: number): Promise<number | undefined> {
  const { rows } = await db.query<{ generation: number | string }>(
    `insert into oidc_signing_keys (generation, jwk, created_at)
     select coalesce(max(generation), 0) + 1, $1::jsonb, $2::timestamptz from oidc_signing_keys
     on conflict (generation) do nothing returning generation`,
    [JSON.stringify(jwk), at],
  );
  const generation = rows[0] === undefined ? undefined : Number(rows[0].generation);
  if (generation !== undefined) await db.query('delete from oidc_signing_keys where generation <= $1', [generation - kept]);
  return generation;
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
