/**
 * The sign-ins to services the portal's OpenID provider keeps (server/docs/service-sign-in.md,
 * "Sign-ins to services"): one row per relying party an account is signed in to, listed for the
 * user on the profile and for an administrator in Account Administration, each of which may end
 * it (the client's grants and tokens, its part of the provider's sessions; a back-channel logout
 * to the client when it registered one).
 */
import { Type, type Static } from 'typebox';
import { closed, nullable, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

export const ServiceSignIn = Type.Object(
  {
    /** The OpenID client's name (as `oidc-clients add` registered it): what the row calls the service. */
    client: Type.String(),
    /** The portal service the client is bound to; null: any active account may sign in to it. */
    service: nullable(Type.String()),
    /** When the sign-in was made (ISO 8601): the grant's issue time, else the provider session's sign-in. */
    signed_in_at: Type.String(),
    /** When it ends by itself (ISO 8601): the grant's expiry, else the provider session's. */
    expires_at: nullable(Type.String()),
  },
  closed,
);
export type ServiceSignIn = Static<typeof ServiceSignIn>;

/**
 * `available`: whether the portal has any OpenID client registered (false: there is nothing to
 * sign in to, and the screens show no section).
 */
export const ServiceSignInList = Type.Object({ available: Type.Boolean(), sign_ins: Type.Array(ServiceSignIn) }, closed);
export type ServiceSignInList = Static<typeof ServiceSignInList>;

/** What an ending did: how many clients' sign-ins ended (0: none was left), and those that remain. */
export const EndedServiceSignIns = Type.Object({ ended: Type.Integer({ minimum: 0 }), sign_ins: Type.Array(ServiceSignIn) }, closed);
export type EndedServiceSignIns = Static<typeof EndedServiceSignIns>;

/** A client's name as a path parameter. */
const ClientName = Type.String({ minLength: 1, maxLength: 200 });

/** GET /service-sign-ins: the caller's own sign-ins to services. */
export const listOwnServiceSignIns = defineEndpoint({
  method: 'GET',
  path: '/service-sign-ins',
  access: 'session',
  summary: "The caller's sign-ins to services through the portal",
  response: ServiceSignInList,
});

/** DELETE /service-sign-ins/{client}: the caller signs out of one service; 404 for an unknown client. */
export const endOwnServiceSignIn = defineEndpoint({
  method: 'DELETE',
  path: '/service-sign-ins/:client',
  access: 'session',
  summary: 'The caller signs out of one service',
  params: Type.Object({ client: ClientName }, closed),
  response: EndedServiceSignIns,
  errors: [404],
});

/** GET /accounts/{username}/service-sign-ins: an account's sign-ins to services (LOCK_ACCOUNT, as the lock). */
export const listAccountServiceSignIns = defineEndpoint({
  method: 'GET',
  path: '/accounts/:username/service-sign-ins',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: "An account's sign-ins to services",
  params: UsernameParams,
  response: ServiceSignInList,
  errors: [404],
});

/**
 * DELETE /accounts/{username}/service-sign-ins/{client}: an administrator ends the account's
 * sign-in to one service, recorded in its history; 404 for an unknown account or client.
 */
export const endAccountServiceSignIn = defineEndpoint({
  method: 'DELETE',
  path: '/accounts/:username/service-sign-ins/:client',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: "End an account's sign-in to one service",
  params: Type.Object({ username: UsernameParams.properties.username, client: ClientName }, closed),
  response: EndedServiceSignIns,
  errors: [404],
});

/** DELETE /accounts/{username}/service-sign-ins: an administrator ends all of them, recorded in its history. */
export const endAccountServiceSignIns = defineEndpoint({
  method: 'DELETE',
  path: '/accounts/:username/service-sign-ins',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: "End all of an account's sign-ins to services",
  params: UsernameParams,
  response: EndedServiceSignIns,
  errors: [404],
});
