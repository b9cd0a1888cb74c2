import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { HeldActionSchema, ListIdParams } from './mailing-lists.js';

export const ModerationBody = Type.Object(
  {
    messages: Type.Array(
      Type.Object({ messageId: Type.Integer({ minimum: 1 }), action: HeldActionSchema, sender: Type.String({ maxLength: 320 }) }, closed),
      { maxItems: 1000 },
    ),
    /** Every deferred message of the list is discarded too (the discard-deferred box). */
    discard_deferred: Type.Optional(Type.Boolean()),
  },
  closed,
);
export type ModerationBody = Static<typeof ModerationBody>;

/** POST /mailinglists/{id}/held: the moderator's actions (deferred ones omitted). */
export const moderateHeldMessages = defineEndpoint({
  method: 'POST',
  path: '/mailinglists/:id/held',
  access: 'session',
  summary: 'Act on held messages (moderators)',
  params: ListIdParams,
  body: ModerationBody,
  response: Type.Object({ ok: Type.Literal(true), accepted: Type.Integer(), discarded: Type.Integer() }, closed),
  errors: [404],
});
