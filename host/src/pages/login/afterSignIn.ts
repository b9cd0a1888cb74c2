import { externalRedirect, getSubscriptions, links, SERVICE_INFO, type PortalConfiguration, type Service } from '@portal/api';
import { call, hasPermission, safeRedirect, type Session } from '@portal/shared';

type Destination = { kind: 'route'; to: string; feedback?: string } | { kind: 'external'; href: string };
type RedirectConfiguration = Pick<PortalConfiguration, 'service_origins' | 'wiki_url'>;

/** Issue 15: a signed-in user sent back to a service they are not subscribed to lands on /subscriptions with this. */
export const subscribeFirst = (service: Service) =>
  `You are not subscribed to ${SERVICE_INFO[service].name}. Subscribe to it here, then open the link you followed again (subscriptions take up to 10 minutes to reach ${SERVICE_INFO[service].name}).`;

/**
 * Where a user goes after signing in (spec sections 2 and 4): renewal first when the account
 * must certify; then the redirect parameter (a path on this site, or an address on a configured
 * service's origin or the wiki's: server/docs/self-service.md, "Sign-in redirects"); then the wiki.
 */
export function destinationAfterSignIn(session: Session, redirect: string | null, config: RedirectConfiguration): Destination {
  if (hasPermission(session, 'allow-renewal') || hasPermission(session, 'RENEW_ACCOUNT')) return { kind: 'route', to: links.renewAccount() };
  const target = safeRedirect(redirect);
  if (target) return { kind: 'route', to: target };
  const external = externalRedirect(redirect, config);
  if (external) return { kind: 'external', href: external.href };
  if (/^https?:\/\//.test(config.wiki_url)) return { kind: 'external', href: config.wiki_url };
  return { kind: 'route', to: links.profile() };
}

/**
 * /login with a session and a redirect (spec section 2: "the user's subscriptions are checked"):
 * a path on this site opens; an address of a configured service opens if the user holds that
 * service (their own subscription or through a group), else /subscriptions for it says why;
 * the wiki's opens; anything else is refused and the profile opens.
 */
export async function destinationForSession(session: Session, redirect: string | null, config: RedirectConfiguration, signal?: AbortSignal): Promise<Destination> {
  if (hasPermission(session, 'allow-renewal') || hasPermission(session, 'RENEW_ACCOUNT')) return { kind: 'route', to: links.renewAccount() };
  const target = safeRedirect(redirect);
  if (target) return { kind: 'route', to: target };
  const external = externalRedirect(redirect, config);
  if (!external) return { kind: 'route', to: links.profile() };
  if (!external.service) return { kind: 'external', href: external.href };
  const { direct, nested } = await call(getSubscriptions, { params: { username: session.username } }, signal ? { signal } : {});
  if (direct.includes(external.service) || nested.includes(external.service)) return { kind: 'external', href: external.href };
  return { kind: 'route', to: links.subscriptions(external.service), feedback: subscribeFirst(external.service) };
}
