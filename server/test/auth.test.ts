/**
 * Sessions, anti-forgery and access enforcement, through app.inject on PGlite (and PostgreSQL
 * when DATABASE_URL is set). The authorization matrix and the anti-forgery checks are generated
 * from the routes the app registers, so a route added later is covered without anyone
 * remembering to; they walk every route on one database (helpers.ts, ROUTE_WALK_DATABASE).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SERVICES } from '@portal/api';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { listApiRoutes, type ApiRoute } from '../src/plugins/route-access.js';
import type { PlatformRole } from '../src/repositories/accounts.js';
import { permissionsOf, rolePermissions } from '../src/services/roles.js';
import type { SecurityContext } from '../src/services/security-context.js';
import { XSRF_TOKENS_KEPT, isXsrfTokenOf, xsrfTokenOf } from '../src/services/sessions.js';
import {
  API,
  HOUR,
  MINUTE,
  TestClock,
  anonymous,
  as,
  createAccount,
  fetchXsrf,
  postSignIn,
  sessionCookieOf,
  signIn,
  type Principal,
  type TestAccount,
} from './auth-helpers.js';
import { DATABASE_KINDS, ROUTE_WALK_DATABASE, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const NOT_SIGNED_IN = { error: 'Not signed in', code: 401 };
const FORBIDDEN = { error: 'Forbidden', code: 403 };
const INVALID_XSRF = { error: 'Invalid anti-forgery token', code: 403 };

/**
 * The token with its first character changed: always wrong. (A fixed ending would sometimes be
 * the token itself, and the last base64url character carries padding bits.)
 */
