/** Sessions and sign-in (spec section 7, "Sessions and login"): the session's life, which also decides the anti-forgery token's. */
import * as api from '@portal/api';
import type { SessionBody, TokenSignIn } from '@portal/api';
import { call, clearXsrfToken } from './client.js';

export type { TokenSignIn };

export interface Session {
  readonly username: string;
  /**
   * The session's permissions as the server gives them, those this build's @portal/api does not
   * know included: a remote shipped after the host may bring a permission of its own, and the
   * server is the guard, so the chrome and shared components only show or hide by them.
   */
  readonly permissions: readonly string[];
}

function asSession(body: SessionBody): Session {
  return { username: body.username, permissions: body.permissions };
}

type Options = { signal?: AbortSignal };

/** GET /sessions/current: the signed-in user; an ApiError with status 401 when nobody is. */
export async function getCurrentSession(options: Options = {}): Promise<Session> {
  return asSession(await call(api.getCurrentSession, {}, options));
}

/** POST /sessions. The session id changes, so the anti-forgery token is fetched afresh after. */
export async function signInWithToken(credentials: TokenSignIn, options: Options = {}): Promise<Session> {
  try {
    return asSession(await call(api.signInWithToken, { body: credentials }, options));
  } finally {
    clearXsrfToken();
  }
}

/** POST /cert/sessions: sign in with the client certificate the browser presents. */
export async function signInWithCertificate(options: Options = {}): Promise<Session> {
  try {
    return asSession(await call(api.signInWithCertificate, {}, options));
  } finally {
    clearXsrfToken();
  }
}

/** GET /sessions/logout: ends the session on the server. */
export async function signOut(options: Options = {}): Promise<void> {
  try {
    await call(api.signOut, {}, options);
  } finally {
    clearXsrfToken();
  }
}
