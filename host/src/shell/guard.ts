import { links } from '@portal/api';
import { hasPermission, type RouteAccess, type SessionState } from '@portal/shared';

export type GuardDecision = { readonly kind: 'allow' } | { readonly kind: 'redirect'; readonly to: string };

const allow: GuardDecision = { kind: 'allow' };

/**
 * The session guard of spec section 2 ("Authenticated layout"), for a route that is not public:
 * no session → /login with the redirect; an error → /not-authorized; the renew-account
 * permission forces /renew-account; a missing route permission → /profile.
 */
export function guardDecision(
  state: Pick<SessionState, 'status' | 'session'>,
  access: RouteAccess,
  location: { pathname: string; search: string },
): GuardDecision {
  if (access.kind === 'public') return allow;
  const here = `${location.pathname}${location.search}`;
  if (state.status === 'anonymous' || state.status === 'unknown') return { kind: 'redirect', to: links.login(here) };
  if (state.status === 'error') return { kind: 'redirect', to: links.notAuthorized(here) };
  if (hasPermission(state.session, 'RENEW_ACCOUNT') && location.pathname !== links.renewAccount()) {
    return { kind: 'redirect', to: links.renewAccount() };
  }
  if (access.kind === 'permission' && !hasPermission(state.session, access.permission)) {
    return location.pathname === links.profile() ? { kind: 'redirect', to: links.notAuthorized() } : { kind: 'redirect', to: links.profile() };
  }
  return allow;
}
