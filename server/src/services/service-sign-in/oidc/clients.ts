/**
 * The relying parties of the provider, registered by platform administrators on the command line
 * (`portal oidc-clients add|list|remove|rotate-secret`). A client's secret is shown once; only
 * its SHA-256 hash is stored. The secret is 256 random bits, so a slow hash would add nothing
 * (as with the service credentials, services/tokens/service-credentials.ts).
 *
 * oidc-provider authenticates a client by comparing the secret it presents with the client's
 * `client_secret`, so it needs something to compare. It is given the stored hash as the client's
 * secret, and the route in front of it (routes/service-sign-in/oidc.ts) replaces the secret in a
 * client's HTTP Basic credentials with its hash before the provider reads them: the provider then
 * compares hash with hash, in constant time, and the secret itself is never kept anywhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SERVICES, type Service } from '@portal/api';
import type { AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../../db/database.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../../errors.js';
import {
  deleteOidcClient,
  insertOidcClient,
  listOidcClients,
  rotateOidcClientSecret,
  type OidcClientRecord,
} from '../../../repositories/service-sign-in/oidc.js';

export const CLIENT_NAME = /^[a-z][a-z0-9-]{1,62}$/;
export const CLIENT_SECRET_PREFIX = 'pcs_';

export const OIDC_CLIENT_MESSAGES = {
  badName: (name: string) => `'${name}' is not a client name: 2 to 63 lower-case letters, digits or hyphens, starting with a letter.`,
  noRedirectUri: 'A client needs at least one --redirect-uri.',
  badRedirectUri: (uri: string) => `'${uri}' is not a redirect URI: an absolute http or https address without a fragment.`,
  badPostLogoutRedirectUri: (uri: string) => `'${uri}' is not a post-logout redirect URI: an absolute http or https address without a fragment.`,
  badBackchannelLogoutUri: (uri: string) => `'${uri}' is not a back-channel logout URI: an absolute http or https address without a fragment.`,
  badService: (service: string) => `'${service}' is not a service of the platform (known: ${SERVICES.join(', ')}).`,
  exists: (name: string) => `A client named '${name}' exists already. Use 'oidc-clients rotate-secret ${name}' for a new secret.`,
  notFound: (name: string) => `There is no client named '${name}'.`,
} as const;

/** The hash kept of a client secret (and compared by the provider). */
export function clientSecretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function newClientSecret(): string {
  return `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the provider knows of a registered client (its metadata, as its adapter gives it). */
export function clientMetadata(client: OidcClientRecord): AdapterPayload {
  return {
    client_id: client.clientId,
    client_secret: client.secretHash,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    // Told of a sign-out with the session's sid (also put into its ID tokens), so that it ends the
    // session of that sign-in only (a sign-out everywhere tells it of each session).
    ...(client.backchannelLogoutUri === null ? {} : { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    ...(client.service === null ? {} : { portal_service: client.service }),
    portal_consent: client.consent,
  };
}

/**
 * The Authorization header with the secret of HTTP Basic client credentials replaced by its hash
 * (see above); any other header as it is. The id and secret are form-encoded inside Basic
 * (RFC 6749, 2.3.1): decoded before hashing, encoded again after. A header that does not decode
 * is left for the provider to refuse.
 */
export function hashedBasicAuthorization(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return header;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return header;
  try {
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    const formEncode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
    return `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(clientSecretHash(secret))}`, 'utf8').toString('base64')}`;
  } catch {
    return header;
  }
}

function checkName(name: string): void {
  if (!CLIENT_NAME.test(name)) throw new InvalidInputError(OIDC_CLIENT_MESSAGES.badName(name));
}

function checkUri(uri: string, message: (uri: string) => string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new InvalidInputError(message(uri));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || uri.includes('#')) throw new InvalidInputError(message(uri));
}

export type OidcClientCommand =
  | {
      action: 'add';
      name: string;
      redirectUris: string[];
      postLogoutRedirectUris?: string[];
      backchannelLogoutUri?: string;
      service?: string;
      consent: boolean;
    }
  | { action: 'list' }
  | { action: 'remove'; name: string }
  | { action: 'rotate-secret'; name: string };

export interface ListedOidcClient {
  name: string;
  client_id: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  service: string | null;
  consent: boolean;
  created_at: string;
  rotated_at: string | null;
}

