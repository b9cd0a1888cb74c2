/**
 * Forward auth (server/docs/service-sign-in.md): a reverse proxy in front of one of the platform's
 * services asks, on each request, whether the browser's portal session may use that service.
 * A sign-out, a lock, a closure or an unsubscription is seen by the very next request: each call
 * reads the session, its account's state and the stamps of what the account holds, and how the
 * account holds the service is kept only under those stamps (grant-cache.ts). It is on every
 * request of every service, so while what is kept is current it costs one statement on PostgreSQL
 * (the session, the account and its stamps read together), and on the embedded database the
 * session lookup every request makes (kept in memory) and one statement.
 */
import { SERVICE_INFO, SERVICES, supportedServices, type PortalConfiguration, type Service } from '@portal/api';
import { NotFoundError } from '../../errors.js';
import { findAccountAccess, findServiceGrants, findSessionWithAccess, type AccountAccess } from '../../repositories/service-sign-in/forward-auth.js';
import type { SecurityContext } from '../security-context.js';
import { resolveSession } from '../sessions.js';
import type { GrantCache } from './grant-cache.js';

export const FORWARD_AUTH_MESSAGES = {
  unknownService: (given: string) => `'${given}' is not a service of the platform (known: ${SERVICES.join(', ')}).`,
  notOffered: (service: Service) => `This portal does not offer ${service}: it is not in supported_services.`,
  notSignedIn: 'Not signed in',
  mustRenew: 'Your account must be renewed before you continue.',
  notHeld: (service: Service) => `Your account does not hold ${SERVICE_INFO[service].name}: subscribe to it on the portal's Subscriptions page.`,
} as const;

/** Who the service is to see, as its proxy passes it on. */
export interface ServiceIdentity {
  username: string;
  email: string;
  /** First and last name; the username when the account has neither. */
  name: string;
  /** The account's groups in the user groups that use the service, sorted. */
  groups: string[];
}

export type ForwardAuthDecision =
  | { readonly outcome: 'allowed'; readonly identity: ServiceIdentity }
  /** No signed-in session of an active account, or one that must renew first: the portal's /login. */
  | { readonly outcome: 'sign-in'; readonly message: string }
  /** Signed in, but the account holds the service neither itself nor through a group: the Subscriptions page. */
  | { readonly outcome: 'subscribe'; readonly service: Service; readonly message: string };

/**
 * For a portal's configuration (fixed from its start), what finds the service a proxy names:
 * NotFoundError for an id that is no service, or one this portal does not offer. Made once, since
 * every call of every service asks it.
 */
export function serviceFinder(config: Pick<PortalConfiguration, 'supported_services'>): (given: string) => Service {
  const offered = new Set(supportedServices(config));
  return (given) => {
    const service = SERVICES.find((id) => id === given);
    if (service === undefined) throw new NotFoundError(FORWARD_AUTH_MESSAGES.unknownService(given));
    if (!offered.has(service)) throw new NotFoundError(FORWARD_AUTH_MESSAGES.notOffered(service));
    return service;
  };
}

/**
 * Whether the session the cookie names (its id, if any) may use the service. `grants` keeps how
 * accounts hold services between calls (one per server, made with its routes).
 */
export async function decideForwardAuth(
  context: SecurityContext,
  grants: GrantCache,
  sessionId: string | undefined,
  service: Service,
): Promise<ForwardAuthDecision> {
  let access: AccountAccess | undefined;
  let read = false;
  const session = context.sessions
    ? await resolveSession(context, sessionId)
    : await resolveSession(context, sessionId, async (idHash) => {
        const found = await findSessionWithAccess(context.db, idHash);
        access = found?.access;
        read = true;
        return found?.session;
      });
  // An ended session, or one of a locked or closed account, has no account.
  const account = session?.account;
  if (!account) return { outcome: 'sign-in', message: FORWARD_AUTH_MESSAGES.notSignedIn };
  // Until the account renews the portal shows nothing but the renewal (its /login sends there).
  if (account.renewalDue) return { outcome: 'sign-in', message: FORWARD_AUTH_MESSAGES.mustRenew };
  if (!read) access = await findAccountAccess(context.db, account.id);
  if (!access) return { outcome: 'sign-in', message: FORWARD_AUTH_MESSAGES.notSignedIn };
  let held = grants.get(account.id, service, access.stamp);
  if (!held) {
    // Read after the stamps, so kept under them it is never older than they say.
    held = await findServiceGrants(context.db, account.id, service);
    grants.keep(account.id, service, access.stamp, held);
  }
  if (!held.subscribed && held.groups.length === 0) return { outcome: 'subscribe', service, message: FORWARD_AUTH_MESSAGES.notHeld(service) };
  const name = [access.firstName, access.lastName].map((part) => part?.trim() ?? '').filter((part) => part !== '').join(' ');
  return {
    outcome: 'allowed',
    identity: { username: access.username, email: access.email, name: name === '' ? access.username : name, groups: held.groups },
  };
}
