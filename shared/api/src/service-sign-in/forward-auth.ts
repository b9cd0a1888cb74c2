/**
 * GET /forward-auth/{service}: a reverse proxy in front of one of the platform's services asks,
 * with the browser's cookies, who is signing in (server/docs/service-sign-in.md). Not a call of the
 * browser's: no anti-forgery header (a proxy has none), and public, since the answer for a
 * caller without a session (401, or the redirect to /login) is the route's own.
 */
import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** The headers of a 200 answer, which the proxy copies onto the request it forwards to the service. */
export const FORWARD_AUTH_HEADERS = {
  user: 'X-Remote-User',
  email: 'X-Remote-Email',
  name: 'X-Remote-Name',
  /** The account's groups in the user groups that use the service, comma-separated (empty: none). */
  groups: 'X-Remote-Groups',
} as const;

export const ForwardAuthParams = Type.Object({ service: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

/**
 * `redirect=true`: for a proxy that passes a refusal through to the browser (Traefik's
 * ForwardAuth): 302 to the portal's /login (no session) or Subscriptions page (not subscribed)
 * instead of the bare 401 or 403 nginx's auth_request needs.
 */
export const ForwardAuthQuery = Type.Object({ redirect: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) }, closed);

export const forwardAuth = defineEndpoint({
  method: 'GET',
  path: '/forward-auth/:service',
  access: 'public',
  xsrf: false,
  summary: "A reverse proxy asks whether the browser's session may use a service, and who it is (X-Remote-User and the other headers)",
  params: ForwardAuthParams,
  query: ForwardAuthQuery,
  response: Type.Object({ ok: Type.Literal(true) }, closed),
  errors: [401, 403, 404],
});
