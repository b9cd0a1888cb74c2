import { isPermission, permissionFromKebab, permissionsWith, PERMISSIONS } from './permissions';
import { inKindOrder } from './requests/kinds';
import { authChangeRequestKind } from './requests/kinds/auth-change';
import { mailingListRequestKind } from './requests/kinds/mailing-list';
import { membershipRequestKind } from './requests/kinds/membership';
import { newAccountRequestKind } from './requests/kinds/new-account';
import { profileChangeRequestKind } from './requests/kinds/profile-change';
import { unlockRequestKind } from './requests/kinds/unlock';
import { userGroupRequestKind } from './requests/kinds/user-group';

/** The spec's kinds, in their file names' order: their declared order puts them in the spec's. */
const SPEC_KINDS = [authChangeRequestKind, mailingListRequestKind, membershipRequestKind, newAccountRequestKind, profileChangeRequestKind, unlockRequestKind, userGroupRequestKind];

describe('permissions', () => {
  it('names each request kind with list, view and adjudicate, in the order of spec section 6', () => {
    const all = permissionsWith(inKindOrder(SPEC_KINDS));
    const stems = ['AUTH_CHANGE', 'EMAIL_CHANGE', 'MAILING_LIST', 'NEW_ACCOUNT', 'USER_GROUP', 'UNLOCK', 'MEMBERSHIP'];
    expect(all.slice(all.indexOf('MANAGE_PROVISIONING') + 1, all.indexOf('allow-profilechange'))).toEqual(
      stems.flatMap((stem) => [`LIST_${stem}_REQUESTS`, `VIEW_${stem}_REQUEST`, `ADJUDICATE_${stem}_REQUEST`]),
    );
    expect(all.slice(-3)).toEqual(['allow-profilechange', 'allow-authchange', 'allow-renewal']);
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((permission) => !PERMISSIONS.includes(permission as never))).toHaveLength(stems.length * 3);
  });

  it('reads the kebab-case spelling of the spec too', () => {
    expect(permissionFromKebab('view-auth-change-request')).toBe('VIEW_AUTH_CHANGE_REQUEST');
    expect(permissionFromKebab('allow-renewal')).toBe('allow-renewal');
    expect(permissionFromKebab('delete-everything')).toBeUndefined();
    expect(isPermission('VIEW_ACCOUNT')).toBe(true);
    expect(isPermission('view_account')).toBe(false);
    expect(isPermission('LIST_SERVICE_TOKEN_REQUESTS')).toBe(true);
    expect(isPermission('LIST_NEW_ACCOUNT_REQUEST')).toBe(false);
  });
});
