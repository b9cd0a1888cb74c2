/**
 * Service subscriptions (spec section 2, /subscriptions; server/docs/self-service.md): the
 * services an account subscribes to itself (direct) and those it holds through the user groups of
 * its memberships (nested). Only the services of the configuration's supported_services are
 * answered or accepted, in the configuration's order.
 */
import { supportedServices, type Service } from '@portal/api';
import { ConflictError, InvalidInputError } from '../errors.js';
import {
  addSubscription,
  findDirectSubscriptions,
  findNestedSubscriptions,
  removeSubscription,
} from '../repositories/subscriptions.js';
import { SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import { targetAccount, type Actor, type SelfServiceContext } from './account-access.js';
import type { Queryable } from '../db/database.js';

export interface Subscriptions {
  direct: Service[];
  nested: Service[];
}

export async function subscriptionsOf(db: Queryable, accountId: number, supported: readonly Service[]): Promise<Subscriptions> {
  const direct = new Set(await findDirectSubscriptions(db, accountId));
  const nested = new Set(await findNestedSubscriptions(db, accountId));
  return { direct: supported.filter((s) => direct.has(s)), nested: supported.filter((s) => nested.has(s)) };
}

/** GET /subscriptions/{username}: the owner with VIEW_SUBSCRIPTIONS, or VIEW_ACCOUNT. */
export async function getSubscriptions(context: SelfServiceContext, actor: Actor, username: string): Promise<Subscriptions> {
  const { account } = await targetAccount(context.db, actor, username, { own: 'VIEW_SUBSCRIPTIONS', any: 'VIEW_ACCOUNT' });
  return subscriptionsOf(context.db, account.id, supportedServices(context.config));
}

/**
 * PUT /subscriptions/{username} { service, subscribed }: the owner with EDIT_SUBSCRIPTIONS, or
 * EDIT_ACCOUNT. A service the configuration does not support: 400 'Unknown service.'.
 * Subscribing twice changes nothing; unsubscribing from a service held only through a group:
 * 409 'This service is held through a group.' (one held both ways loses its direct subscription
 * and stays nested). Answers the subscriptions afterwards.
 */
export async function setSubscription(
  context: SelfServiceContext,
  actor: Actor,
  username: string,
  change: { service: string; subscribed: boolean },
): Promise<Subscriptions> {
  const { account } = await targetAccount(context.db, actor, username, { own: 'EDIT_SUBSCRIPTIONS', any: 'EDIT_ACCOUNT' });
  const supported = supportedServices(context.config);
  const service = supported.find((s) => s === change.service);
  if (service === undefined) throw new InvalidInputError(SELF_SERVICE_MESSAGES.unknownService);
  return context.db.transaction(async (tx) => {
    if (change.subscribed) {
      await addSubscription(tx, account.id, service, context.clock.now());
    } else {
      const current = await subscriptionsOf(tx, account.id, supported);
      if (!current.direct.includes(service) && current.nested.includes(service)) {
        throw new ConflictError(SELF_SERVICE_MESSAGES.heldThroughGroup);
      }
      await removeSubscription(tx, account.id, service);
    }
    return subscriptionsOf(tx, account.id, supported);
  });
}
