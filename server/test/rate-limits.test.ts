/**
 * Rate limits: the calls a visitor makes without a session count against their
 * client address's limit, in the database, so that every server of it counts together; 429 with
 * Retry-After and a sentence saying how long to wait; another address is not held back; a
 * signed-in session has its own limit. On PGlite and PostgreSQL. (Two real server processes on
 * one PostgreSQL: several-servers.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import * as api from '@portal/api';
import { RATE_LIMIT_NAMES, type AnyEndpoint } from '@portal/api';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import {
  ALL_RATE_LIMIT_NAMES,
  clientKey,
  DEFAULT_RATE_LIMITS,
  parseRateLimits,
  RATE_LIMIT_MESSAGES,
  SessionRateLimiter,
  waitInWords,
  type RateLimits,
} from '../src/services/rate-limits.js';
import { API, MINUTE, TestClock, as, createAccount, fetchXsrf, signIn, solvedChallenge } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

/** Every endpoint definition of @portal/api. */
const ENDPOINTS = Object.values(api).filter(
  (value): value is AnyEndpoint => typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'access' in value,
);
/**
 * The public calls that count against no limit: they cost nothing a flood could use; and forward
 * auth, which a service's proxy asks on every request of every user (any per-address limit would
 * refuse a busy page's requests; a flood is the proxy's to stop).
 */
const UNLIMITED_PUBLIC = ['GET /health', 'GET /configuration', 'GET /sessions/logout', 'GET /login-agreement', 'GET /forward-auth/:service'];

const TWO_PER_MINUTE: RateLimits = Object.fromEntries(ALL_RATE_LIMIT_NAMES.map((name) => [name, { max: 2, windowSeconds: 60 }]));
/** On a minute's edge (the next one), so that a window's remaining time is a whole minute; never behind the real time, which the challenges' expiry is checked against. */
const START = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
const A = '198.51.100.7';
const B = '203.0.113.9';
const TOO_MANY = { error: 'Too many attempts from your network. Please wait 1 minute and try again.', code: 429 };

describe('rate limit settings and keys', () => {
  test('PORTAL_RATE_LIMITS changes the limits it names and keeps the others; off turns one or all off', () => {
    assert.deepEqual(parseRateLimits(''), DEFAULT_RATE_LIMITS);
    const changed = parseRateLimits('sign-in=5/10, unlock=off');
    assert.ok(typeof changed !== 'string');
    assert.deepEqual(changed['sign-in'], { max: 5, windowSeconds: 10 });
    assert.equal(changed.unlock, undefined);
    assert.deepEqual(changed.challenge, DEFAULT_RATE_LIMITS.challenge);
    assert.deepEqual(parseRateLimits('off'), {});
  });

  test('a wrong PORTAL_RATE_LIMITS is told in words', () => {
    assert.equal(parseRateLimits('signin=5/10'), "'signin' is not a rate limit (the limits: sign-in, challenge, session-start, verification-mail, account-request, status-check, unlock, token-reset, cac-registration, oidc-token; or 'off' for none)");
    assert.equal(parseRateLimits('sign-in=5'), "sign-in: '5' is not a limit: write calls/seconds, e.g. 30/60 (at least 1 call, a window of 1 to 86400 seconds)");
    assert.equal(parseRateLimits('sign-in=0/60'), "sign-in: '0/60' is not a limit: write calls/seconds, e.g. 30/60 (at least 1 call, a window of 1 to 86400 seconds)");
    assert.equal(parseRateLimits('sign-in=1/90000'), "sign-in: '1/90000' is not a limit: write calls/seconds, e.g. 30/60 (at least 1 call, a window of 1 to 86400 seconds)");
    assert.equal(parseRateLimits('sign-in=1/60,sign-in=2/60'), "'sign-in' is given twice");
  });

  test('a client is counted by its IPv4 address or its IPv6 /64', () => {
    assert.equal(clientKey('192.0.2.1'), '192.0.2.1');
    assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8:1:2::ffff'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
  });

  test('the wait is told in words', () => {
    assert.deepEqual([1, 45, 60, 61, 120, 3600, 3601, 7200].map(waitInWords), ['1 second', '45 seconds', '1 minute', '2 minutes', '2 minutes', '1 hour', '2 hours', '2 hours']);
  });

  test("a session's limit counts per session and starts again with the next window", () => {
    const limiter = new SessionRateLimiter({ max: 2, windowSeconds: 60 });
    const at = (ms: number) => new Date(START.getTime() + ms);
    assert.deepEqual([1, 2, 3].map(() => limiter.count('s1', at(0)).allowed), [true, true, false]);
    assert.deepEqual(limiter.count('s1', at(15_000)), { allowed: false, retryAfterSeconds: 45 });
    assert.equal(limiter.count('s2', at(15_000)).allowed, true);
    assert.equal(limiter.count('s1', at(60_000)).allowed, true);
    assert.equal(new SessionRateLimiter(undefined).count('s1', at(0)).allowed, true);
  });
});

