/**
 * remote-groups' pages: groups, memberships and group administration (spec section 2). They check
 * the caller's permissions in the group themselves (the server answers what the caller may do in
 * each group), so each is open to any signed-in user. Each form's bare address (no group) leads
 * to /groups.
 */
import { link, page, SIGNED_IN } from './page.js';

export const groupsPages = {
  groups: page('/groups', 'Groups', SIGNED_IN),
  requestUserGroup: page('/request-user-group', 'Request User Group', SIGNED_IN),
  editUserGroupDetails: page('/edit-usergroup-details/:usergroupId', 'Edit User Group Details', SIGNED_IN),
  requestMembership: page('/request-membership/:usergroupId/:username?', 'Request Membership', SIGNED_IN),
  changeMembership: page('/change-membership/:usergroupId/:username?', 'Change Membership', SIGNED_IN),
  groupAdministration: page('/group-administration/:usergroupId/:requestId?', 'Group Administration', SIGNED_IN),
  addUserToGroup: page('/add-user-to-group/:usergroupId/:username?', 'Add User To Group', SIGNED_IN),
} as const;

const p = groupsPages;
export const groupsLinks = {
  groups: () => link(p.groups, {}),
  requestUserGroup: () => link(p.requestUserGroup, {}),
  editUserGroupDetails: (groupId: string) => link(p.editUserGroupDetails, { usergroupId: groupId }),
  requestMembership: (groupId: string, username?: string, groups?: readonly string[]) =>
    link(p.requestMembership, { usergroupId: groupId, username }, { groups: groups?.join(',') }),
  changeMembership: (groupId: string, username?: string) => link(p.changeMembership, { usergroupId: groupId, username }),
  groupAdministration: (groupId: string, requestId?: number | string) => link(p.groupAdministration, { usergroupId: groupId, requestId }),
  addUserToGroup: (groupId: string, username?: string) => link(p.addUserToGroup, { usergroupId: groupId, username }),
};
