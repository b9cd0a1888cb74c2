import { externalRedirect, getSubscriptions, isServiceSupported, links, type PortalConfiguration } from '@portal/api';
import { call, hasPermission, safeRedirect, type Session } from '@portal/shared';

type Destination = { kind: 'route'; to: string } | { kind: 'external'; href: string };
type RedirectConfiguration = Pick<PortalConfiguration, 'service_origins' | 'wiki_url' | 'supported_services'>;

/**
 * Paths on this site that the server answers itself rather than the host's routes: the OpenID
 * provider's sign-in of a service (/oidc/interaction/…, server/docs/service-sign-in.md) sends a
 * visitor to /login with it as the redirect. They open by a full page load.
 */
const SERVER_PAGES = /^\/oidc\//;

function pathDestination(path: string): Destination {
  return SERVER_PAGES.test(path) ? { kind: 'external', href: path } : { kind: 'route', to: path };
}

/**
 * Where a user goes after signing in (spec sections 2 and 4): renewal first when the account
 * must certify; then the redirect parameter (a path on this site, or an address on a configured
 * service's origin or the wiki's: server/docs/self-service.md, "Sign-in redirects"); then the wiki.
 */
export function destinationAfterSignIn(session: Session, redirect: string | null, config: RedirectConfiguration): Destination {
  if (hasPermission(session, 'allow-renewal') || hasPermission(session, 'RENEW_ACCOUNT')) return { kind: 'route', to: links.renewAccount() };
  const target = safeRedirect(redirect);
  if (target) return pathDestination(target);
  const external = externalRedirect(redirect, config);
  if (external) return { kind: 'external', href: external.href };
  if (/^https?:\/\//.test(config.wiki_url)) return { kind: 'external', href: config.wiki_url };
  return { kind: 'route', to: links.profile() };
}

/**
 * /login with a session and a redirect (spec section 2: "the user's subscriptions are checked"):
 * a path on this site opens; an address of a supported service (one of service_origins, or the
 * wiki: Confluence) opens if the user holds that service (their own subscription or through a
 * group), else /subscriptions?service={id} opens, where the spec's warning says which service sent
 * them; an address of a service the portal does not offer opens as it is (there is nothing to
 * subscribe to here); anything else is refused and the profile opens.
 */
export async function destinationForSession(session: Session, redirect: string | null, config: RedirectConfiguration, signal?: AbortSignal): Promise<Destination> {
  if (hasPermission(session, 'allow-renewal') || hasPermission(session, 'RENEW_ACCOUNT')) return { kind: 'route', to: links.renewAccount() };
  const target = safeRedirect(redirect);
  if (target) return pathDestination(target);
  const external = externalRedirect(redirect, config);
  if (!external) return { kind: 'route', to: links.profile() };
  if (!external.service || !isServiceSupported(config, external.service)) return { kind: 'external', href: external.href };
  const { direct, nested } = await call(getSubscriptions, { params: { username: session.username } }, signal ? { signal } : {});
  if (direct.includes(external.service) || nested.includes(external.service)) return { kind: 'external', href: external.href };
  return { kind: 'route', to: links.subscriptions(external.service) };
}
