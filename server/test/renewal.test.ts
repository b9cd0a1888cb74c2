/**
 * Annual certification (server/docs/self-service.md, "Renewal"): an account certified more
 * than 365 days ago (or, never certified, created then) carries only RENEW_ACCOUNT and
 * allow-renewal, every signed-in route but two refuses it, and POST /requests/renewal certifies
 * it (on PGlite, and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SERVICES } from '@portal/api';
import { listApiRoutes } from '../src/plugins/route-access.js';
import { isRenewalDue } from '../src/services/renewal.js';
import { permissionsOf } from '../src/services/roles.js';
import { API, anonymous, as, createAccount, postSignIn, signIn } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, failingDatabase, type Fixture } from './helpers.js';
import { DAY, FORBIDDEN, RENEWAL_REQUIRED, call, createWorld, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const RENEWAL_PERMISSIONS = ['RENEW_ACCOUNT', 'allow-renewal'];
/** The only signed-in routes that answer while the account must renew. */
const DURING_RENEWAL = ['GET /sessions/current', 'POST /requests/renewal'];

describe('when renewal is due', () => {
  test('more than 365 days after the last certification, or after creation when never certified', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const daysAgo = (days: number, ms = 0) => new Date(now.getTime() - days * DAY - ms);
    assert.equal(isRenewalDue(daysAgo(365), daysAgo(1000), now), false);
    assert.equal(isRenewalDue(daysAgo(365, 1), daysAgo(1000), now), true);
    assert.equal(isRenewalDue(daysAgo(10), daysAgo(1000), now), false, 'the last certification counts, not the creation');
    assert.equal(isRenewalDue(null, daysAgo(364), now), false);
    assert.equal(isRenewalDue(null, daysAgo(366), now), true);
  });

  test('a route declaring duringRenewal other than true/false stops the app from starting', async () => {
    const app = createTestApp({ db: failingDatabase(), fixture });
    app.register(async (api) => {
      api.get('/odd', { config: { access: 'session', duringRenewal: 'yes' as unknown as boolean } }, async () => ({}));
    }, { prefix: API });
    await assert.rejects(async () => void (await app.ready()), (error: Error) => {
      assert.equal(error.name, 'RouteDeclarationError');
      assert.match(error.message, /GET \/accounts\/rest\/odd: config\.duringRenewal must be true or false, not 'yes'/);
      return true;
    });
    await app.close();
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`renewal on ${kind}`, () => {
    let world: World;
    before(async () => {
      // Every service: the token routes answer 404 without the artifact repository.
      world = await createWorld(kind, fixture, { portal: { supported_services: SERVICES.join(',') } });
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    async function certifiedDaysAgo(days: number | null, options: { roles?: ('user' | 'site-admin')[]; createdDaysAgo?: number } = {}) {
      const account = await createAccount(world.db, { username: unique('certifier'), roles: options.roles ?? ['user'] });
      const now = world.clock.now().getTime();
      await world.db.query('update accounts set last_certified = $2, created_at = $3 where id = $1', [
        account.id,
        days === null ? null : new Date(now - days * DAY),
        new Date(now - (options.createdDaysAgo ?? 0) * DAY),
      ]);
      return account;
    }

    test('certified 400 days ago: only the two permissions, refused everywhere else, renews, then has its normal permissions', async () => {
      const { app, db, clock } = world;
      const account = await certifiedDaysAgo(400);

      // Sign-in answers the renewal permissions, so the host sends the user to /renew-account.
      const signInResponse = await postSignIn(app, account.username, account.token);
      assert.equal(signInResponse.statusCode, 200, signInResponse.body);
      assert.deepEqual(signInResponse.json(), { username: account.username, permissions: RENEWAL_PERMISSIONS });
      const who = await signIn(app, account.username, account.token);
      const current = await call(app, who, 'GET', '/sessions/current');
      assert.equal(current.statusCode, 200);
      assert.deepEqual(current.json(), { username: account.username, permissions: RENEWAL_PERMISSIONS });

      // Every other signed-in route: 403 with the renewal message (before its own permission or body is looked at).
      const routes = listApiRoutes(app).filter((r) => r.access.kind !== 'public');
      assert.ok(routes.length >= 10);
      for (const route of routes) {
        const key = `${route.method} ${route.url.slice(API.length)}`;
        if (DURING_RENEWAL.includes(key)) continue;
        const response = await app.inject({ method: route.method as 'GET', url: route.url.replace(/:username/g, account.username).replace(/:([A-Za-z_]+)/g, 'x'), headers: as(who) });
        assert.equal(response.statusCode, 403, key);
        assert.deepEqual(response.json(), RENEWAL_REQUIRED, key);
      }
      // Public routes still answer (sign-out among them).
      assert.equal((await app.inject({ method: 'GET', url: `${API}/configuration` })).statusCode, 200);

      // Someone else's username, or no reason: refused, nothing certified.
      const otherName = await call(app, who, 'POST', '/requests/renewal', { username: 'user', reason: 'Certifying' });
      assert.equal(otherName.statusCode, 403);
      assert.deepEqual(otherName.json(), FORBIDDEN);
      for (const [reason, message] of [['  ', 'Please enter a reason'], ['r'.repeat(151), 'Must be less than 150 characters (151/150)']]) {
        const response = await call(app, who, 'POST', '/requests/renewal', { username: account.username, reason });
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { error: message, code: 400, fields: { reason: message } });
      }
      const before = await db.query<{ last_certified: Date | string }>('select last_certified from accounts where id = $1', [account.id]);
      assert.notEqual(new Date(before.rows[0]?.last_certified ?? 0).getTime(), clock.now().getTime());

      // Renew (the screen sends 'Certifying'), the username in any letter case.
      const renewed = await call(app, who, 'POST', '/requests/renewal', { username: account.username.toUpperCase(), reason: 'Certifying' });
      assert.equal(renewed.statusCode, 200, renewed.body);
      assert.deepEqual(renewed.json(), { ok: true, code: 200 });
      const { rows } = await db.query<{ last_certified: Date | string }>('select last_certified from accounts where id = $1', [account.id]);
      assert.equal(new Date(rows[0]?.last_certified ?? 0).toISOString(), clock.now().toISOString());
      const updates = await db.query('select comment, username, active from account_updates where account_id = $1', [account.id]);
      assert.deepEqual(updates.rows, [{ comment: 'Account renewed: Certifying', username: account.username, active: true }]);

      // The same session now has the account's normal permissions and reaches everything.
      const after = await call(app, who, 'GET', '/sessions/current');
      assert.deepEqual(after.json(), { username: account.username, permissions: permissionsOf(['user']) });
      const profile = await call(app, who, 'GET', `/accounts/${account.username}`);
      assert.equal(profile.statusCode, 200);
      assert.equal(profile.json<{ updates: { comment: string }[] }>().updates[0]?.comment, 'Account renewed: Certifying');
      // RENEW_ACCOUNT is gone: renewing again is forbidden.
      const again = await call(app, who, 'POST', '/requests/renewal', { username: account.username, reason: 'Certifying' });
      assert.equal(again.statusCode, 403);
      assert.deepEqual(again.json(), FORBIDDEN);
    });

    test('a site administrator is held to renewal too', async () => {
      const { app } = world;
      const admin = await certifiedDaysAgo(366, { roles: ['site-admin'] });
      const who = await signIn(app, admin.username, admin.token);
      assert.deepEqual((await call(app, who, 'GET', '/sessions/current')).json(), { username: admin.username, permissions: RENEWAL_PERMISSIONS });
      assert.deepEqual((await call(app, who, 'GET', '/requests')).json(), RENEWAL_REQUIRED);
      assert.deepEqual((await call(app, who, 'GET', `/accounts/${admin.username}`)).json(), RENEWAL_REQUIRED);
    });

    test('never certified: due a year after creation; certified within the year: not due', async () => {
      const { app } = world;
      const cases: [number | null, number, boolean][] = [
        [null, 366, true],
        [null, 364, false],
        [364, 1000, false],
      ];
      for (const [certified, created, due] of cases) {
        const account = await certifiedDaysAgo(certified, { createdDaysAgo: created });
        const response = await postSignIn(app, account.username, account.token);
        assert.deepEqual(response.json<{ permissions: string[] }>().permissions, due ? RENEWAL_PERMISSIONS : permissionsOf(['user']), `${certified} / ${created}`);
      }
    });

    test('renewal comes due while the clock moves: the next request is refused', async () => {
      const { app, clock } = world;
      const account = await certifiedDaysAgo(365);
      clock.advance(-60_000); // a minute before the year is up (the session's clock too)
      const who = await signIn(app, account.username, account.token);
      assert.equal((await call(app, who, 'GET', `/accounts/${account.username}`)).statusCode, 200);
      clock.advance(2 * 60_000);
      assert.deepEqual((await call(app, who, 'GET', `/accounts/${account.username}`)).json(), RENEWAL_REQUIRED);
      assert.deepEqual((await call(app, who, 'GET', '/sessions/current')).json(), { username: account.username, permissions: RENEWAL_PERMISSIONS });
    });

    test('renewal needs a signed-in session; an account not due lacks RENEW_ACCOUNT', async () => {
      const { app } = world;
      const signedOut = await call(app, await anonymous(app), 'POST', '/requests/renewal', { username: 'user', reason: 'Certifying' });
      assert.equal(signedOut.statusCode, 401);
      const fresh = await certifiedDaysAgo(1);
      const who = await signIn(app, fresh.username, fresh.token);
      const response = await call(app, who, 'POST', '/requests/renewal', { username: fresh.username, reason: 'Certifying' });
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), FORBIDDEN);
    });
  });
}
