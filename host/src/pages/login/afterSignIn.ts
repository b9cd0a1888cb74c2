import { links } from '@portal/api';
import { hasPermission, safeRedirect, type Session } from '@portal/shared';

/**
 * Where a user goes after signing in (spec sections 2 and 4): renewal first when the account
 * must certify; then the redirect parameter (a path on this site only); then the wiki.
 */
export function destinationAfterSignIn(
  session: Session,
  redirect: string | null,
  wikiUrl: string,
): { kind: 'route'; to: string } | { kind: 'external'; href: string } {
  if (hasPermission(session, 'allow-renewal') || hasPermission(session, 'RENEW_ACCOUNT')) return { kind: 'route', to: links.renewAccount() };
  const target = safeRedirect(redirect);
  if (target) return { kind: 'route', to: target };
  if (/^https?:\/\//.test(wikiUrl)) return { kind: 'external', href: wikiUrl };
  return { kind: 'route', to: links.profile() };
}
