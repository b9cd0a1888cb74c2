/**
 * Service subscriptions (spec section 7; server/docs/self-service.md, "Signed in"):
 * GET and PUT /subscriptions/{username}.
 */
import { SERVICES, type Service } from '../config.js';
import { apiRequest } from './client.js';

type Options = { readonly signal?: AbortSignal };

export interface Subscriptions {
  /** Services the account subscribes to itself. */
  readonly direct: readonly Service[];
  /** Services held through the user groups of the account's memberships. */
  readonly nested: readonly Service[];
}

interface SubscriptionsBody {
  direct?: readonly string[];
  nested?: readonly string[];
}

const known = (ids: readonly string[] | undefined): Service[] =>
  (ids ?? []).filter((id): id is Service => (SERVICES as readonly string[]).includes(id));

function asSubscriptions(body: SubscriptionsBody): Subscriptions {
  return { direct: known(body.direct), nested: known(body.nested) };
}

const subscriptionsPath = (username: string) => `/subscriptions/${encodeURIComponent(username)}`;

/** GET /subscriptions/{username}. */
export async function getSubscriptions(username: string, options: Options = {}): Promise<Subscriptions> {
  return asSubscriptions(await apiRequest<SubscriptionsBody>('GET', subscriptionsPath(username), options));
}

/** PUT /subscriptions/{username} { service, subscribed }: answers the subscriptions after the change. */
export async function setSubscription(username: string, service: Service, subscribed: boolean, options: Options = {}): Promise<Subscriptions> {
  return asSubscriptions(
    await apiRequest<SubscriptionsBody>('PUT', subscriptionsPath(username), { ...options, body: { service, subscribed } }),
  );
}

/** Does the account hold the service, itself or through a group? */
export function holdsService(subscriptions: Subscriptions, service: Service): boolean {
  return subscriptions.direct.includes(service) || subscriptions.nested.includes(service);
}
