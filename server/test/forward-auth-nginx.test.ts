/**
 * Forward auth through a real nginx (Debian's), configured with the file the documentation shows
 * (server/docs/nginx-forward-auth.conf), in front of a service that echoes the headers it gets:
 * signed in and subscribed, the service sees X-Remote-User (and never a forged one); not signed in,
 * the browser is sent to the portal's /login with the address it asked for; not subscribed, to
 * the Subscriptions page naming the service; locked by an administrator, the next request is
 * sent away again (on PGlite, and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { createFixture, DATABASE_KINDS, type Fixture } from './helpers.js';
import { NGINX_CONF, startEchoService, startNginx, type Echo, type Nginx } from './nginx-helpers.js';
import { SERVER_DIR } from '../src/paths.js';
import { join } from 'node:path';
import { call, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
let echo: Awaited<ReturnType<typeof startEchoService>>;
before(async () => {
  fixture = createFixture();
  echo = await startEchoService();
});
after(async () => {
  await echo.close();
  fixture.remove();
});

test('the nginx block server/docs/service-sign-in.md shows is the file these tests run', () => {
  const doc = readFileSync(join(SERVER_DIR, 'docs', 'service-sign-in.md'), 'utf8');
  const shown = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  const run = readFileSync(NGINX_CONF, 'utf8');
  assert.ok(shown, 'the page shows an nginx block');
  assert.equal(shown, run.slice(run.indexOf('server {')));
});

for (const kind of DATABASE_KINDS) {
  describe(`nginx in front of a service, asking the portal, on ${kind}`, () => {
    let world: World;
    let portal: string;
    let nginx: Nginx;
    before(async () => {
      // nginx reaches the portal from loopback: that is the trusted proxy.
      world = await createWorld(kind, fixture, { portal: { supported_services: 'jira,jenkins' }, server: { trustedProxies: ['127.0.0.1'] } });
      await world.app.listen({ port: 0, host: '127.0.0.1' });
      portal = `http://127.0.0.1:${(world.app.server.address() as AddressInfo).port}`;
      await insertUserGroup(world.db, {
        id: 'TEAM', name: 'Team', description: 'A team', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'],
      });
      nginx = await startNginx({ portal, upstream: echo.url, service: 'jira' });
    });
    after(async () => {
      await nginx?.stop();
      await world.close();
    });

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    /** A browser's request to the service through nginx (redirects not followed). */
    const visit = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
      fetch(`${nginx.url}${path}`, { redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...headers } });

    test('signed in and holding the service through a group: the service gets the request with X-Remote-User and the rest, none forged', async () => {
      const { account, who } = await signedIn(world, unique('member'));
      await addMembership(world.db, 'TEAM', account.id, 'TEAM-user');
      const response = await visit('/browse/WEB-1?focus=comments&x=1', who.cookie, { 'X-Remote-User': 'admin', 'X-Remote-Groups': 'TEAM-admin' });
      assert.equal(response.status, 200, `${await response.clone().text()}\n${nginx.errors()}`);
      const seen = (await response.json()) as Echo;
      assert.equal(seen.path, '/browse/WEB-1?focus=comments&x=1');
      assert.equal(seen.headers['x-remote-user'], account.username);
      assert.equal(seen.headers['x-remote-email'], account.email);
      assert.equal(seen.headers['x-remote-name'], 'Test Person');
      assert.equal(seen.headers['x-remote-groups'], 'TEAM-user');
    });

    test('not signed in: 302 to the portal\'s /login with the address asked for; the service never sees the request', async () => {
      const response = await visit('/browse/WEB-2?x=1&y=2', undefined, { 'X-Remote-User': 'admin' });
      assert.equal(response.status, 302, nginx.errors());
      assert.equal(response.headers.get('location'), `${portal}/login?redirect=${encodeURIComponent(`${nginx.url}/browse/WEB-2?x=1&y=2`)}`);
      assert.deepEqual(echo.received.filter((seen) => seen.path.startsWith('/browse/WEB-2')), []);
    });

    test('signed in without the service: 302 to the Subscriptions page naming it, whose warning says the service sent the user', async () => {
      const { who } = await signedIn(world, unique('loner'));
      const response = await visit('/', who.cookie);
      assert.equal(response.status, 302, nginx.errors());
      assert.equal(response.headers.get('location'), `${portal}/subscriptions?service=jira`);
    });

    test('locked by an administrator: the next request is sent to /login again', async () => {
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const { account, who } = await signedIn(world, unique('locked'));
      await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true });
      assert.equal((await visit('/dashboard', who.cookie)).status, 200);
      const locked = await call(world.app, admin.who, 'POST', `/accounts/${account.username}/lock`, { comment: 'Left the team.' });
      assert.equal(locked.statusCode, 200, locked.body);
      const response = await visit('/dashboard', who.cookie);
      assert.equal(response.status, 302);
      assert.equal(response.headers.get('location'), `${portal}/login?redirect=${encodeURIComponent(`${nginx.url}/dashboard`)}`);
    });
  });
}
