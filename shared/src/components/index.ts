/**
 * @portal/shared/components: pieces several remotes show (account and certificate panels, the
 * search form, paged tables, not-found and failure views, date formats) and use (loading what a
 * page shows: useLoaded; where the reader came from: cameFrom). Unlike the root of
 * @portal/shared these are NOT a federated singleton: each remote bundles the ones it uses, so a
 * remote can ship a change to them without the host being rebuilt.
 *
 * Rule (the linter enforces it): a file here imports what must be one per page (stores,
 * transport, page title) from '@portal/shared', never by a relative path, which would give the
 * remote a second copy of a store.
 */
export * from './AccountDetails.js';
export * from './AccountSearchTable.js';
export * from './AccountGroupsTable.js';
export * from './AdjudicationFailure.js';
export * from './CertificatePanel.js';
export * from './DecisionPanel.js';
export * from './NotFoundView.js';
export * from './ReasonText.js';
export * from './Pager.js';
export * from './RequestTable.js';
export * from './UpdatesTable.js';
export * from './SearchForm.js';
export * from './cameFrom.js';
export * from './dates.js';
export * from './text.js';
export * from './useLoaded.js';
export * from './lazyPage.js';
export * from './ServiceAccess.js';
export * from './ServiceSignIns.js';
