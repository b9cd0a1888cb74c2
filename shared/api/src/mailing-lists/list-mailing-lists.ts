import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { MailingList } from './mailing-lists.js';

/** GET /mailinglists: the lists of the caller's groups (eligible or moderated). */
export const listMailingLists = defineEndpoint({
  method: 'GET',
  path: '/mailinglists',
  access: 'session',
  summary: "The mailing lists of the caller's groups",
  response: Type.Object({ rows: Type.Array(MailingList) }, closed),
});
