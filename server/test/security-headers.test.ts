/**
 * The headers every response carries and the host page's Content-Security-Policy
 * (server/docs/security-headers.md): on API answers, files, errors and the page, with the
 * origins of a developer's remotes, and HSTS only over HTTPS.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import { HSTS, RESOURCE_POLICY, pagePolicy, remoteOrigins } from '../src/plugins/security-headers.js';
import type { Database } from '../src/db/database.js';
import { createFixture, createTestApp, createTestDatabase, failingDatabase, publishFixture, TEST_MANIFEST, type Fixture } from './helpers.js';

const COMMON = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

type Headers = Record<string, unknown>;

function assertCommon(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(COMMON)) assert.equal(headers[name], value, `${what}: ${name}`);
}

/** The policy's directives by name. */
function directives(policy: unknown): Map<string, string[]> {
  assert.equal(typeof policy, 'string');
  return new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

describe('every response', () => {
  let app: App;
  let db: Database;
  before(async () => {
    db = await createTestDatabase();
    await publishFixture(db, fixture);
    app = createTestApp({ db, fixture, server: { trustedProxies: ['10.0.0.5'] } });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  test('an API answer, a file, an error and a remote file: the common headers and a policy that allows nothing', async () => {
    const cases: [string, string, number][] = [
      ['an API answer', '/accounts/rest/configuration', 200],
      ['a route that does not exist', '/accounts/rest/no-such-route', 404],
      ['a host file', '/favicon.svg', 200],
      ['a remote file', '/remotes/groups/0.1.0/remoteEntry.js', 200],
      ['a missing remote file', '/remotes/groups/0.1.0/nothing.js', 404],
    ];
    for (const [what, url, status] of cases) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, status, what);
      assertCommon(response.headers, what);
      assert.equal(response.headers['content-security-policy'], RESOURCE_POLICY, what);
      assert.equal(response.headers['strict-transport-security'], undefined, `${what}: no HSTS over plain HTTP`);
    }
  });

  test('HSTS when the request came over HTTPS through the trusted proxy, not when anyone else says so', async () => {
    const viaProxy = await app.inject({ method: 'GET', url: '/accounts/rest/configuration', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(viaProxy.headers['strict-transport-security'], HSTS);
    assert.equal(HSTS, 'max-age=31536000');
    const spoofed = await app.inject({ method: 'GET', url: '/accounts/rest/configuration', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(spoofed.headers['strict-transport-security'], undefined);
  });

  test('the host page: its own policy (published remotes come from this server), for / and for any page address', async () => {
    for (const url of ['/', '/manage-accounts/first.last']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      assert.equal(response.statusCode, 200, url);
      assertCommon(response.headers, url);
      const policy = directives(response.headers['content-security-policy']);
      assert.deepEqual(policy.get('default-src'), ["'self'"]);
      assert.deepEqual(policy.get('script-src'), ["'self'"]);
      assert.deepEqual(policy.get('style-src'), ["'self'", "'unsafe-inline'"]);
      assert.deepEqual(policy.get('connect-src'), ["'self'"]);
      assert.deepEqual(policy.get('worker-src'), ["'self'", 'blob:']);
      assert.deepEqual(policy.get('object-src'), ["'none'"]);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
      assert.deepEqual(policy.get('form-action'), ["'self'"]);
      assert.deepEqual(policy.get('base-uri'), ["'self'"]);
      // Neither inline scripts nor eval.
      assert.ok(!String(response.headers['content-security-policy']).includes("'unsafe-eval'"));
      assert.equal(policy.get('script-src')?.includes("'unsafe-inline'"), false);
    }
  });

  test('the page policy does not depend on the environment file (the pins are in the database)', async () => {
    try {
      fixture.writeManifest('{ not json');
      const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-security-policy'], pagePolicy());
    } finally {
      fixture.writeManifest(TEST_MANIFEST);
    }
  });
});

describe("a developer's remote", () => {
  test("its dev server's origin may serve scripts and its hot-reload socket", async () => {
    const app = createTestApp({ db: failingDatabase(), fixture, server: { devRemotes: { groups: 'http://localhost:3002/mf-manifest.json' } } });
    try {
      const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      const policy = directives(response.headers['content-security-policy']);
      assert.deepEqual(policy.get('script-src'), ["'self'", 'http://localhost:3002']);
      assert.deepEqual(policy.get('connect-src'), ["'self'", 'http://localhost:3002', 'ws://localhost:3002']);
    } finally {
      await app.close();
    }
  });
});

describe('remoteOrigins', () => {
  test('absolute http(s) entries give their origins, once each and sorted; paths and other schemes give none', () => {
    assert.deepEqual(
      remoteOrigins([
        '/remotes/groups/0.1.0/mf-manifest.json',
        'https://cdn.example.test/a/mf-manifest.json',
        'HTTPS://CDN.example.test:443/b/mf-manifest.json',
        'http://localhost:3002/mf-manifest.json',
        'javascript:alert(1)',
        'data:text/javascript,1',
        'https://',
      ]),
      ['http://localhost:3002', 'https://cdn.example.test'],
    );
  });
});
