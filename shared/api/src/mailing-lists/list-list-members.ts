import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ListIdParams, ListMember } from './mailing-lists.js';

/** GET /mailinglists/{id}/members: the eligible users and whether each is subscribed (moderators). */
export const listListMembers = defineEndpoint({
  method: 'GET',
  path: '/mailinglists/:id/members',
  access: 'session',
  summary: "A mailing list's eligible users (moderators)",
  params: ListIdParams,
  response: Type.Object({ rows: Type.Array(ListMember) }, closed),
  errors: [404],
});
