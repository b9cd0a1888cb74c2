/**
 * When an account's sign-ins on the portal end (services/sign-out-hooks.ts), its sign-ins to the
 * relying parties end too (server/docs/service-sign-in.md, "Signing out"):
 *
 *   - the portal's sign-out: the provider session of the same browser (named by the provider's
 *     signed session cookie), and the grants it holds;
 *   - Sign Out Everywhere, a lock, a closure: every provider session of the account, and every
 *     grant of it;
 *   - an ending of sign-ins to services ('ended', services/service-sign-in/sign-ins.ts): with a
 *     client named, that client's grants and its part of every provider session of the account
 *     (the sessions stay, signed in to the others); without, as Sign Out Everywhere.
 *
 * A grant's end is its tokens' (refresh and access tokens, codes): they are refused from then on.
 * Then each client of those sessions that registered a back-channel logout URI is sent a logout
 * token (sub and the session's sid), as oidc-provider sends one on RP-initiated logout.
 */
import { createHmac } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Queryable } from '../../../db/database.js';
import {
  deleteOidcSignIns,
  findOidcGrantsOfAccount,
  findOidcSessionOfAccount,
  findOidcSessionsOfAccount,
  hasOidcRecordsOfAccount,
  removeOidcSessionAuthorizations,
  type OidcSessionRecord,
} from '../../../repositories/service-sign-in/oidc.js';
import type { AccountSignOut } from '../../sign-out-hooks.js';

/** oidc-provider's session cookie (its default name), signed with the cookie key as Keygrip signs. */
const SESSION_COOKIE = '_session';

function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

/** Keygrip's signature (the `cookies` module's signed cookies): HMAC-SHA1, base64 made URL-safe, unpadded. */
function keygripSignature(data: string, key: string): string {
  return createHmac('sha1', key).update(data).digest('base64').replace(/\/|\+|=/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c] ?? '');
}

/** The id of the provider session a Cookie header names, when its signature is right. */
export function providerSessionId(cookieHeader: string | undefined, cookieKey: string): string | undefined {
  const cookies = cookiesOf(cookieHeader);
  for (const name of [SESSION_COOKIE, `${SESSION_COOKIE}.legacy`]) {
    const value = cookies.get(name);
    if (value !== undefined && value !== '' && cookies.get(`${name}.sig`) === keygripSignature(`${name}=${value}`, cookieKey)) return value;
  }
  return undefined;
}

/** Whether the provider keeps any session or grant of the account (a cheap look before building it). */
export function hasOidcSignIns(db: Queryable, accountId: number): Promise<boolean> {
  return hasOidcRecordsOfAccount(db, String(accountId));
}

/** What @types/oidc-provider leaves out of its Client. */
interface BackchannelClient {
  backchannelLogout(sub: string, sid: string | undefined): Promise<void>;
}

export interface OidcSignOutResult {
  /** Provider sessions ended (one client's sign-ins: sessions that client's part was taken out of). */
  sessions: number;
  /** Grants revoked (with their tokens). */
  grants: number;
  /** Logout tokens delivered, and those that failed (each also reported to onDeliveryError). */
  delivered: number;
  failed: number;
}

export interface OidcSignOutOptions {
  provider: Provider;
  db: Queryable;
  /** The provider's cookie key (the sign-out of one browser reads its session cookie). */
  cookieKey: string;
  onDeliveryError(error: unknown, clientId: string): void;
}

/** Ends the account's provider sessions and grants the sign-out reaches, then tells the clients. */
export async function endOidcSignIns(options: OidcSignOutOptions, signOut: AccountSignOut): Promise<OidcSignOutResult> {
  const { provider, db } = options;
  const accountId = String(signOut.accountId);
  const only = signOut.reason === 'ended' ? signOut.clientId : undefined;
  let sessions: OidcSessionRecord[];
  const grantIds = new Set<string>();
  if (signOut.reason === 'sign-out') {
    const id = providerSessionId(signOut.cookieHeader, options.cookieKey);
    const session = id === undefined ? undefined : await findOidcSessionOfAccount(db, id, accountId);
    sessions = session ? [session] : [];
  } else {
    sessions = await findOidcSessionsOfAccount(db, accountId);
    for (const grant of await findOidcGrantsOfAccount(db, accountId)) if (only === undefined || grant.clientId === only) grantIds.add(grant.id);
  }
  if (only !== undefined) {
    // The client's part of each session alone.
    sessions = sessions.flatMap((session) => {
      const authorization = session.authorizations[only];
      return authorization === undefined ? [] : [{ id: session.id, authorizations: { [only]: authorization } }];
    });
  }
  const told: { clientId: string; sid: string | undefined }[] = [];
  for (const session of sessions) {
    for (const [clientId, authorization] of Object.entries(session.authorizations)) {
      if (authorization.grantId !== undefined) grantIds.add(authorization.grantId);
      told.push({ clientId, sid: authorization.sid });
    }
  }
  if (sessions.length === 0 && grantIds.size === 0) return { sessions: 0, grants: 0, delivered: 0, failed: 0 };

  // The tokens stop working before any client is told.
  if (only === undefined) {
    await deleteOidcSignIns(db, sessions.map((session) => session.id), [...grantIds]);
  } else {
    await deleteOidcSignIns(db, [], [...grantIds]);
    await removeOidcSessionAuthorizations(db, sessions.map((session) => session.id), only);
  }

  let delivered = 0;
  let failed = 0;
  await Promise.all(
    told.map(async ({ clientId, sid }) => {
      const client = await provider.Client.find(clientId);
      if (!client?.backchannelLogoutUri) return;
      try {
        // oidc-provider's own (end_session's): a logout token of its keys, posted to the client's URI.
        await (client as unknown as BackchannelClient).backchannelLogout(accountId, sid);
        delivered++;
      } catch (error) {
        failed++;
        options.onDeliveryError(error, clientId);
      }
    }),
  );
  return { sessions: sessions.length, grants: grantIds.size, delivered, failed };
}
