/**
 * Sign-in helpers for API tests: accounts with known website tokens, a clock tests can move,
 * the bot challenge solved as the browser widget does, and sessions (cookie + anti-forgery token).
 */
import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { App } from '../src/app.js';
import type { Queryable } from '../src/db/database.js';
import { addAccountRole, addAccountUpdate, setWebsiteTokenHash, type PlatformRole } from '../src/repositories/accounts.js';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../src/plugins/security.js';
import type { Clock } from '../src/services/clock.js';
import { hash } from '@node-rs/argon2';
import { ARGON2ID, generateWebsiteToken } from '../src/services/tokens.js';

export const API = '/accounts/rest';

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  private time: number;
  constructor(start: Date = new Date()) {
    this.time = start.getTime();
  }
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export type AccountState = 'active' | 'locked' | 'closed';

export interface TestAccount {
  id: number;
  username: string;
  email: string;
  token: string;
}

let tokenHashCache: { token: string; hash: string } | undefined;

/**
 * A test account's token hash: Argon2id as the portal stores it, at 1 MiB and one pass instead of
 * the portal's 19 MiB and two. The portal checks a hash at the parameters written in it, so a
 * sign-in of a test account runs the portal's own check, in under 1 ms instead of ~30 ms here
 * (the matrices sign in a thousand times); the tokens the portal itself issues are hashed at its
 * own parameters (seed.test.ts reads them in the demo accounts' hashes).
 */
export function hashTestToken(token: string): Promise<string> {
  return hash(token, { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}

/**
 * An account with a website token. Every test account shares one token unless `token` is given
 * (one Argon2 hash per test process instead of one per account); the helpers of the sign-in
 * tests that need distinct tokens pass their own.
 */
export async function createAccount(
  db: Queryable,
  options: { username: string; email?: string; roles?: PlatformRole[]; state?: AccountState; token?: string | null },
): Promise<TestAccount> {
  const email = options.email ?? `${options.username}@example.test`;
  const state = options.state ?? 'active';
  const { rows } = await db.query<{ id: string | number }>(
    'insert into accounts (username, email, first_name, last_name, active, closed) values ($1, $2, $3, $4, $5, $6) returning id',
    [options.username, email, 'Test', 'Person', state === 'active', state === 'closed'],
  );
  const id = Number(rows[0]?.id);
  for (const role of options.roles ?? ['user']) await addAccountRole(db, id, role);
  if (state === 'locked') await addAccountUpdate(db, { accountId: id, comment: 'Locked for a test.', username: 'admin', active: false });
  let token = '';
  if (options.token !== null) {
    if (options.token !== undefined) {
      token = options.token;
      await setWebsiteTokenHash(db, id, await hashTestToken(token));
    } else {
      tokenHashCache ??= await (async () => {
        const shared = generateWebsiteToken();
        return { token: shared, hash: await hashTestToken(shared) };
      })();
      token = tokenHashCache.token;
      await setWebsiteTokenHash(db, id, tokenHashCache.hash);
    }
  }
  return { id, username: options.username, email, token };
}

/** A challenge from the server, solved and encoded exactly as the altcha widget sends it. */
export async function solvedChallenge(app: App): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint` });
  assert.equal(response.statusCode, 200, response.body);
  const { ok: challenge } = response.json<{ ok: { parameters: never; signature: string } }>();
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution, 'the challenge is solvable');
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}

/** The session cookie a response sets (name=value), or undefined. */
export function sessionCookieOf(response: { cookies: { name: string; value: string }[] }): string | undefined {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE || c.name === SECURE_SESSION_COOKIE);
  return cookie && cookie.value !== '' ? `${cookie.name}=${cookie.value}` : undefined;
}

export interface Principal {
  /** The Cookie header (empty: none). */
  cookie: string;
  /** The anti-forgery token of that session. */
  xsrf: string;
}

/** GET /xsrf with a cookie (or none): the token and the session cookie (a new one if set). */
export async function fetchXsrf(app: App, cookie = ''): Promise<Principal> {
  const response = await app.inject({ method: 'GET', url: `${API}/xsrf`, headers: cookie ? { cookie } : {} });
  assert.equal(response.statusCode, 200, response.body);
  return { cookie: sessionCookieOf(response) ?? cookie, xsrf: response.json<{ ok: string }>().ok };
}

/** An anonymous session with its token. */
export function anonymous(app: App): Promise<Principal> {
  return fetchXsrf(app);
}

export async function postSignIn(app: App, id: string, token: string, cookie = '') {
  return app.inject({
    method: 'POST',
    url: `${API}/sessions`,
    headers: cookie ? { cookie } : {},
    payload: { id, token, botChallengeResponse: await solvedChallenge(app) },
  });
}

/** Signs in through POST /sessions and fetches the new session's anti-forgery token. */
export async function signIn(app: App, id: string, token: string): Promise<Principal> {
  const response = await postSignIn(app, id, token);
  assert.equal(response.statusCode, 200, response.body);
  const cookie = sessionCookieOf(response);
  assert.ok(cookie, 'sign-in sets the session cookie');
  return fetchXsrf(app, cookie);
}

/** Headers of a request as a principal. */
export function as(principal: Principal): Record<string, string> {
  return { ...(principal.cookie ? { cookie: principal.cookie } : {}), 'x-xsrf-token': principal.xsrf };
}
