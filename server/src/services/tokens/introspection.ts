/**
 * Token introspection for the platform's services (RFC 7662; server/docs/tokens.md): a service
 * authenticates with its own credential (HTTP Basic, made with `portal service-credentials`)
 * and asks about one token. The answer is `{ active: false }` alike for an unknown, expired or
 * revoked token, a token whose account is locked, closed or due for renewal, and one whose
 * owner no longer holds any right it names; otherwise `active: true` with the scopes still held.
 */
import { timingSafeEqual } from 'node:crypto';
import { levelCovers, scopeParts } from '@portal/api';
import type { Queryable } from '../../db/database.js';
import { findServiceSecretHash, findTokenBySecretHash, type IntrospectedToken } from '../../repositories/tokens.js';
import { isRenewalDue } from '../renewal.js';
import { EMBEDDED_TOKEN_PREFIX, secretHash } from './issuer.js';
import { SERVICE_NAME } from './service-credentials.js';
import { heldArtifactLevels } from './tokens.js';

export type IntrospectionAnswer =
  | { active: false }
  | {
      active: true;
      /** The scopes still held, space-separated (RFC 7662 section 2.2). */
      scope: string;
      client_id: string;
      username: string;
      sub: string;
      token_type: 'Bearer';
      /** Epoch seconds; absent when the token does not expire. */
      exp?: number;
      iat: number;
      jti: string;
    };

/** What a service shows: its name (the client id) and its secret. */
export interface ServiceCredential {
  readonly name: string;
  readonly secret: string;
}

const INACTIVE: IntrospectionAnswer = { active: false };
/** The longest secret looked up: 'ptk_' and 43 base64url characters, with room to spare. */
const MAX_TOKEN_LENGTH = 200;

/**
 * POST /oauth2/introspect's answer to a service that gave its name and secret (the route reads
 * them from the HTTP Basic header, and maps the first two answers to 401 and 400). The token is
 * looked up while the service's credential is checked, and the groups it names while its owner's
 * memberships are read: two round trips to the database, not four. The token's lookup does not
 * tell an unauthenticated caller anything: they get 401 whatever it found.
 */
export async function answerIntrospection(
  db: Queryable,
  credential: ServiceCredential,
  token: string | undefined,
  now: Date,
): Promise<'unauthenticated' | 'no token' | IntrospectionAnswer> {
  const [client, found] = await Promise.all([
    authenticatedService(db, credential),
    token === undefined ? undefined : findIntrospected(db, token),
  ]);
  if (client === undefined) return 'unauthenticated';
  if (token === undefined) return 'no token';
  return found === undefined ? INACTIVE : introspect(db, found, now, client);
}

async function findIntrospected(db: Queryable, token: string): Promise<IntrospectedToken | undefined> {
  if (!token.startsWith(EMBEDDED_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return undefined;
  return findTokenBySecretHash(db, secretHash(token));
}

async function introspect(db: Queryable, found: IntrospectedToken, now: Date, clientId: string): Promise<IntrospectionAnswer> {
  if (found.revokedAt !== null) return INACTIVE;
  if (found.expiresAt !== null && found.expiresAt.getTime() <= now.getTime()) return INACTIVE;
  if (!found.accountActive || found.accountClosed || isRenewalDue(found.lastCertified, found.accountCreatedAt, now)) return INACTIVE;
  const groupIds = found.scopes.flatMap((scope) => scopeParts(scope)?.groupId ?? []);
  const held = await heldArtifactLevels(db, found.accountId, groupIds);
  const scopes = found.scopes.filter((scope) => {
    const parts = scopeParts(scope);
    const holding = parts && held.get(parts.groupId);
    return parts !== undefined && holding !== undefined && levelCovers(holding.level, parts.level);
  });
  if (scopes.length === 0) return INACTIVE;
  return {
    active: true,
    scope: scopes.join(' '),
    client_id: clientId,
    username: found.username,
    sub: found.username,
    token_type: 'Bearer',
    ...(found.expiresAt === null ? {} : { exp: Math.floor(found.expiresAt.getTime() / 1000) }),
    iat: Math.floor(found.issuedAt.getTime() / 1000),
    jti: found.id,
  };
}

/** The service's name when its credential is right. */
export async function authenticatedService(db: Queryable, credential: ServiceCredential): Promise<string | undefined> {
  const { name, secret } = credential;
  // Only a name a service can have is looked up: any other (one with a NUL in it, which the
  // database cannot even compare) is unknown, and compared below like any unknown name.
  const stored = SERVICE_NAME.test(name) ? await findServiceSecretHash(db, name) : undefined;
  const given = Buffer.from(secretHash(secret), 'hex');
  // Compared in constant time; an unknown name is compared too, so both take as long.
  const expected = Buffer.from(stored ?? secretHash(`unknown:${name}`), 'hex');
  return timingSafeEqual(given, expected) && stored !== undefined ? name : undefined;
}
