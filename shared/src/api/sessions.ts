/** Sessions and sign-in (spec section 7, "Sessions and login"). */
import { isPermission, type Permission } from '../permissions.js';
import { apiRequest, clearXsrfToken } from './client.js';

export interface Session {
  readonly username: string;
  readonly permissions: readonly Permission[];
}

type SessionBody = { username: string; permissions: string[] };

function asSession(body: SessionBody): Session {
  return { username: body.username, permissions: body.permissions.filter(isPermission) };
}

type Options = { signal?: AbortSignal };

/** GET /sessions/current: the signed-in user; an ApiError with status 401 when nobody is. */
export async function getCurrentSession(options: Options = {}): Promise<Session> {
  return asSession(await apiRequest<SessionBody>('GET', '/sessions/current', options));
}

export interface TokenSignIn {
  /** Username or email. */
  readonly id: string;
  /** The website token. */
  readonly token: string;
  readonly botChallengeResponse: string;
}

/** POST /sessions. The session id changes, so the anti-forgery token is fetched afresh after. */
export async function signInWithToken(credentials: TokenSignIn, options: Options = {}): Promise<Session> {
  try {
    return asSession(await apiRequest<SessionBody>('POST', '/sessions', { ...options, body: credentials, xsrf: false }));
  } finally {
    clearXsrfToken();
  }
}

/** POST /cert/sessions: sign in with the client certificate the browser presents. */
export async function signInWithCertificate(options: Options = {}): Promise<Session> {
  try {
    return asSession(await apiRequest<SessionBody>('POST', '/cert/sessions', { ...options, body: {}, xsrf: false }));
  } finally {
    clearXsrfToken();
  }
}

/** GET /sessions/logout: ends the session on the server. */
export async function signOut(options: Options = {}): Promise<void> {
  try {
    await apiRequest<{ ok: boolean }>('GET', '/sessions/logout', options);
  } finally {
    clearXsrfToken();
  }
}
