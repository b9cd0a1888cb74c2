/**
 * Requests a signed-in user makes about their own account (spec section 7; server/docs/
 * self-service.md, "Signed in" and "Renewal"): an email change (also by a surrogate), the
 * email-exists check, an authentication change either way, and the annual renewal.
 */
import { ApiError, apiRequest } from './client.js';

type Options = { readonly signal?: AbortSignal };

export interface OkAnswer {
  readonly ok: true;
  readonly code: number;
}

export interface EmailChangeRequest {
  /** Whose email changes: the signed-in user's own, or another's (a surrogate request). */
  readonly username: string;
  /** The new address. */
  readonly email: string;
  readonly reason: string;
}

/** POST /requests/profilechange: asks for an email change. */
export function requestEmailChange(request: EmailChangeRequest, options: Options = {}): Promise<OkAnswer> {
  return apiRequest<OkAnswer>('POST', '/requests/profilechange', { ...options, body: request });
}

/**
 * GET /requests/profilechange/email-exists?email=: true when an account or an open request uses
 * the address (200), false when none does (404); other failures are thrown.
 */
export async function emailExists(email: string, options: Options = {}): Promise<boolean> {
  try {
    await apiRequest<OkAnswer>('GET', `/requests/profilechange/email-exists?${new URLSearchParams({ email })}`, options);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** 'Reason optional' is sent for a change to CAC without a reason (spec section 5). */
export const REASON_OPTIONAL = 'Reason optional';

/**
 * POST /requests/authchange { reason, authentication: ['token'] }: from CAC to a website token.
 * The reason must already carry the government sponsor (withSponsor in rules.ts).
 */
export function requestTokenAuthentication(reason: string, options: Options = {}): Promise<OkAnswer> {
  return apiRequest<OkAnswer>('POST', '/requests/authchange', { ...options, body: { reason, authentication: ['token'] } });
}

/**
 * POST /cert/requests/authchange { reason, authentication: ['certificate'] }: from a website token
 * to CAC; the browser presents the card's certificate with the call.
 */
export function requestCertificateAuthentication(reason: string, options: Options = {}): Promise<OkAnswer> {
  const body = { reason: reason.trim() === '' ? REASON_OPTIONAL : reason.trim(), authentication: ['certificate'] };
  return apiRequest<OkAnswer>('POST', '/cert/requests/authchange', { ...options, body });
}

/** The reason the renewal sends (spec section 9). */
export const RENEWAL_REASON = 'Certifying';

/** POST /requests/renewal { username, reason: 'Certifying' }: certifies the account for a year. */
export function requestRenewal(username: string, options: Options = {}): Promise<OkAnswer> {
  return apiRequest<OkAnswer>('POST', '/requests/renewal', { ...options, body: { username, reason: RENEWAL_REASON } });
}
