import { OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { UserGroupRequestBody } from './groups.js';

/** POST /requests/usergroup: asks for a new user group; an adjudicator decides in the user group queue. */
export const requestUserGroup = defineEndpoint({
  method: 'POST',
  path: '/requests/usergroup',
  access: 'session',
  summary: 'Requests a new user group',
  body: UserGroupRequestBody,
  response: OkCode,
  errors: [409],
});
