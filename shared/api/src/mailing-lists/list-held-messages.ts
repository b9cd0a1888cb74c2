import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { HeldMessage, ListIdParams } from './mailing-lists.js';

/** GET /mailinglists/{id}/held: the messages the list holds, oldest first (moderators). */
export const listHeldMessages = defineEndpoint({
  method: 'GET',
  path: '/mailinglists/:id/held',
  access: 'session',
  summary: "A mailing list's held messages (moderators)",
  params: ListIdParams,
  response: Type.Object({ rows: Type.Array(HeldMessage) }, closed),
  errors: [404],
});

/** GET /moderation/held: every message held on the lists the caller moderates, oldest first (beyond the spec). */
export const listAllHeldMessages = defineEndpoint({
  method: 'GET',
  path: '/moderation/held',
  access: 'session',
  summary: 'The held messages of every list the caller moderates',
  response: Type.Object({ rows: Type.Array(HeldMessage) }, closed),
});
