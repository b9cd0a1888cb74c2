import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { GroupIdParams, GroupMailingList } from './groups.js';

/** GET /usergroups/{id}/mailinglists: the group's mailing lists (VIEW_MEMBERSHIP in the group). */
export const listGroupMailingLists = defineEndpoint({
  method: 'GET',
  path: '/usergroups/:id/mailinglists',
  access: { groupPermission: 'VIEW_MEMBERSHIP' },
  summary: "A user group's mailing lists",
  params: GroupIdParams,
  response: Type.Object({ rows: Type.Array(GroupMailingList) }, closed),
  errors: [404],
});
