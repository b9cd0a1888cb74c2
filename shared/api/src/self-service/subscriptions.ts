/**
 * Service subscriptions (server/docs/self-service.md, "Signed in"): the owner with
 * VIEW_SUBSCRIPTIONS / EDIT_SUBSCRIPTIONS, or VIEW_ACCOUNT / EDIT_ACCOUNT for another's.
 */
import { Type, type Static } from 'typebox';
import { closed, UsernameParams } from '../common.js';
import type { Service } from '../config.js';
import { defineEndpoint } from '../endpoint.js';

export const SubscriptionsBody = Type.Object(
  {
    /** Services the account subscribes to itself. */
    direct: Type.Array(Type.String()),
    /** Services held through the user groups of the account's memberships. */
    nested: Type.Array(Type.String()),
  },
  closed,
);
export type Subscriptions = Static<typeof SubscriptionsBody>;

export const getSubscriptions = defineEndpoint({
  method: 'GET',
  path: '/subscriptions/:username',
  access: 'session',
  summary: "An account's services: its own and those held through its groups",
  params: UsernameParams,
  response: SubscriptionsBody,
  errors: [404, 409],
});

export const setSubscription = defineEndpoint({
  method: 'PUT',
  path: '/subscriptions/:username',
  access: 'session',
  summary: 'Subscribes an account to a service, or ends the subscription',
  params: UsernameParams,
  body: Type.Object({ service: Type.String({ maxLength: 100 }), subscribed: Type.Boolean() }, closed),
  response: SubscriptionsBody,
  errors: [404, 409],
});

/** Does the account hold the service, itself or through a group? */
export function holdsService(subscriptions: { readonly direct: readonly string[]; readonly nested: readonly string[] }, service: Service): boolean {
  return subscriptions.direct.includes(service) || subscriptions.nested.includes(service);
}
