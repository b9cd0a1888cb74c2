/**
 * GET /accounts/rest/forward-auth/{service}: what a reverse proxy is told about the browser's
 * session for one service: who it is (200 and the X-Remote-* headers), not signed in (401), not
 * holding the service (403), no such service (404); where the browser should go instead, as a
 * Location beside the status or, with ?redirect=true, as the 302 itself; and a sign-out, lock,
 * closure or unsubscription seen by the very next call (on PGlite, and PostgreSQL when
 * DATABASE_URL is set). nginx in front of a real service: forward-auth-nginx.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Service } from '@portal/api';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { API, createAccount, fetchXsrf, solvedChallenge, type Principal } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { call, createWorld, DAY, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

/** sonarqube is a service of the platform this portal does not offer. */
const SUPPORTED = 'jira,jenkins,confluence,artifacts';
const PROXY = '127.0.0.1';
const ELSEWHERE = '10.1.2.3';
/**
 * What a trusted proxy says of the browser's request. Plain http, as the test's sign-ins are: over
 * https (by TLS or a trusted proxy's X-Forwarded-Proto) the session cookie has another name.
 */
const FORWARDED = { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'jira.example.test', 'x-forwarded-uri': '/browse/WEB-1?focus=comments&x=1' };
const ORIGINAL = 'http://jira.example.test/browse/WEB-1?focus=comments&x=1';

