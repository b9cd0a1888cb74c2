import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { TokenGroup } from './tokens.js';

/** GET /tokens/groups: the groups the caller may create tokens for, with the levels offered in each. */
export const listTokenGroups = defineEndpoint({
  method: 'GET',
  path: '/tokens/groups',
  access: 'session',
  summary: 'The groups the caller may create tokens for',
  response: Type.Object({ rows: Type.Array(TokenGroup) }, closed),
  errors: [404],
});