describe('which calls are limited', () => {
  test('every public call declares a limit, except those that cost nothing; no signed-in call declares one', () => {
    const publicCalls = ENDPOINTS.filter((e) => e.access === 'public');
    const unlimited = publicCalls.filter((e) => e.limit === undefined).map((e) => `${e.method} ${e.path}`).sort();
    assert.deepEqual(unlimited, [...UNLIMITED_PUBLIC].sort());
    assert.deepEqual(ENDPOINTS.filter((e) => e.access !== 'public' && e.limit !== undefined).map((e) => e.path), []);
    // Each limit is used by some call, and each limited call says it may answer 429.
    assert.deepEqual([...new Set(publicCalls.map((e) => e.limit).filter((l) => l !== undefined))].sort(), [...RATE_LIMIT_NAMES].sort());
    for (const endpoint of ENDPOINTS) if (endpoint.limit !== undefined || endpoint.access !== 'public') assert.ok(endpoint.errors.includes(429), endpoint.path);
  });
});

/** A request to a limited call, from `address` (through the trusted proxy 127.0.0.1). */
function callFrom(app: App, endpoint: AnyEndpoint, address: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: endpoint.method,
    url: `${API}${endpoint.path.replace(/:([A-Za-z_]+)/g, 'x')}`,
    headers: { 'x-forwarded-for': address, ...headers },
    ...(endpoint.method === 'GET' ? {} : { payload: {} }),
  });
}

