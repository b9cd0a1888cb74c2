import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { UserGroupSummary } from './groups.js';

/**
 * GET /usergroups: the groups the caller belongs to and those they may join, by id. A hidden group
 * is listed only to its members, its admins and holders of HIDDEN_GROUP.
 */
export const listUserGroups = defineEndpoint({
  method: 'GET',
  path: '/usergroups',
  access: 'session',
  summary: "The caller's groups and the groups they may join",
  response: Type.Object({ rows: Type.Array(UserGroupSummary) }, closed),
});
