/**
 * The signed-in user's own account (definitions in @portal/api): the profile update, the service
 * subscriptions, and the requests about the account (email change and its address check,
 * authentication change either way, the annual renewal). What the profile page itself calls is in
 * profile.ts.
 */
import * as api from '@portal/api';
import { REASON_OPTIONAL, RENEWAL_REASON, SERVICES, type Account, type OkCode, type ProfileUpdate, type Service } from '@portal/api';
import { ApiError, call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

/** Answers the updated account. */
export function updateAccount(username: string, profile: ProfileUpdate, options: Options = {}): Promise<Account> {
  return call(api.updateProfile, { params: { username }, body: profile }, options);
}

/** The services an account holds, itself (direct) or through its groups (nested); unknown ids left out. */
export interface Subscriptions {
  readonly direct: readonly Service[];
  readonly nested: readonly Service[];
}

const known = (ids: readonly string[] | undefined): Service[] => (ids ?? []).filter((id): id is Service => (SERVICES as readonly string[]).includes(id));
const asSubscriptions = (body: api.Subscriptions): Subscriptions => ({ direct: known(body.direct), nested: known(body.nested) });

export async function getSubscriptions(username: string, options: Options = {}): Promise<Subscriptions> {
  return asSubscriptions(await call(api.getSubscriptions, { params: { username } }, options));
}

/** Answers the subscriptions after the change. */
export async function setSubscription(username: string, service: Service, subscribed: boolean, options: Options = {}): Promise<Subscriptions> {
  return asSubscriptions(await call(api.setSubscription, { params: { username }, body: { service, subscribed } }, options));
}

export interface EmailChangeRequest {
  /** Whose email changes: the signed-in user's own, or another's (a surrogate request). */
  readonly username: string;
  /** The new address. */
  readonly email: string;
  readonly reason: string;
}

export function requestEmailChange(request: EmailChangeRequest, options: Options = {}): Promise<OkCode> {
  return call(api.requestEmailChange, { body: request }, options);
}

/** True when an account or an open request uses the address (200), false when none does (404); other failures are thrown. */
export async function emailExists(email: string, options: Options = {}): Promise<boolean> {
  try {
    await call(api.emailExists, { query: { email } }, options);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** From the smart card to a website token; the reason must already carry the government sponsor (withSponsor). */
export function requestTokenAuthentication(reason: string, options: Options = {}): Promise<OkCode> {
  return call(api.requestTokenAuthentication, { body: { reason, authentication: ['token'] } }, options);
}

/** From a website token to the smart card the browser presents with the call. */
export function requestCertificateAuthentication(reason: string, options: Options = {}): Promise<OkCode> {
  const body = { reason: reason.trim() === '' ? REASON_OPTIONAL : reason.trim(), authentication: ['certificate' as const] };
  return call(api.requestCertificateAuthentication, { body }, options);
}

/** Certifies the account for a year. */
export function requestRenewal(username: string, options: Options = {}): Promise<OkCode> {
  return call(api.requestRenewal, { body: { username, reason: RENEWAL_REASON } }, options);
}