function otherToken(token: string): string {
  return `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/**
 * A request for a route as listed: path parameters filled in ('x', or the caller's own username
 * for :username, since a signed-in caller may always act on their own account), no body.
 */
function requestFor(route: ApiRoute, headers: Record<string, string>, username?: string) {
  return {
    method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'username' && username ? username : 'x')),
    headers,
  };
}

async function sessionRows(db: Database): Promise<{ id_hash: string; account_id: number | null }[]> {
  const { rows } = await db.query<{ id_hash: string; account_id: string | number | null }>('select id_hash, account_id from sessions order by created_at');
  return rows.map((r) => ({ id_hash: r.id_hash, account_id: r.account_id === null ? null : Number(r.account_id) }));
}

for (const kind of DATABASE_KINDS) {
  describe(`sessions, anti-forgery and access on ${kind}`, () => {
    let db: Database;
    let app: App;
    let clock: TestClock;
    const accounts: Record<string, TestAccount> = {};

    before(async () => {
      db = await createTestDatabase(kind);
      clock = new TestClock();
      // Every service supported: the token routes answer 404 without the artifact repository.
      app = createTestApp({ db, fixture, clock, portal: { supported_services: SERVICES.join(',') } });
      await app.ready();
      const people: [string, PlatformRole][] = [
        ['admin', 'site-admin'],
        ['adjudicator', 'adjudicator'],
        ['helpdesk', 'help-desk'],
        ['user', 'user'],
        ['locked.one', 'user'],
        ['closed.one', 'user'],
      ];
      for (const [username, role] of people) accounts[username] = await createAccount(db, { username, roles: [role] });
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    const account = (username: string): TestAccount => {
      const found = accounts[username];
      assert.ok(found, username);
      return found;
    };

    /** A session of an account that was then locked or closed behind its back (the row survives). */
    async function disabledPrincipal(username: 'locked.one' | 'closed.one'): Promise<Principal> {
      await db.query('update accounts set active = true, closed = false where username = $1', [username]);
      const principal = await signIn(app, username, account(username).token);
      await db.query(
        username === 'locked.one' ? 'update accounts set active = false where username = $1' : 'update accounts set closed = true, active = false where username = $1',
        [username],
      );
      return principal;
    }

    type PrincipalName = 'anonymous' | PlatformRole | 'locked' | 'closed';
    const PRINCIPALS: readonly PrincipalName[] = ['anonymous', 'site-admin', 'adjudicator', 'help-desk', 'user', 'locked', 'closed'];
    const USERNAME_OF: Record<PlatformRole, string> = { 'site-admin': 'admin', adjudicator: 'adjudicator', 'help-desk': 'helpdesk', user: 'user' };

    async function principal(name: PrincipalName): Promise<Principal> {
      if (name === 'anonymous') return anonymous(app);
      if (name === 'locked') return disabledPrincipal('locked.one');
      if (name === 'closed') return disabledPrincipal('closed.one');
      const username = USERNAME_OF[name];
      return signIn(app, username, account(username).token);
    }

    describe('the session cookie', () => {
      test('without TLS: portal-session, HttpOnly, SameSite=Lax, Path=/, not Secure; only its hash is stored', async () => {
        const response = await app.inject({ method: 'GET', url: `${API}/xsrf` });
        assert.equal(response.statusCode, 200);
        const [cookie, ...others] = response.cookies;
        assert.equal(others.length, 0);
        assert.ok(cookie);
        assert.equal(cookie.name, 'portal-session');
        assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
        assert.equal(cookie.path, '/');
        assert.equal(cookie.httpOnly, true);
        assert.equal(cookie.sameSite, 'Lax');
        assert.equal(cookie.secure, undefined);
        assert.equal(cookie.maxAge, 12 * 3_600, 'as long as the session lives at most (PORTAL_SESSION_ABSOLUTE_HOURS, 12 by default)');
        const { rows } = await db.query<{ account_id: unknown; n: number }>(
          'select account_id, (select count(*)::int from sessions where id_hash = $2) as n from sessions where id_hash = $1',
          [sha256(cookie.value), cookie.value],
        );
        assert.deepEqual(rows, [{ account_id: null, n: 0 }], 'an anonymous session, stored by its SHA-256 only');
      });

      test('GET /xsrf and GET /sessions/httpsession keep an existing session', async () => {
        const first = await anonymous(app);
        const again = await app.inject({ method: 'GET', url: `${API}/xsrf`, headers: { cookie: first.cookie } });
        assert.deepEqual(again.json(), { ok: first.xsrf });
        assert.equal(sessionCookieOf(again), undefined, 'no new cookie');
        const http = await app.inject({ method: 'GET', url: `${API}/sessions/httpsession`, headers: { cookie: first.cookie } });
        assert.equal(http.statusCode, 200);
        assert.deepEqual(http.json(), { ok: true });
        assert.equal(sessionCookieOf(http), undefined);
        const fresh = await app.inject({ method: 'GET', url: `${API}/sessions/httpsession` });
        assert.deepEqual(fresh.json(), { ok: true });
        const cookie = sessionCookieOf(fresh);
        assert.ok(cookie);
        assert.equal((await sessionRows(db)).filter((r) => r.id_hash === sha256(cookieValue(cookie))).length, 1);
      });

      test('sign-in issues a new session id: the anonymous one is deleted and no longer works', async () => {
        const anon = await anonymous(app);
        const response = await postSignIn(app, 'user', account('user').token, anon.cookie);
        assert.equal(response.statusCode, 200);
        const signedIn = sessionCookieOf(response);
        assert.ok(signedIn);
        assert.notEqual(signedIn, anon.cookie);
        const rows = await sessionRows(db);
        assert.equal(rows.some((r) => r.id_hash === sha256(cookieValue(anon.cookie))), false, 'the anonymous session is gone');
        assert.deepEqual(rows.filter((r) => r.id_hash === sha256(cookieValue(signedIn))), [
          { id_hash: sha256(cookieValue(signedIn)), account_id: account('user').id },
        ]);
        const old = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(anon) });
        assert.equal(old.statusCode, 401);
        assert.deepEqual(old.json(), NOT_SIGNED_IN);
        const current = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(await fetchXsrf(app, signedIn)) });
        assert.equal(current.statusCode, 200);
        assert.deepEqual(current.json(), { username: 'user', permissions: permissionsOf(['user']) });
      });

      test('sign-out deletes the session, clears the cookie, and the old cookie no longer works', async () => {
        const user = await principal('user');
        const response = await app.inject({ method: 'GET', url: `${API}/sessions/logout`, headers: as(user) });
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), { ok: true });
        const cleared = response.cookies.find((c) => c.name === 'portal-session');
        assert.ok(cleared);
        assert.equal(cleared.value, '');
        assert.equal(cleared.maxAge, 0);
        assert.equal((await sessionRows(db)).some((r) => r.id_hash === sha256(cookieValue(user.cookie))), false);
        const after = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(user) });
        assert.equal(after.statusCode, 401);
        assert.deepEqual(after.json(), NOT_SIGNED_IN);
        // Not signed in at all: still 200.
        const anon = await anonymous(app);
        const again = await app.inject({ method: 'GET', url: `${API}/sessions/logout`, headers: as(anon) });
        assert.equal(again.statusCode, 200);
        assert.deepEqual(again.json(), { ok: true });
      });

      test("signing out everywhere ends every session of the caller's account, this one too, and no one else's", async () => {
        const here = await principal('user');
        const elsewhere = await principal('user');
        const other = await principal('adjudicator');
        const current = (who: Principal) => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(who) });
        assert.equal((await current(elsewhere)).statusCode, 200);
        const response = await app.inject({ method: 'POST', url: `${API}/sessions/end-all`, headers: as(here) });
        assert.equal(response.statusCode, 200);
        const { ended } = response.json<{ ok: true; ended: number }>();
        assert.ok(ended >= 2, `ended ${ended}: both of these, and any earlier test left`);
        const left = await db.query<{ n: number }>('select count(*)::int as n from sessions where account_id = $1', [account('user').id]);
        assert.equal(left.rows[0]!.n, 0);
        assert.equal(response.cookies.find((c) => c.name === 'portal-session')?.maxAge, 0, 'the cookie is cleared');
        for (const who of [here, elsewhere]) {
          const after = await current(who);
          assert.equal(after.statusCode, 401);
          assert.deepEqual(after.json(), NOT_SIGNED_IN);
        }
        assert.equal((await current(other)).statusCode, 200, "another account's session goes on");
        // Not signed in: 401; without the anti-forgery token: 403, and nothing ended.
        const anon = await anonymous(app);
        assert.equal((await app.inject({ method: 'POST', url: `${API}/sessions/end-all`, headers: as(anon) })).statusCode, 401);
        const forged = await app.inject({ method: 'POST', url: `${API}/sessions/end-all`, headers: { cookie: other.cookie } });
        assert.equal(forged.statusCode, 403);
        assert.equal((await current(other)).statusCode, 200);
      });

      test('idle expiry is exact to the second: a session ends 30 minutes after its last use, never earlier, at most 1 s later; last_seen_at is written at most once a second', async () => {
        const idle = 30 * MINUTE;
        const [early, late] = [await principal('user'), await principal('user')];
        const current = (who: Principal) => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(who) });
        const lastSeen = async (who: Principal) =>
          (await db.query<{ t: Date }>('select last_seen_at as t from sessions where id_hash = $1', [sha256(cookieValue(who.cookie))])).rows[0]?.t.getTime();
        // 100 ms past a whole second, then 10.5 minutes on: between the whole minutes a coarser rule would write at.
        clock.advance(1000 - (clock.now().getTime() % 1000) + 100 + 10 * MINUTE + 30_000);
        const usedAt = clock.now().getTime();
        for (const who of [early, late]) assert.equal((await current(who)).statusCode, 200);
        assert.equal(await lastSeen(late), usedAt + 900, 'the use is recorded as the next whole second');
        clock.advance(400);
        assert.equal((await current(early)).statusCode, 200);
        assert.equal(await lastSeen(early), usedAt + 900, 'not written again within that second');
        clock.advance(600);
        assert.equal((await current(early)).statusCode, 200);
        const earlyUsedAt = clock.now().getTime();
        assert.equal(await lastSeen(early), earlyUsedAt + 900, 'written again in the next second');

        clock.advance(idle - 1);
        assert.equal((await current(early)).statusCode, 200, 'idle for 1 ms less than 30 minutes: still valid');
        clock.advance(usedAt + idle + 1000 - clock.now().getTime());
        const expired = await current(late);
        assert.equal(expired.statusCode, 401, 'idle for 30 minutes and 1 second: ended');
        assert.deepEqual(expired.json(), NOT_SIGNED_IN);
        assert.equal(await lastSeen(late), undefined, 'the expired session is purged');
      });

      test('absolute expiry: a session in use ends 12 hours after sign-in', async () => {
        const user = await principal('user');
        const current = () => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(user) });
        for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
          clock.advance(20 * MINUTE);
          assert.equal((await current()).statusCode, 200, `after ${elapsed / MINUTE + 20} minutes`);
        }
        clock.advance(20 * MINUTE);
        const expired = await current();
        assert.equal(expired.statusCode, 401);
        assert.deepEqual(expired.json(), NOT_SIGNED_IN);
        assert.equal((await sessionRows(db)).some((r) => r.id_hash === sha256(cookieValue(user.cookie))), false);
      });

      test('creating a session purges the expired sessions of others', async () => {
        await anonymous(app);
        clock.advance(31 * MINUTE);
        const fresh = await anonymous(app);
        assert.deepEqual(await sessionRows(db), [{ id_hash: sha256(cookieValue(fresh.cookie)), account_id: null }]);
      });

      test('a role change applies at once', async () => {
        const user = await principal('user');
        const requests = () => app.inject({ method: 'GET', url: `${API}/requests`, headers: as(user) });
        assert.equal((await requests()).statusCode, 403);
        await db.query("insert into account_roles (account_id, role) values ($1, 'help-desk')", [account('user').id]);
        const allowed = await requests();
        assert.equal(allowed.statusCode, 200);
        assert.deepEqual(allowed.json(), {
          total_authchange: 0,
          total_profilechange: 0,
          total_mailinglist: 0,
          total_new: 0,
          total_usergroup: 0,
          total_unlock: 0,
        });
        await db.query("delete from account_roles where account_id = $1 and role = 'help-desk'", [account('user').id]);
        assert.deepEqual((await requests()).json(), FORBIDDEN);
      });

      test('a locked or closed account whose session row survived is refused', async () => {
        for (const username of ['locked.one', 'closed.one'] as const) {
          const disabled = await disabledPrincipal(username);
          const response = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(disabled) });
          assert.equal(response.statusCode, 401, username);
          assert.deepEqual(response.json(), NOT_SIGNED_IN);
          // /xsrf replaces such a session with an anonymous one.
          const replaced = await fetchXsrf(app, disabled.cookie);
          assert.notEqual(replaced.cookie, disabled.cookie);
          assert.equal((await sessionRows(db)).some((r) => r.id_hash === sha256(cookieValue(disabled.cookie))), false);
        }
      });
    });

    /** A test that walks every route: on one database (ROUTE_WALK_DATABASE says why). */
    const routeWalk = (name: string, fn: () => Promise<void> | void): void => {
      if (kind === ROUTE_WALK_DATABASE) test(name, fn);
    };

    describe('anti-forgery', () => {
      routeWalk('the routes are the expected ones, each declaring its anti-forgery rule', () => {
        const exempt = listApiRoutes(app).filter((r) => !r.xsrf).map((r) => `${r.method} ${r.url.slice(API.length)}`);
        assert.deepEqual(exempt.sort(), [
          // Not in spec section 7's list: the history export, a read opened by a plain link (server/docs/adjudication.md).
          'GET /accounts/:username/history.csv',
          'GET /accounts/botchallengeendpoint',
          'GET /configuration',
          'GET /federation/history.csv',
          // Not in spec section 7's list: a service's reverse proxy asks it with the browser's cookies, and has no token.
          'GET /forward-auth/:service',
          'GET /health',
          // Not in spec section 7's list: the login agreement, read before sign-in like the configuration.
          'GET /login-agreement',
          'GET /openapi.json',
          'GET /provisioning/history.csv',
          'GET /sessions/httpsession',
          'GET /xsrf',
          'POST /accounts/credentials/reset',
          'POST /accounts/verifyrequestisvalid',
          'POST /cert/requests/authchange/token',
          'POST /cert/requests/new',
          'POST /cert/sessions',
          'POST /mail/verifywithbotchallenge',
          'POST /requests/new',
          'POST /requests/new/pending',
          'POST /requests/new/status',
          'POST /requests/unlock',
          'POST /sessions',
        ]);
      });

      routeWalk('every non-exempt route: a missing, wrong or other session\'s token → 403, before the access check', async () => {
        const routes = listApiRoutes(app).filter((r) => r.xsrf);
        assert.ok(routes.length >= 3);
        for (const route of routes) {
          const admin = await principal('site-admin');
          const other = await principal('site-admin');
          const anon = await anonymous(app);
          const cases: [string, Record<string, string>][] = [
            ['no token', { cookie: admin.cookie }],
            ['no token, no session', {}],
            ['a wrong token', { cookie: admin.cookie, 'x-xsrf-token': otherToken(admin.xsrf) }],
            ['an empty token', { cookie: admin.cookie, 'x-xsrf-token': '' }],
            ["another session's token", { cookie: admin.cookie, 'x-xsrf-token': other.xsrf }],
            ["an anonymous session's token", { cookie: admin.cookie, 'x-xsrf-token': anon.xsrf }],
            ['a token without its cookie', { 'x-xsrf-token': admin.xsrf }],
          ];
          for (const [name, headers] of cases) {
            const response = await app.inject(requestFor(route, headers));
            assert.equal(response.statusCode, 403, `${route.method} ${route.url} with ${name}`);
            assert.deepEqual(response.json(), INVALID_XSRF);
          }
          const valid = await app.inject(requestFor(route, as(admin)));
          // Past the anti-forgery check (a route may still refuse, e.g. RENEW_ACCOUNT, which no role grants).
          assert.notDeepEqual(valid.json(), INVALID_XSRF, `${route.method} ${route.url} with the session's token`);
        }
      });

      routeWalk('every exempt route works without a token', async () => {
        const expected: Record<string, number> = {
          'GET /accounts/:username/history.csv': 401, // still needs a signed-in session with VIEW_ACCOUNT
          'GET /accounts/botchallengeendpoint': 200,
          'GET /configuration': 200,
          'GET /health': 200,
          'GET /openapi.json': 200,
          'GET /sessions/httpsession': 200,
          'GET /xsrf': 200,
          'POST /cert/sessions': 400, // no certificate: the sign-in itself answers
          'POST /sessions': 400, // no body: validation answers
          // The visitors' flows (server/docs/self-service.md): no body, validation answers.
          'POST /accounts/credentials/reset': 400,
          'POST /accounts/verifyrequestisvalid': 400,
          'POST /cert/requests/authchange/token': 400,
          'POST /cert/requests/new': 400,
          'POST /mail/verifywithbotchallenge': 400,
          'POST /requests/new': 400,
          'POST /requests/new/pending': 400,
          'POST /requests/new/status': 400,
          'POST /requests/unlock': 400,
        };
        for (const route of listApiRoutes(app).filter((r) => !r.xsrf)) {
          const response = await app.inject(requestFor(route, {}));
          const key = `${route.method} ${route.url.slice(API.length)}`;
          assert.notEqual(response.statusCode, 403, key);
          if (key in expected) assert.equal(response.statusCode, expected[key], key);
        }
        const signedIn = await postSignIn(app, 'admin', account('admin').token);
        assert.equal(signedIn.statusCode, 200, 'POST /sessions signs in without a token');
      });

      test('the token changes at sign-in and at sign-out, and the old one is refused', async () => {
        const anon = await anonymous(app);
        const response = await postSignIn(app, 'admin', account('admin').token, anon.cookie);
        const cookie = sessionCookieOf(response);
        assert.ok(cookie);
        const admin = await fetchXsrf(app, cookie);
        assert.notEqual(admin.xsrf, anon.xsrf);
        const withOld = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: { cookie, 'x-xsrf-token': anon.xsrf } });
        assert.equal(withOld.statusCode, 403);
        assert.deepEqual(withOld.json(), INVALID_XSRF);
        assert.equal((await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(admin) })).statusCode, 200);

        const logout = await app.inject({ method: 'GET', url: `${API}/sessions/logout`, headers: as(admin) });
        assert.equal(logout.statusCode, 200);
        const next = await anonymous(app);
        assert.notEqual(next.xsrf, admin.xsrf);
        const afterLogout = await app.inject({ method: 'GET', url: `${API}/sessions/logout`, headers: { cookie: next.cookie, 'x-xsrf-token': admin.xsrf } });
        assert.equal(afterLogout.statusCode, 403);
        assert.deepEqual(afterLogout.json(), INVALID_XSRF);
      });

      test('a token once accepted is still compared at every call: wrong tokens after it are refused, and with its session ended it is not signed in', async () => {
        const admin = await signIn(app, 'admin', account('admin').token);
        const other = await signIn(app, 'admin', account('admin').token);
        const current = (headers: Record<string, string>) => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers });
        assert.equal((await current(as(admin))).statusCode, 200);
        for (const token of [otherToken(admin.xsrf), other.xsrf, admin.xsrf.slice(1), `${admin.xsrf}A`, '']) {
          const response = await current({ cookie: admin.cookie, 'x-xsrf-token': token });
          assert.equal(response.statusCode, 403, token);
          assert.deepEqual(response.json(), INVALID_XSRF);
        }
        assert.equal((await current(as(admin))).statusCode, 200);
        assert.equal((await app.inject({ method: 'GET', url: `${API}/sessions/logout`, headers: as(admin) })).statusCode, 200);
        const ended = await current(as(admin));
        assert.equal(ended.statusCode, 401);
        assert.deepEqual(ended.json(), NOT_SIGNED_IN);
      });
    });

    describe('authorization matrix (every route × every principal)', () => {
      routeWalk('the expected status follows from each route\'s declaration', async () => {
        const routes = listApiRoutes(app);
        assert.ok(routes.length >= 10, 'the matrix sees the registered routes');
        for (const route of routes) {
          for (const name of PRINCIPALS) {
            const who = await principal(name);
            const ownUsername = name === 'anonymous' || name === 'locked' || name === 'closed' ? undefined : USERNAME_OF[name];
            const response = await app.inject(requestFor(route, as(who), ownUsername));
            const where = `${route.method} ${route.url} as ${name}: ${response.statusCode} ${response.body}`;
            const status = response.statusCode;
            assert.ok(status < 500, where);
            const signedIn = name !== 'anonymous' && name !== 'locked' && name !== 'closed';
            if (route.access.kind === 'public') {
              assert.ok(status !== 401 && status !== 403, where);
            } else if (!signedIn) {
              assert.equal(status, 401, where);
              assert.deepEqual(response.json(), NOT_SIGNED_IN, where);
            } else if (route.access.kind === 'session' && route.groupPermission) {
              // Checked inside the group the call names: a holder of the permission site-wide is let
              // through; anyone else may hold it only in a group, so a refusal is the plain 403.
              if (rolePermissions(name).includes(route.groupPermission)) assert.ok(status !== 401 && status !== 403, where);
              else if (status === 403) assert.deepEqual(response.json(), FORBIDDEN, where);
              else assert.notEqual(status, 401, where);
            } else if (route.access.kind === 'session') {
              assert.ok(status !== 401 && status !== 403, where);
            } else {
              const holds = rolePermissions(name).includes(route.access.permission);
              if (holds) assert.ok(status !== 401 && status !== 403, where);
              else {
                assert.equal(status, 403, where);
                assert.deepEqual(response.json(), FORBIDDEN, where);
              }
            }
          }
        }
      });
    });
  });
}

