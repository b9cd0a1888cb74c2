/**
 * @portal/api: what the server and the browser must agree on, defined once. Every app bundles
 * its own copy (it is never a federated singleton), so a remote that ships a new call needs no
 * host rebuild; the server validates with the same schemas.
 *
 * One file per endpoint group: the schemas, the static types and the endpoint definitions that
 * `call()` of @portal/shared and the server's `routeOf()` take.
 */
export * from './endpoint.js';
export * from './common.js';
export * from './permissions.js';
export * from './config.js';
export * from './validation.js';
export * from './rules.js';
export * from './services.js';
export * from './links.js';
export * from './requests/kinds.js';
export * from './requests/requests.js';
export * from './accounts/account.js';
export * from './accounts/get-account.js';
export * from './accounts/update-profile.js';
export * from './accounts/account-admin.js';
export * from './sessions/sessions.js';
export * from './sessions/configuration.js';
export * from './sessions/health.js';
export * from './sessions/bot-challenge.js';
export * from './visitors/verification.js';
export * from './visitors/account-requests.js';
export * from './self-service/subscriptions.js';
export * from './self-service/self-requests.js';