export interface OidcClientResult {
  /** add and rotate-secret: the client's id and its secret (shown once). */
  client_id?: string;
  client_secret?: string;
  /** list */
  clients?: ListedOidcClient[];
}

/** The command a running portal was sent over its control socket; undefined when it is not one. */
export function parseOidcClientCommand(value: unknown): OidcClientCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, name, redirectUris, postLogoutRedirectUris, backchannelLogoutUri, service, consent } = value as Record<string, unknown>;
  if (action === 'list') return { action };
  if (typeof name !== 'string') return undefined;
  if (action === 'remove' || action === 'rotate-secret') return { action, name };
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((u) => typeof u === 'string');
  if (action !== 'add' || !strings(redirectUris) || typeof consent !== 'boolean') return undefined;
  if (postLogoutRedirectUris !== undefined && !strings(postLogoutRedirectUris)) return undefined;
  if ((service !== undefined && typeof service !== 'string') || (backchannelLogoutUri !== undefined && typeof backchannelLogoutUri !== 'string')) return undefined;
  return {
    action,
    name,
    redirectUris,
    consent,
    ...(postLogoutRedirectUris === undefined ? {} : { postLogoutRedirectUris }),
    ...(backchannelLogoutUri === undefined ? {} : { backchannelLogoutUri }),
    ...(service === undefined ? {} : { service }),
  };
}

/** `portal oidc-clients <action>`, on the database the command line reached. */
export async function runOidcClientCommand(db: Queryable, command: OidcClientCommand, now: Date): Promise<OidcClientResult> {
  switch (command.action) {
    case 'list': {
      const clients = await listOidcClients(db);
      return {
        clients: clients.map((c) => ({
          name: c.name,
          client_id: c.clientId,
          redirect_uris: c.redirectUris,
          post_logout_redirect_uris: c.postLogoutRedirectUris,
          backchannel_logout_uri: c.backchannelLogoutUri,
          service: c.service,
          consent: c.consent,
          created_at: c.createdAt.toISOString(),
          rotated_at: c.rotatedAt?.toISOString() ?? null,
        })),
      };
    }
    case 'add': {
      checkName(command.name);
      if (command.redirectUris.length === 0) throw new InvalidInputError(OIDC_CLIENT_MESSAGES.noRedirectUri);
      command.redirectUris.forEach((uri) => checkUri(uri, OIDC_CLIENT_MESSAGES.badRedirectUri));
      const postLogoutRedirectUris = command.postLogoutRedirectUris ?? [];
      postLogoutRedirectUris.forEach((uri) => checkUri(uri, OIDC_CLIENT_MESSAGES.badPostLogoutRedirectUri));
      if (command.backchannelLogoutUri !== undefined) checkUri(command.backchannelLogoutUri, OIDC_CLIENT_MESSAGES.badBackchannelLogoutUri);
      const service = command.service;
      if (service !== undefined && !(SERVICES as readonly string[]).includes(service)) throw new InvalidInputError(OIDC_CLIENT_MESSAGES.badService(service));
      const clientId = randomBytes(16).toString('base64url');
      const secret = newClientSecret();
      const added = await insertOidcClient(
        db,
        {
          clientId,
          name: command.name,
          secretHash: clientSecretHash(secret),
          redirectUris: command.redirectUris,
          postLogoutRedirectUris,
          backchannelLogoutUri: command.backchannelLogoutUri ?? null,
          service: (service as Service | undefined) ?? null,
          consent: command.consent,
        },
        now,
      );
      if (!added) throw new ConflictError(OIDC_CLIENT_MESSAGES.exists(command.name));
      return { client_id: clientId, client_secret: secret };
    }
    case 'rotate-secret': {
      checkName(command.name);
      const secret = newClientSecret();
      const clientId = await rotateOidcClientSecret(db, command.name, clientSecretHash(secret), now);
      if (clientId === undefined) throw new NotFoundError(OIDC_CLIENT_MESSAGES.notFound(command.name));
      return { client_id: clientId, client_secret: secret };
    }
    case 'remove': {
      checkName(command.name);
      if ((await deleteOidcClient(db, command.name)) === undefined) throw new NotFoundError(OIDC_CLIENT_MESSAGES.notFound(command.name));
      return {};
    }
  }
}
