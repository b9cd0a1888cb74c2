/**
 * Who a user is to a relying party, and whether they may sign in to it: the portal's session
 * decides (the provider keeps no sign-in of its own), and a client bound to a service lets in
 * only an account that holds the service, as forward auth does (../forward-auth.ts).
 */
import { SERVICES, type Service } from '@portal/api';
import { findActiveOidcAccount } from '../../../repositories/service-sign-in/oidc.js';
import { findServiceGrants } from '../../../repositories/service-sign-in/forward-auth.js';
import type { Queryable } from '../../../db/database.js';
import type { CurrentSession } from '../../sessions.js';

export type OidcSignInDecision =
  | { readonly outcome: 'allowed'; readonly accountId: number }
  /** No signed-in session of an active account, or one that must renew first: the portal's /login. */
  | { readonly outcome: 'sign-in' }
  /** Signed in, but the client is bound to a service the account does not hold: the Subscriptions page. */
  | { readonly outcome: 'subscribe'; readonly service: Service };

/** The service a client is bound to (its `portal_service` metadata), if any. */
export function boundService(metadata: unknown): Service | undefined {
  return SERVICES.find((service) => service === metadata);
}

/** Whether the portal session may sign in to a client bound to `service` (undefined: to none). */
export async function decideOidcSignIn(db: Queryable, session: CurrentSession | undefined, service: Service | undefined): Promise<OidcSignInDecision> {
  const account = session?.account;
  // Until the account renews, the portal shows nothing but the renewal (its /login sends there).
  if (!account || account.renewalDue) return { outcome: 'sign-in' };
  if (service !== undefined) {
    const held = await findServiceGrants(db, account.id, service);
    if (!held.subscribed && held.groups.length === 0) return { outcome: 'subscribe', service };
  }
  return { outcome: 'allowed', accountId: account.id };
}

/** The standard claims (and groups) of an account, by the scope that releases each. */
export interface OidcClaims {
  sub: string;
  preferred_username: string;
  name: string;
  email: string;
  groups: string[];
}

/**
 * The claims of an active account (undefined for one locked, closed or gone, or, for a client
 * bound to a service, one that no longer holds it: its tokens are then refused). `groups`: for a
 * client bound to a service, the groups of the user groups that use that service (what forward
 * auth sends); for any other client, every group the account holds.
 */
export async function accountClaims(db: Queryable, accountId: number, service: Service | undefined): Promise<OidcClaims | undefined> {
  const account = await findActiveOidcAccount(db, accountId);
  if (!account) return undefined;
  let groups = account.groups;
  if (service !== undefined) {
    const held = await findServiceGrants(db, accountId, service);
    if (!held.subscribed && held.groups.length === 0) return undefined;
    groups = held.groups;
  }
  const name = [account.firstName, account.lastName].map((part) => part?.trim() ?? '').filter((part) => part !== '').join(' ');
  return { sub: String(account.id), preferred_username: account.username, name: name === '' ? account.username : name, email: account.email, groups };
}
