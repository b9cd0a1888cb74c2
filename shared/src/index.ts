/**
 * @portal/shared: what must exist once per page, shared by the host and the remotes at run time
 * as a strict singleton (shared/build/federation.cjs): the remote contract, the session and
 * configuration stores, the API transport with its anti-forgery token cache, feedback and theme.
 * The form primitives are a singleton of their own, @portal/shared/forms (./forms.ts), loaded
 * with the first form. Everything else is bundled by each app: the API's shapes and endpoint
 * definitions in @portal/api, the shared screens' pieces in @portal/shared/components.
 *
 * Its version (package.json) changes whenever what it exports changes; surface.test.ts fails
 * otherwise, and strictVersion then refuses a remote built against another minor line.
 */
export * from './contract.js';
// The version checks the host needs; compareVersions stays inside (its tests use it).
export { isValidRange, parseVersion, satisfies } from './semver.js';
export * from './messages.js';
export * from './routes.js';
export * from './navigation.js';
export * from './api/client.js';
export * from './api/configuration.js';
export * from './api/sessions.js';
export * from './stores/configuration.js';
export * from './stores/session.js';
export * from './ui/PageTitle.js';
export * from './ui/PendingPage.js';
export * from './ui/Authorized.js';
export * from './ui/ConfirmModal.js';
export * from './ui/SecurityChallenge.js';
