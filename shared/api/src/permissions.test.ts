import { isPermission, permissionFromKebab, PERMISSIONS } from './permissions';

describe('permissions', () => {
  it('names each request kind with list, view and adjudicate', () => {
    for (const kind of ['AUTH_CHANGE', 'EMAIL_CHANGE', 'MAILING_LIST', 'NEW_ACCOUNT', 'USER_GROUP', 'UNLOCK', 'MEMBERSHIP']) {
      expect(PERMISSIONS).toEqual(
        expect.arrayContaining([`LIST_${kind}_REQUESTS`, `VIEW_${kind}_REQUEST`, `ADJUDICATE_${kind}_REQUEST`]),
      );
    }
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('reads the kebab-case spelling of the spec too', () => {
    expect(permissionFromKebab('view-auth-change-request')).toBe('VIEW_AUTH_CHANGE_REQUEST');
    expect(permissionFromKebab('allow-renewal')).toBe('allow-renewal');
    expect(permissionFromKebab('delete-everything')).toBeUndefined();
    expect(isPermission('VIEW_ACCOUNT')).toBe(true);
    expect(isPermission('view_account')).toBe(false);
  });
});
