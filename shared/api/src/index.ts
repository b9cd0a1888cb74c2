/**
 * @portal/api: what the server and the browser must agree on, defined once. Every app bundles
 * its own copy (it is never a federated singleton), so a remote that ships a new call needs no
 * host rebuild; the server validates with the same schemas.
 *
 * One file per endpoint (`accounts/lock-account.ts`: its path, access, schemas and types), beside
 * the shapes several endpoints share (`accounts/account.ts`, `requests/requests.ts`).
 */
export * from './endpoint.js';
export * from './common.js';
export * from './permissions.js';
export * from './config.js';
export * from './validation.js';
export * from './rules.js';
export * from './services.js';
export * from './links.js';
export * from './accounts/account-admin.js';
export * from './accounts/account-history-csv.js';
export * from './accounts/account.js';
export * from './accounts/close-account.js';
export * from './accounts/get-account.js';
export * from './accounts/lock-account.js';
export * from './accounts/search-accounts.js';
export * from './accounts/unlock-account.js';
export * from './accounts/update-profile.js';
export * from './groups/model.js';
export * from './groups/rules.js';
export * from './groups/groups.js';
export * from './groups/list-user-groups.js';
export * from './groups/get-user-group.js';
export * from './groups/update-user-group.js';
export * from './groups/request-user-group.js';
export * from './groups/permission-groups.js';
export * from './groups/list-group-mailing-lists.js';
export * from './groups/search-memberships.js';
export * from './groups/search-candidates.js';
export * from './groups/membership-requests.js';
export * from './requests/get-request-summary.js';
export * from './requests/kinds.js';
export * from './requests/requests.js';
export * from './requests/search-denied-requests.js';
export * from './self-service/email-exists.js';
export * from './self-service/get-subscriptions.js';
export * from './self-service/request-certificate-authentication.js';
export * from './self-service/request-email-change.js';
export * from './self-service/request-renewal.js';
export * from './self-service/request-token-authentication.js';
export * from './self-service/self-requests.js';
export * from './self-service/set-subscription.js';
export * from './self-service/subscriptions.js';
export * from './sessions/bot-challenge.js';
export * from './sessions/configuration.js';
export * from './sessions/get-current-session.js';
export * from './sessions/get-xsrf-token.js';
export * from './sessions/health.js';
export * from './sessions/sessions.js';
export * from './sessions/sign-in-with-certificate.js';
export * from './sessions/sign-in-with-token.js';
export * from './sessions/sign-out.js';
export * from './sessions/start-http-session.js';
export * from './visitors/account-requests.js';
export * from './visitors/get-account-request-status.js';
export * from './visitors/register-cac.js';
export * from './visitors/request-unlock.js';
export * from './visitors/reset-website-token.js';
export * from './visitors/respond-to-account-request.js';
export * from './visitors/send-verification-code.js';
export * from './visitors/submit-account-request.js';
export * from './visitors/submit-certificate-account-request.js';
export * from './visitors/verification.js';
export * from './visitors/verify-code.js';
