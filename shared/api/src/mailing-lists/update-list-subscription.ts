import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ListIdParams, MailingList } from './mailing-lists.js';

export const SubscriptionBody = Type.Object(
  {
    is_subscribed: Type.Boolean(),
    is_regular_subscription: Type.Boolean(),
    /** A moderator changes a member's subscription (member administration). */
    user_email: Type.Optional(Type.String({ maxLength: 320 })),
  },
  closed,
);
export type SubscriptionBody = Static<typeof SubscriptionBody>;

/** POST /mailinglists/{id}: subscribe, unsubscribe or switch digest, for oneself or (moderators) a member. */
export const updateListSubscription = defineEndpoint({
  method: 'POST',
  path: '/mailinglists/:id',
  access: 'session',
  summary: 'Change a subscription to a mailing list',
  params: ListIdParams,
  body: SubscriptionBody,
  response: MailingList,
  errors: [404],
});
