/**
 * The visitors' calls (spec section 7; contract in server/docs/self-service.md). None carries
 * the anti-forgery header (section 7 exempts them); the verification code travels as a Bearer
 * token and is checked by the server on every call that carries it.
 */
import { apiRequest } from '@portal/shared';

interface Signal {
  readonly signal?: AbortSignal;
}

/** What a verified visitor proves: this address, this code. */
export interface Verified {
  readonly email: string;
  readonly code: string;
}

const bearer = (code: string) => ({ Authorization: `Bearer ${code}` });

/** Step one: mails a code to the address (if it belongs to an account or an account request). */
export async function sendVerificationCode(body: { email: string; botChallengeResponse: string }, options: Signal = {}): Promise<void> {
  await apiRequest('POST', '/mail/verifywithbotchallenge', { ...options, body, xsrf: false });
}

/** Step two: whether the code is good for the address. */
export async function verifyCode({ email, code }: Verified, options: Signal = {}): Promise<void> {
  await apiRequest('POST', '/accounts/verifyrequestisvalid', { ...options, body: { email }, headers: bearer(code), xsrf: false });
}

export interface RequestStatus {
  readonly status: string;
  readonly comment: string;
  readonly username: string;
  /** The adjudicator asked for more information: the applicant must answer. */
  readonly awaiting_response: boolean;
}

export function getRequestStatus({ email, code }: Verified, options: Signal = {}): Promise<RequestStatus> {
  return apiRequest<RequestStatus>('POST', '/requests/new/status', { ...options, body: { email }, headers: bearer(code), xsrf: false });
}

export async function respondToRequest(
  { email, code }: Verified,
  body: { username: string; comment: string },
  options: Signal = {},
): Promise<void> {
  await apiRequest('POST', '/requests/new/pending', { ...options, body: { email, ...body }, headers: bearer(code), xsrf: false });
}

export async function requestUnlock({ email, code }: Verified, reason: string, options: Signal = {}): Promise<void> {
  await apiRequest('POST', '/requests/unlock', { ...options, body: { email, reason }, headers: bearer(code), xsrf: false });
}

/** A new website token; the old one stops working. */
export async function resetWebsiteToken({ email, code }: Verified, options: Signal = {}): Promise<string> {
  const body = await apiRequest<{ ok?: unknown }>('POST', '/accounts/credentials/reset', {
    ...options,
    body: { email },
    headers: bearer(code),
    xsrf: false,
  });
  if (typeof body?.ok !== 'string' || body.ok === '') throw new Error('Failed to generate token');
  return body.ok;
}

/** Registers the smart card the browser presents; approved at once or queued, by configuration. */
export async function registerCac({ email, code }: Verified, reason: string, options: Signal = {}): Promise<{ approved: boolean }> {
  const body = await apiRequest<{ approved?: boolean }>('POST', '/cert/requests/authchange/token', {
    ...options,
    body: { email, reason },
    headers: bearer(code),
    xsrf: false,
  });
  return { approved: body?.approved === true };
}

export interface AccountRequest {
  readonly first_name: string;
  readonly last_name: string;
  readonly username: string;
  readonly email: string;
  readonly phone: string;
  readonly address: { street: string; city: string; state: string; zip: string; country: string };
  readonly company: string;
  readonly project: string;
  readonly reason: string;
  readonly supervisor: { first_name: string; last_name: string; email: string; phone: string };
  readonly botChallengeResponse: string;
}

/** POST /requests/new, or /cert/requests/new when the browser presents the applicant's smart card. */
export async function submitAccountRequest(body: AccountRequest, withCertificate: boolean, options: Signal = {}): Promise<void> {
  await apiRequest('POST', withCertificate ? '/cert/requests/new' : '/requests/new', { ...options, body, xsrf: false });
}