for (const kind of DATABASE_KINDS) {
  describe(`forward auth on ${kind}`, () => {
    let world: World;
    before(async () => {
      world = await createWorld(kind, fixture, { portal: { supported_services: SUPPORTED }, server: { trustedProxies: [PROXY] } });
      const group = (id: string, services: Service[]) =>
        insertUserGroup(world.db, { id, name: id, description: `${id} group`, open_access: false, visibility: 'site-approved', member_constraint: 'None', services });
      await group('ALPHA', ['jira', 'confluence']);
      await group('BETA', ['jenkins']);
      await group('GAMMA', ['jira']);
      // Members of BETA-team hold GAMMA-user through it (nesting).
      await world.db.query("insert into group_nestings (user_group_id, group_name, member_group) values ('GAMMA', 'GAMMA-user', 'BETA-team')");
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    /** The proxy's call with the browser's cookie (none for a visitor), from the proxy's address unless told. */
    function ask(service: string, who: Principal | undefined, options: { from?: string; headers?: Record<string, string>; query?: string } = {}) {
      return world.app.inject({
        method: 'GET',
        url: `${API}/forward-auth/${service}${options.query ?? ''}`,
        headers: { ...(who?.cookie ? { cookie: who.cookie } : {}), ...(options.headers ?? {}) },
        remoteAddress: options.from ?? PROXY,
      });
    }

    const identityOf = (response: { headers: Record<string, unknown> }) => ({
      user: response.headers['x-remote-user'],
      email: response.headers['x-remote-email'],
      name: response.headers['x-remote-name'],
      groups: response.headers['x-remote-groups'],
    });

    test('a direct subscription: 200 with the account in X-Remote-User, -Email, -Name and no groups', async () => {
      const { account, who } = await signedIn(world, unique('direct'));
      assert.equal((await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true })).statusCode, 200);
      const response = await ask('jira', who);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(identityOf(response), { user: account.username, email: account.email, name: 'Test Person', groups: '' });
      assert.deepEqual(response.json(), { ok: true });
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers.location, undefined);
    });

    test("through groups: 200 with the groups of the user groups that use the service (nested ones too), and no other group's", async () => {
      const { account, who } = await signedIn(world, unique('member'));
      await addMembership(world.db, 'ALPHA', account.id, 'ALPHA-admin');
      await addMembership(world.db, 'ALPHA', account.id, 'ALPHA-jiraAdmin');
      await addMembership(world.db, 'BETA', account.id, 'BETA-team');
      let response = await ask('jira', who);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['x-remote-groups'], 'ALPHA-admin,ALPHA-jiraAdmin,GAMMA-user');
      response = await ask('jenkins', who);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['x-remote-groups'], 'BETA-team');
      response = await ask('confluence', who);
      assert.equal(response.headers['x-remote-groups'], 'ALPHA-admin,ALPHA-jiraAdmin');
      assert.equal((await ask('artifacts', who)).statusCode, 403, 'no group of theirs uses artifacts');
    });

    test('nesting: a chain of nestings is followed, a group held both directly and through one is named once, and a nesting taken away is seen at the next call', async () => {
      const { account, who } = await signedIn(world, unique('nested'));
      await addMembership(world.db, 'BETA', account.id, 'BETA-lead');
      const nest = (userGroup: string, group: string, member: string) =>
        world.db.query('insert into group_nestings (user_group_id, group_name, member_group) values ($1, $2, $3)', [userGroup, group, member]);
      // BETA-lead is in BETA-team, which is in GAMMA-user: BETA-lead's members hold both.
      await nest('BETA', 'BETA-team', 'BETA-lead');
      try {
        assert.equal((await ask('jira', who)).headers['x-remote-groups'], 'GAMMA-user', 'through two nestings');
        assert.equal((await ask('jenkins', who)).headers['x-remote-groups'], 'BETA-lead,BETA-team');
        await addMembership(world.db, 'GAMMA', account.id, 'GAMMA-user');
        assert.equal((await ask('jira', who)).headers['x-remote-groups'], 'GAMMA-user', 'held both ways, named once');
        await world.db.query("delete from group_memberships where account_id = $1 and group_name = 'GAMMA-user'", [account.id]);
      } finally {
        await world.db.query("delete from group_nestings where member_group = 'BETA-lead'");
      }
      assert.equal((await ask('jenkins', who)).headers['x-remote-groups'], 'BETA-lead');
      const response = await ask('jira', who);
      assert.equal(response.statusCode, 403, 'without the nesting the account holds no group that uses jira');
    });

    test('what a server keeps between calls is never stale: each change of what the account holds, made by SQL as another server would make it, is seen at the next call', async () => {
      const { account, who } = await signedIn(world, unique('kept'));
      const other = await signedIn(world, unique('kept'));
      const groups = async (service: string, principal: Principal = who) => {
        const response = await ask(service, principal);
        return response.statusCode === 200 ? String(response.headers['x-remote-groups']) : response.statusCode;
      };
      await world.db.query(
        "insert into user_groups (id, name, description, open_access, visibility, member_constraint, services) values ('DELTA', 'DELTA', 'delta group', false, 'site-approved', 'None', '{jira}')",
      );
      try {
        assert.equal(await groups('jira'), 403);
        assert.equal(await groups('jira', other.who), 403);
        // One statement for two accounts: each account's next call sees its own groups.
        await world.db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('DELTA', $1, 'DELTA-ops'), ('DELTA', $2, 'DELTA-dev')", [account.id, other.account.id]);
        assert.equal(await groups('jira'), 'DELTA-ops', 'a membership added');
        assert.equal(await groups('jira', other.who), 'DELTA-dev');
        await world.db.query("update group_memberships set group_name = 'DELTA-lead' where account_id = $1", [account.id]);
        assert.equal(await groups('jira'), 'DELTA-lead', 'a membership changed');
        await world.db.query("update user_groups set services = '{jenkins}' where id = 'DELTA'");
        assert.equal(await groups('jira'), 403, "the user group's services changed");
        assert.equal(await groups('jenkins'), 'DELTA-lead');
        assert.equal(await groups('jira', other.who), 403);
        await world.db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [account.id]);
        assert.equal(await groups('jira'), '', 'a subscription added');
        await world.db.query("insert into group_nestings (user_group_id, group_name, member_group) values ('GAMMA', 'GAMMA-user', 'DELTA-lead')");
        assert.equal(await groups('jira'), 'GAMMA-user', 'a nesting added');
        await world.db.query("update accounts set email = 'moved@example.test' where id = $1", [account.id]);
        assert.equal((await ask('jira', who)).headers['x-remote-email'], 'moved@example.test', 'who the account is is read at every call');
        await world.db.query('delete from account_subscriptions where account_id = $1', [account.id]);
        await world.db.query("delete from user_groups where id = 'DELTA'");
        assert.equal(await groups('jira'), 403, 'the user group deleted, its memberships and nestings with it');
        assert.equal(await groups('jenkins'), 403);
      } finally {
        await world.db.query("delete from user_groups where id = 'DELTA'");
      }
    });

    test('a name beyond Latin-1 reaches the proxy as UTF-8 bytes; an account without a name is named by its username', async () => {
      const { account, who } = await signedIn(world, unique('named'));
      await world.db.query("update accounts set first_name = 'Łukasz', last_name = 'Żółć' where id = $1", [account.id]);
      await world.db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [account.id]);
      let response = await ask('jira', who);
      assert.equal(Buffer.from(String(response.headers['x-remote-name']), 'latin1').toString('utf8'), 'Łukasz Żółć');
      await world.db.query('update accounts set first_name = null, last_name = $2 where id = $1', [account.id, ' ']);
      response = await ask('jira', who);
      assert.equal(response.headers['x-remote-name'], account.username);
    });

    test('no session, an anonymous one, a made-up cookie: 401 Not signed in, Location the portal\'s /login with the original address', async () => {
      const anonymous = await fetchXsrf(world.app);
      for (const who of [undefined, anonymous, { cookie: `portal-session=${'A'.repeat(43)}`, xsrf: '' }]) {
        const response = await ask('jira', who, { headers: FORWARDED });
        assert.equal(response.statusCode, 401, response.body);
        assert.deepEqual(response.json(), { error: 'Not signed in', code: 401 });
        assert.equal(response.headers.location, `http://localhost:80/login?redirect=${encodeURIComponent(ORIGINAL)}`);
        assert.equal(response.headers['x-remote-user'], undefined);
      }
    });

    test('not holding the service: 403, Location the Subscriptions page naming it (its warning says who sent the user)', async () => {
      const { who } = await signedIn(world, unique('none'));
      const response = await ask('jenkins', who, { headers: FORWARDED });
      assert.equal(response.statusCode, 403, response.body);
      assert.deepEqual(response.json(), { error: "Your account does not hold Jenkins: subscribe to it on the portal's Subscriptions page.", code: 403 });
      assert.equal(response.headers.location, 'http://localhost:80/subscriptions?service=jenkins');
      assert.equal(response.headers['x-remote-user'], undefined);
    });

    test('?redirect=true (a proxy that passes the answer through): 302 to /login?redirect=… or to the Subscriptions page; 200 as before', async () => {
      const { account, who } = await signedIn(world, unique('traefik'));
      let response = await ask('jira', undefined, { headers: FORWARDED, query: '?redirect=true' });
      assert.equal(response.statusCode, 302);
      assert.equal(response.headers.location, `http://localhost:80/login?redirect=${encodeURIComponent(ORIGINAL)}`);
      response = await ask('jira', who, { headers: FORWARDED, query: '?redirect=true' });
      assert.equal(response.statusCode, 302);
      assert.equal(response.headers.location, 'http://localhost:80/subscriptions?service=jira');
      await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true });
      response = await ask('jira', who, { headers: FORWARDED, query: '?redirect=true' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['x-remote-user'], account.username);
      response = await ask('jira', undefined, { query: '?redirect=false' });
      assert.equal(response.statusCode, 401, 'redirect=false: the bare status');
      response = await ask('jira', undefined, { query: '?redirect=yes' });
      assert.equal(response.statusCode, 400, 'anything else is refused');
      response = await ask('jira', undefined, { query: '?next=/x' });
      assert.equal(response.statusCode, 400, 'an unknown parameter is refused');
    });

    test('the original address is believed only from a trusted proxy, and only as an http(s) address on the forwarded host', async () => {
      let response = await ask('jira', undefined, { headers: FORWARDED, from: ELSEWHERE });
      assert.equal(response.statusCode, 401);
      assert.equal(response.headers.location, 'http://localhost:80/login', 'from an untrusted address: /login without a redirect');
      const bad: Record<string, string>[] = [
        { ...FORWARDED, 'x-forwarded-proto': 'javascript' },
        { ...FORWARDED, 'x-forwarded-host': 'evil.test/path' },
        { ...FORWARDED, 'x-forwarded-host': 'user@evil.test' },
        { ...FORWARDED, 'x-forwarded-uri': '//evil.test/' },
        { ...FORWARDED, 'x-forwarded-uri': 'no-slash' },
        { 'x-forwarded-proto': 'http', 'x-forwarded-uri': '/' },
      ];
      for (const headers of bad) {
        response = await ask('jira', undefined, { headers });
        assert.equal(response.headers.location, 'http://localhost:80/login', JSON.stringify(headers));
      }
      response = await ask('jira', undefined, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'ci.example.test:8443' } });
      assert.equal(response.headers.location, `https://localhost:80/login?redirect=${encodeURIComponent('https://ci.example.test:8443/')}`, 'no X-Forwarded-Uri: the root');
    });

    test("an unknown service id, or one this portal does not offer: 404 saying so, whoever asks", async () => {
      const { who } = await signedIn(world, unique('asker'));
      for (const asker of [undefined, who]) {
        let response = await ask('gitlab', asker);
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), {
          error: "'gitlab' is not a service of the platform (known: artifacts, bitbucket, confluence, jenkins, jira, jsm, sonarqube, repository).",
          code: 404,
        });
        response = await ask('JIRA', asker);
        assert.equal(response.statusCode, 404, 'service ids are lower case');
        response = await ask('sonarqube', asker, { query: '?redirect=true' });
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), { error: 'This portal does not offer sonarqube: it is not in supported_services.', code: 404 });
      }
    });

    test('a sign-out, Sign Out Everywhere, an unsubscription: the very next call is refused', async () => {
      const { account, who } = await signedIn(world, unique('leaving'));
      await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true });
      assert.equal((await ask('jira', who)).statusCode, 200);
      assert.equal((await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: false })).statusCode, 200);
      assert.equal((await ask('jira', who)).statusCode, 403, 'unsubscribed');
      await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true });
      assert.equal((await ask('jira', who)).statusCode, 200);
      assert.equal((await call(world.app, who, 'GET', '/sessions/logout')).statusCode, 200);
      assert.equal((await ask('jira', who)).statusCode, 401, 'signed out');

      const again = await signedIn(world, unique('everywhere'));
      await call(world.app, again.who, 'PUT', `/subscriptions/${again.account.username}`, { service: 'jira', subscribed: true });
      assert.equal((await ask('jira', again.who)).statusCode, 200);
      assert.equal((await call(world.app, again.who, 'POST', '/sessions/end-all')).statusCode, 200);
      assert.equal((await ask('jira', again.who)).statusCode, 401, 'signed out everywhere');
    });

    test('locked or closed by an administrator: the very next call is 401, as for no session', async () => {
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      for (const action of ['lock', 'close'] as const) {
        const { account, who } = await signedIn(world, unique(action));
        await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true });
        assert.equal((await ask('jira', who)).statusCode, 200);
        const done =
          action === 'lock'
            ? await call(world.app, admin.who, 'POST', `/accounts/${account.username}/lock`, { comment: 'Left the team.' })
            : await call(world.app, admin.who, 'POST', '/requests/close', { username: account.username, reason: 'Left the company.' });
        assert.equal(done.statusCode, 200, done.body);
        const response = await ask('jira', who);
        assert.equal(response.statusCode, 401, action);
        assert.equal(response.headers['x-remote-user'], undefined);
      }
    });

    test('an account that must renew (annual certification): 401 with its message, to /login, which sends it to the renewal', async () => {
      const { account, who } = await signedIn(world, unique('renewing'));
      await world.db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [account.id]);
      await world.db.query('update accounts set created_at = $2, last_certified = $2 where id = $1', [account.id, new Date(world.clock.now().getTime() - 400 * DAY)]);
      const response = await ask('jira', who);
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: 'Your account must be renewed before you continue.', code: 401 });
    });

    test('PORTAL_COOKIE_DOMAIN: over https the session cookie is __Secure-portal-session for the domain, and forward auth reads it there', async () => {
      const other = await createWorld(kind, fixture, {
        portal: { supported_services: SUPPORTED },
        server: { trustedProxies: [PROXY], publicUrl: 'https://portal.example.test', cookieDomain: 'example.test' },
      });
      try {
        const account = await createAccount(other.db, { username: unique('sibling') });
        await other.db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [account.id]);
        const overHttps = { 'x-forwarded-proto': 'https' };
        const signIn = await other.app.inject({
          method: 'POST',
          url: `${API}/sessions`,
          headers: overHttps,
          remoteAddress: PROXY,
          payload: { id: account.username, token: account.token, botChallengeResponse: await solvedChallenge(other.app) },
        });
        assert.equal(signIn.statusCode, 200, signIn.body);
        const cookie = signIn.cookies.find((c) => c.value !== '');
        assert.ok(cookie);
        assert.deepEqual(
          { name: cookie.name, domain: cookie.domain, path: cookie.path, secure: cookie.secure, httpOnly: cookie.httpOnly, sameSite: cookie.sameSite },
          { name: '__Secure-portal-session', domain: 'example.test', path: '/', secure: true, httpOnly: true, sameSite: 'Lax' },
        );
        const proxied = { ...FORWARDED, 'x-forwarded-proto': 'https', cookie: `${cookie.name}=${cookie.value}` };
        let response = await other.app.inject({ method: 'GET', url: `${API}/forward-auth/jira`, headers: proxied, remoteAddress: PROXY });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['x-remote-user'], account.username);
        // The anti-forgery rules are as before: the token of that session, from the cookie's session.
        const xsrf = await other.app.inject({ method: 'GET', url: `${API}/xsrf`, headers: { ...overHttps, cookie: proxied.cookie }, remoteAddress: PROXY });
        const token = xsrf.json<{ ok: string }>().ok;
        const signOut = (headers: Record<string, string>) =>
          other.app.inject({ method: 'POST', url: `${API}/sessions/end-all`, headers: { ...overHttps, cookie: proxied.cookie, ...headers }, remoteAddress: PROXY });
        assert.equal((await signOut({})).statusCode, 403, 'no anti-forgery token');
        const ended = await signOut({ 'x-xsrf-token': token });
        assert.equal(ended.statusCode, 200, ended.body);
        response = await other.app.inject({ method: 'GET', url: `${API}/forward-auth/jira`, headers: proxied, remoteAddress: PROXY });
        assert.equal(response.statusCode, 401);
        assert.equal(response.headers.location, `https://portal.example.test/login?redirect=${encodeURIComponent(ORIGINAL.replace('http:', 'https:'))}`);
      } finally {
        await other.close();
      }
    });

    test('PORTAL_PUBLIC_URL is where the refusals send the browser', async () => {
      const other = await createWorld(kind, fixture, {
        portal: { supported_services: SUPPORTED },
        server: { trustedProxies: [PROXY], publicUrl: 'https://portal.example.test/accounts' },
      });
      try {
        const response = await other.app.inject({ method: 'GET', url: `${API}/forward-auth/jira?redirect=true`, headers: FORWARDED, remoteAddress: PROXY });
        assert.equal(response.statusCode, 302);
        assert.equal(response.headers.location, `https://portal.example.test/accounts/login?redirect=${encodeURIComponent(ORIGINAL)}`);
      } finally {
        await other.close();
      }
    });
  });
}
