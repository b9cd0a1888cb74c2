import { PERMISSIONS, type Permission } from '@portal/api';
import { queueLinks } from './requestQueues';

const ALL: readonly Permission[] = PERMISSIONS;
/** The help desk's request permissions (server/src/services/roles.ts): the unlock queue only. */
const HELP_DESK: readonly Permission[] = ['VIEW_REQUEST_SUMMARY', 'LIST_UNLOCK_REQUESTS', 'VIEW_UNLOCK_REQUEST', 'ADJUDICATE_UNLOCK_REQUEST'];

const summary = { total_authchange: 0, total_profilechange: 2, total_mailinglist: 0, total_new: 7, total_usergroup: 1, total_unlock: 0 };

describe('queueLinks', () => {
  it("formats 'name (count)' only when the count is above 0", () => {
    expect(queueLinks(summary, { cac_support: true }, ALL).map((q) => q.label)).toEqual([
      'Account Requests (7)',
      'Denied Account Requests',
      'Authentication Change Requests',
      'Email Change Requests (2)',
      'Mailing List Requests',
      'User Group Requests (1)',
      'Unlock Account Requests',
    ]);
  });

  it('leaves out the authentication change queue without smart-card support', () => {
    expect(queueLinks(summary, { cac_support: false }, ALL).map((q) => q.to)).not.toContain('/list-authentication-change-requests');
  });

  it('shows the names alone until the counts are known', () => {
    expect(queueLinks(undefined, { cac_support: false }, ALL)[0]).toEqual({ label: 'Account Requests', to: '/list-account-requests' });
  });

  it('lists only the queues the reader may open (its list permission): the help desk sees the unlock queue alone', () => {
    expect(queueLinks({ ...summary, total_unlock: 3 }, { cac_support: true }, HELP_DESK)).toEqual([
      { label: 'Unlock Account Requests (3)', to: '/list-unlock-account-requests' },
    ]);
  });

  it('lists the denied search with the account requests (both need the account requests list permission)', () => {
    expect(queueLinks(summary, { cac_support: true }, ['LIST_NEW_ACCOUNT_REQUESTS']).map((q) => q.label)).toEqual(['Account Requests (7)', 'Denied Account Requests']);
  });
});
