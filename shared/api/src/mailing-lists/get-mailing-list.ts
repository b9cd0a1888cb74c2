import { defineEndpoint } from '../endpoint.js';
import { ListIdParams, MailingList } from './mailing-lists.js';

/** GET /mailinglists/{id}: one list as the caller sees it; 404 for a list they may not see. */
export const getMailingList = defineEndpoint({
  method: 'GET',
  path: '/mailinglists/:id',
  access: 'session',
  summary: 'A mailing list',
  params: ListIdParams,
  response: MailingList,
  errors: [404],
});
