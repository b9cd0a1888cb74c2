import { queueLinks } from './requestQueues';

const summary = { total_authchange: 0, total_profilechange: 2, total_mailinglist: 0, total_new: 7, total_usergroup: 1, total_unlock: 0 };

describe('queueLinks', () => {
  it("formats 'name (count)' only when the count is above 0", () => {
    expect(queueLinks(summary, { cac_support: true }).map((q) => q.label)).toEqual([
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
    expect(queueLinks(summary, { cac_support: false }).map((q) => q.to)).not.toContain('/list-authentication-change-requests');
  });

  it('shows the names alone until the counts are known', () => {
    expect(queueLinks(undefined, { cac_support: false })[0]).toEqual({ label: 'Account Requests', to: '/list-account-requests' });
  });
});