for (const kind of DATABASE_KINDS) {
  describe(`rate limits on ${kind}`, () => {
    let fixture: Fixture;
    let db: Database;
    let clock: TestClock;
    let app: App;
    /** A second app on the same database: another server. */
    let other: App;
    let hits = 0;

    before(async () => {
      fixture = createFixture();
      db = await createTestDatabase(kind);
      clock = new TestClock(START);
      const server = { trustedProxies: ['127.0.0.1'], rateLimits: TWO_PER_MINUTE, sessionRateLimit: { max: 3, windowSeconds: 60 } };
      app = createTestApp({ db, fixture, clock, server });
      other = createTestApp({ db, fixture, clock, server });
      await Promise.all([app.ready(), other.ready()]);
    });
    after(async () => {
      await app?.close();
      await other?.close();
      await db?.close();
      fixture?.remove();
    });

    // Each test starts in a window of its own, so that no count carries over.
    const nextWindow = () => clock.advance(MINUTE);

    for (const name of RATE_LIMIT_NAMES) {
      const endpoint = ENDPOINTS.find((e) => e.limit === name) as AnyEndpoint;
      test(`${name} (${endpoint.method} ${endpoint.path}): the third call of an address in a minute is refused, on either server, and another address is not held back`, async () => {
        nextWindow();
        // One call to each server: the count is in the database.
        for (const server of [app, other]) assert.notEqual((await callFrom(server, endpoint, A)).statusCode, 429);
        const refused = await callFrom(app, endpoint, A);
        assert.equal(refused.statusCode, 429, refused.body);
        assert.deepEqual(refused.json(), TOO_MANY);
        assert.equal(refused.headers['retry-after'], '60');
        assert.equal((await callFrom(other, endpoint, A)).statusCode, 429, 'the other server refuses it too');
        assert.notEqual((await callFrom(app, endpoint, B)).statusCode, 429, 'another address is counted apart');
        clock.advance(59_000);
        const later = await callFrom(app, endpoint, A);
        assert.equal(later.statusCode, 429);
        assert.equal(later.headers['retry-after'], '1');
        assert.deepEqual(later.json(), { error: 'Too many attempts from your network. Please wait 1 second and try again.', code: 429 });
        clock.advance(1000);
        assert.notEqual((await callFrom(app, endpoint, A)).statusCode, 429, 'the next window starts afresh');
        hits++;
      });
    }

    test("oidc-token (POST /oidc/token, the OpenID provider's token endpoint): the third call of an address in a minute is refused on either server, in the protocol's error form, and another address is not held back", async () => {
      nextWindow();
      const token = (server: App, address: string) =>
        server.inject({
          method: 'POST',
          url: '/oidc/token',
          headers: { 'x-forwarded-for': address, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'grant_type=authorization_code&code=guessed&redirect_uri=https%3A%2F%2Frp.example.test%2Fcallback',
        });
      for (const server of [app, other]) {
        const answered = await token(server, A);
        assert.equal(answered.statusCode, 400, answered.body);
        assert.equal(answered.json<{ error: string }>().error, 'invalid_request', 'the provider itself answered (no client authentication)');
      }
      const refused = await token(app, A);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.deepEqual(refused.json(), { error: 'temporarily_unavailable', error_description: 'Too many attempts from your network. Please wait 1 minute and try again.' });
      assert.equal(refused.headers['retry-after'], '60');
      assert.equal(refused.headers['cache-control'], 'no-store');
      assert.equal((await token(other, A)).statusCode, 429, 'the other server refuses it too');
      assert.equal((await token(app, B)).statusCode, 400, 'another address is counted apart');
      const discovery = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers: { 'x-forwarded-for': A } });
      assert.equal(discovery.statusCode, 200, 'only the token endpoint counts');
      hits++;
    });

    test('a flood of sign-ins from one address does not stop a person signing in from another', async () => {
      nextWindow();
      const person = await createAccount(db, { username: `rate.person.${kind}` });
      const flood = [];
      for (let i = 0; i < 5; i++) {
        flood.push(
          (
            await app.inject({
              method: 'POST',
              url: `${API}/sessions`,
              headers: { 'x-forwarded-for': A },
              payload: { id: person.username, token: 'wrong', botChallengeResponse: 'x' },
            })
          ).statusCode,
        );
      }
      assert.deepEqual(flood.slice(2), [429, 429, 429]);
      const challenge = await app.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint`, headers: { 'x-forwarded-for': B } });
      assert.equal(challenge.statusCode, 200);
      const signedIn = await app.inject({
        method: 'POST',
        url: `${API}/sessions`,
        headers: { 'x-forwarded-for': B },
        payload: { id: person.username, token: person.token, botChallengeResponse: await solvedChallengeFrom(app, B) },
      });
      assert.equal(signedIn.statusCode, 200, signedIn.body);
    });

    test('a forwarded address is believed only from a trusted proxy: a client cannot dodge its limit by writing one', async () => {
      nextWindow();
      const untrusting = createTestApp({ db, fixture, clock, server: { rateLimits: TWO_PER_MINUTE } });
      try {
        const statuses = [];
        for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
          statuses.push((await untrusting.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint`, headers: { 'x-forwarded-for': address } })).statusCode);
        }
        assert.deepEqual(statuses, [200, 200, 429]);
        // Behind the trusted proxy, addresses the client wrote to the left of the proxy's are not believed.
        nextWindow();
        const spoofed = [];
        for (const written of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
          spoofed.push((await app.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint`, headers: { 'x-forwarded-for': `${written}, ${A}` } })).statusCode);
        }
        assert.deepEqual(spoofed, [200, 200, 429]);
      } finally {
        await untrusting.close();
      }
    });

    test('starting a session counts only when the caller has none', async () => {
      nextWindow();
      const principal = await fetchXsrf(app); // one session start
      for (let i = 0; i < 4; i++) {
        const response = await app.inject({ method: 'GET', url: `${API}/xsrf`, headers: { cookie: principal.cookie } });
        assert.equal(response.statusCode, 200, 'a caller with a session starts none');
      }
      assert.equal((await app.inject({ method: 'GET', url: `${API}/xsrf` })).statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: `${API}/xsrf` })).statusCode, 429, 'the third new session of the address');
    });

    test("a signed-in session's calls count against its own limit, apart from other sessions", async () => {
      nextWindow();
      const user = await createAccount(db, { username: `rate.user.${kind}` });
      const first = await signInFrom(app, user.username, user.token, A);
      const second = await signInFrom(app, user.username, user.token, B);
      const current = (principal: { cookie: string; xsrf: string }) => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(principal) });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await current(first)).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const refused = await current(first);
      assert.deepEqual(refused.json(), { error: RATE_LIMIT_MESSAGES.tooManyFromSession(60), code: 429 });
      assert.equal(refused.json<{ error: string }>().error, 'Too many requests from this session. Please wait 1 minute and try again.');
      assert.equal(refused.headers['retry-after'], '60');
      assert.equal((await current(second)).statusCode, 200, 'another session is not held back');
      nextWindow();
      assert.equal((await current(first)).statusCode, 200);
    });

    test('the counts are rows of the database, one per address, limit and window', async () => {
      const { rows } = await db.query<{ n: number }>("select count(*)::int as n from rate_limit_hits where key like 'sign-in %'");
      assert.ok(Number(rows[0]?.n) >= 2, 'the sign-in counts of both addresses');
      assert.equal(hits, ALL_RATE_LIMIT_NAMES.length, 'every limit was exercised');
    });
  });
}

/** A challenge fetched from `address` and solved. */
async function solvedChallengeFrom(app: App, address: string): Promise<string> {
  return solvedChallenge(withAddress(app, address));
}

/** Signs in from `address` (a challenge from there too) and fetches the new session's token. */
async function signInFrom(app: App, username: string, token: string, address: string): Promise<{ cookie: string; xsrf: string }> {
  const scoped = withAddress(app, address);
  const principal = await signIn(scoped, username, token);
  return principal;
}

/** The app as seen from one client address: every injected request carries it. */
function withAddress(app: App, address: string): App {
  return new Proxy(app, {
    get(target, property, receiver) {
      if (property !== 'inject') return Reflect.get(target, property, receiver) as unknown;
      return (options: InjectOptions) => target.inject({ ...options, headers: { ...(options.headers ?? {}), 'x-forwarded-for': address } });
    },
  });
}
