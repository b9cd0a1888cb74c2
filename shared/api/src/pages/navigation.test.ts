import { authChangeRequestKind } from '../requests/kinds/auth-change';
import { membershipRequestKind } from '../requests/kinds/membership';
import { newAccountRequestKind } from '../requests/kinds/new-account';
import { adjudicationPages } from './adjudication';
import { groupsPages } from './groups';
import { pageEntry, queueEntry } from './navigation';
import { tokensPages } from './tokens';

describe('a sidebar entry for a page', () => {
  it("opens the page's path, shown to whom the page lets in", () => {
    expect(pageEntry(adjudicationPages.provisioning, { section: 'platform', order: 20, label: 'Provisioning' })).toEqual({
      section: 'platform',
      order: 20,
      label: 'Provisioning',
      path: '/provisioning',
      permission: 'MANAGE_PROVISIONING',
    });
  });

  it('needs no permission for a page every signed-in user may open, and keeps its condition and submenu', () => {
    const entry = pageEntry(tokensPages.artifactTokens, { section: 'main', order: 50, label: 'Artifactory', group: 'Tokens', when: 'service:artifacts' });
    expect(entry).toEqual({ section: 'main', order: 50, label: 'Artifactory', path: '/tokens/artifactory', group: 'Tokens', when: 'service:artifacts' });
    expect(Object.keys(entry)).not.toContain('permission');
  });

  it('cannot open a page whose path has parameters', () => {
    expect(() => pageEntry(groupsPages.editUserGroupDetails, { section: 'main', order: 1, label: 'Edit' })).toThrow(
      `The sidebar cannot open ${groupsPages.editUserGroupDetails.pattern}: a page with parameters needs them`,
    );
  });
});

describe("a sidebar entry for a kind's queue", () => {
  it("lists the kind's queue in Manage Accounts, to whom may list it, with its count", () => {
    expect(queueEntry(newAccountRequestKind, { order: 20, label: 'Account Requests' })).toEqual({
      section: 'manage-accounts',
      order: 20,
      label: 'Account Requests',
      path: '/list-account-requests',
      permission: 'LIST_NEW_ACCOUNT_REQUESTS',
      count: 'total_new',
    });
  });

  it('is shown only with CAC support when the queue exists only then (spec section 2)', () => {
    expect(queueEntry(authChangeRequestKind, { order: 40, label: 'Authentication Change Requests' })).toMatchObject({
      path: '/list-authentication-change-requests',
      permission: 'LIST_AUTH_CHANGE_REQUESTS',
      count: 'total_authchange',
      when: 'smart-cards',
    });
  });

  it('cannot list a kind decided elsewhere, which has no queue', () => {
    expect(() => queueEntry(membershipRequestKind, { order: 1, label: 'Memberships' })).toThrow('The membership requests have no queue to list: their declaration has none');
  });
});
