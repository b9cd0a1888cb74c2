/**
 * The visitors' calls (spec section 7; definitions in @portal/api visitors/). None carries the
 * anti-forgery header (section 7 exempts them); the verification code travels as a Bearer
 * token and is checked by the server on every call that carries it.
 */
import * as api from '@portal/api';
import type { AccountRequest as AccountRequestBody, AccountRequestStatus } from '@portal/api';
import { call } from '@portal/shared';

interface Signal {
  readonly signal?: AbortSignal;
}

/** What a verified visitor proves: this address, this code. */
export interface Verified {
  readonly email: string;
  readonly code: string;
}

const bearer = (code: string, options: Signal) => ({ ...options, headers: { Authorization: `Bearer ${code}` } });

/** Step one: mails a code to the address (if it belongs to an account or an account request). */
export async function sendVerificationCode(body: { email: string; botChallengeResponse: string }, options: Signal = {}): Promise<void> {
  await call(api.sendVerificationCode, { body }, options);
}

/** Step two: whether the code is good for the address. */
export async function verifyCode({ email, code }: Verified, options: Signal = {}): Promise<void> {
  await call(api.verifyCode, { body: { email } }, bearer(code, options));
}

export type RequestStatus = AccountRequestStatus;

export function getRequestStatus({ email, code }: Verified, options: Signal = {}): Promise<RequestStatus> {
  return call(api.getAccountRequestStatus, { body: { email } }, bearer(code, options));
}

export async function respondToRequest({ email, code }: Verified, body: { username: string; comment: string }, options: Signal = {}): Promise<void> {
  await call(api.respondToAccountRequest, { body: { email, ...body } }, bearer(code, options));
}

export async function requestUnlock({ email, code }: Verified, reason: string, options: Signal = {}): Promise<void> {
  await call(api.requestUnlock, { body: { email, reason } }, bearer(code, options));
}

/** A new website token; the old one stops working. */
export async function resetWebsiteToken({ email, code }: Verified, options: Signal = {}): Promise<string> {
  const body = await call(api.resetWebsiteToken, { body: { email } }, bearer(code, options));
  if (typeof body?.ok !== 'string' || body.ok === '') throw new Error('Failed to generate token');
  return body.ok;
}

/** Registers the smart card the browser presents; approved at once or queued, by configuration. */
export async function registerCac({ email, code }: Verified, reason: string, options: Signal = {}): Promise<{ approved: boolean }> {
  const body = await call(api.registerCac, { body: { email, reason } }, bearer(code, options));
  return { approved: body?.approved === true };
}

export type AccountRequest = Required<Omit<AccountRequestBody, 'address' | 'supervisor'>> & {
  readonly address: { street: string; city: string; state: string; zip: string; country: string };
  readonly supervisor: { first_name: string; last_name: string; email: string; phone: string };
};

/** POST /requests/new, or /cert/requests/new when the browser presents the applicant's smart card. */
export async function submitAccountRequest(body: AccountRequest, withCertificate: boolean, options: Signal = {}): Promise<void> {
  await call(withCertificate ? api.submitCertificateAccountRequest : api.submitAccountRequest, { body }, options);
}