describe('anti-forgery tokens kept once accepted (services/sessions.ts)', () => {
  // A context whose secret counts its uses: each derivation of a token asks for it once.
  function countingContext(): { context: SecurityContext; derivations: () => number } {
    let asked = 0;
    const context = {
      secret: async () => {
        asked++;
        return 'the xsrf secret';
      },
    } as unknown as SecurityContext;
    return { context, derivations: () => asked };
  }
  const idOf = (n: number) => `session-${String(n).padStart(35, '0')}`;

  test('a right token is derived once and then compared; a wrong one is never kept; at most XSRF_TOKENS_KEPT, the oldest going first', async () => {
    const { context, derivations } = countingContext();
    const first = idOf(0);
    const token = await xsrfTokenOf(context, first);
    const before = derivations();
    assert.equal(await isXsrfTokenOf(context, first, otherToken(token)), false);
    assert.equal(await isXsrfTokenOf(context, first, otherToken(token)), false);
    assert.equal(derivations() - before, 2, 'a wrong token is not kept');
    assert.equal(await isXsrfTokenOf(context, first, token), true);
    assert.equal(await isXsrfTokenOf(context, first, token), true);
    assert.equal(await isXsrfTokenOf(context, first, otherToken(token)), false);
    assert.equal(await isXsrfTokenOf(context, first, undefined), false);
    assert.equal(derivations() - before, 3, 'the right token was derived once, then compared');
    for (let n = 1; n < XSRF_TOKENS_KEPT; n++) assert.equal(await isXsrfTokenOf(context, idOf(n), await xsrfTokenOf(context, idOf(n))), true);
    const full = derivations();
    assert.equal(await isXsrfTokenOf(context, first, token), true);
    assert.equal(derivations(), full, `${XSRF_TOKENS_KEPT} are kept`);
    assert.equal(await isXsrfTokenOf(context, idOf(XSRF_TOKENS_KEPT), await xsrfTokenOf(context, idOf(XSRF_TOKENS_KEPT))), true);
    const more = derivations();
    assert.equal(await isXsrfTokenOf(context, first, token), true);
    assert.equal(derivations(), more + 1, 'the oldest kept went first');
    assert.equal(await isXsrfTokenOf(context, first, otherToken(token)), false);
  });
});
