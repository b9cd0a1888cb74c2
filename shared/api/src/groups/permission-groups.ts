import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { GroupName, UserGroup } from './groups.js';

export const PermissionGroupParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), group: GroupName }, closed);

/** POST /usergroups/{id}/permission-group/{group}: adds an additional permission group (EDIT_USER_GROUP in the group). */
export const addPermissionGroup = defineEndpoint({
  method: 'POST',
  path: '/usergroups/:id/permission-group/:group',
  access: { groupPermission: 'EDIT_USER_GROUP' },
  summary: 'Adds an additional permission group to a user group',
  params: PermissionGroupParams,
  response: UserGroup,
  errors: [404, 409],
});

/** DELETE /usergroups/{id}/permission-group/{group}: deletes one; its members lose it (EDIT_USER_GROUP in the group). */
export const deletePermissionGroup = defineEndpoint({
  method: 'DELETE',
  path: '/usergroups/:id/permission-group/:group',
  access: { groupPermission: 'EDIT_USER_GROUP' },
  summary: 'Deletes an additional permission group of a user group',
  params: PermissionGroupParams,
  response: UserGroup,
  errors: [404],
});
