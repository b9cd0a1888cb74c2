/**
 * remote-adjudication's sidebar entries (spec section 2): the account search, the account kinds'
 * queues with their counts, the denied account requests and provisioning. Its build writes them
 * into its record (docs/federation.md); each path and permission is its page's or kind's.
 */
import { adjudicationPages, pageEntry, queueEntry } from '@portal/api';
import { authChangeRequestKind } from '@portal/api/request-kinds/auth-change';
import { newAccountRequestKind } from '@portal/api/request-kinds/new-account';
import { profileChangeRequestKind } from '@portal/api/request-kinds/profile-change';
import { unlockRequestKind } from '@portal/api/request-kinds/unlock';

export const navigation = [
  pageEntry(adjudicationPages.manageAccounts, { section: 'manage-accounts', order: 10, label: 'Search Accounts' }),
  queueEntry(newAccountRequestKind, { order: 20, label: 'Account Requests' }),
  pageEntry(adjudicationPages.deniedRequests, { section: 'manage-accounts', order: 30, label: 'Denied Account Requests' }),
  queueEntry(authChangeRequestKind, { order: 40, label: 'Authentication Change Requests' }),
  queueEntry(profileChangeRequestKind, { order: 50, label: 'Email Change Requests' }),
  queueEntry(unlockRequestKind, { order: 80, label: 'Unlock Account Requests' }),
  pageEntry(adjudicationPages.provisioning, { section: 'platform', order: 20, label: 'Provisioning' }),
];
