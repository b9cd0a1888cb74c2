/**
 * Service subscriptions (server/docs/self-service.md, "Signed in"): the owner with
 * VIEW_SUBSCRIPTIONS / EDIT_SUBSCRIPTIONS, or VIEW_ACCOUNT / EDIT_ACCOUNT for another's.
 */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import type { Service } from '../config.js';

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

/** Does the account hold the service, itself or through a group? */
export function holdsService(subscriptions: { readonly direct: readonly string[]; readonly nested: readonly string[] }, service: Service): boolean {
  return subscriptions.direct.includes(service) || subscriptions.nested.includes(service);
}
