/**
 * @portal/shared: what the host and the remotes share at run time. One copy is loaded in the
 * page (a strict singleton), so its stores are the same store everywhere.
 */
export * from './config.js';
export * from './contract.js';
export * from './permissions.js';
export * from './semver.js';
export * from './messages.js';
export * from './api/client.js';
export * from './api/configuration.js';
export * from './stores/configuration.js';
export * from './ui/PageTitle.js';
export * from './ui/PendingPage.js';
export * from './routes.js';
export * from './api/sessions.js';
export * from './api/botChallenge.js';
export * from './api/requestSummary.js';
export * from './stores/session.js';
export * from './ui/Authorized.js';
export * from './navigation.js';
export * from './validation.js';
export * from './rules.js';
export * from './ui/form/TextField.js';
export * from './ui/SecurityChallenge.js';
export * from './ui/form/TextAreaField.js';
export * from './ui/form/submission.js';
export * from './api/accounts.js';
export * from './api/subscriptions.js';
export * from './api/selfRequests.js';
export * from './services.js';
export * from './dates.js';
export * from './ui/AccountDetails.js';
export * from './ui/CertificatePanel.js';
export * from './ui/ConfirmModal.js';
export * from './ui/form/CheckboxField.js';
export * from './api/accountAdmin.js';
export * from './api/requests.js';
export * from './ui/Pager.js';
export * from './ui/SearchForm.js';
export * from './ui/NotFoundView.js';
export * from './ui/AdjudicationFailure.js';
export * from './ui/AccountGroupsTable.js';
