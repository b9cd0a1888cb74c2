/**
 * remote-adjudication's own pages: account administration, the denied account requests' search
 * and provisioning (spec section 2). Each request queue's pages are its kind's (its declaration's
 * `queue`, requests/kinds/), served by the remote that owns the kind.
 */
import { link, needs, page } from './page.js';

export const adjudicationPages = {
  manageAccounts: page('/manage-accounts', 'Search Accounts', needs('SEARCH_ACCOUNTS')),
  accountAdministration: page('/manage-accounts/:username', 'Account Administration', needs('VIEW_ACCOUNT')),
  /** The denied new account requests: searched, not queued; their details are the new account's. */
  deniedRequests: page('/list-denied-account-requests', 'Denied Account Requests', needs('LIST_NEW_ACCOUNT_REQUESTS')),
  deniedRequest: page('/list-denied-account-requests/:requestId', 'Denied Account Request', needs('VIEW_NEW_ACCOUNT_REQUEST')),
  provisioning: page('/provisioning', 'Provisioning', needs('MANAGE_PROVISIONING')),
} as const;

const p = adjudicationPages;
export const adjudicationLinks = {
  manageAccounts: (username?: string) => (username === undefined ? link(p.manageAccounts, {}) : link(p.accountAdministration, { username })),
  provisioning: () => link(p.provisioning, {}),
};
