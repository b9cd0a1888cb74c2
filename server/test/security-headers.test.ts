/**
 * The headers every response carries and the host page's Content-Security-Policy
 * (server/docs/security-headers.md): on API answers, files, errors and the page, with the
 * origins of a developer's remotes, and HSTS only over HTTPS.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import { HSTS, RESOURCE_POLICY, pagePolicy, remoteOrigins, securityHeaders } from '../src/plugins/security-headers.js';
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

/** What a raw HTTP exchange answered: its status, its headers (lower-case names) and its body. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answers to `writes`, each written as is after the step before it, on one connection to the port, until the server closes it. */
function rawExchange(port: number, ...writes: (string | (() => Promise<void>))[]): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const answers: RawAnswer[] = [];
      let rest = received;
      while (rest.startsWith('HTTP/1.1 ')) {
        const end = rest.indexOf('\r\n\r\n');
        const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
        rest = rest.slice(end + 4 + length);
      }
      resolve(answers);
    });
    void (async () => {
      for (const step of writes) {
        if (typeof step === 'string') await new Promise<void>((done) => socket.write(step, () => done()));
        else await step();
      }
    })().catch(reject);
  });
}

const pause = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('answers made before any hook runs', () => {
  let app: App;
  let db: Database;
  let port: number;
  let release: () => void = () => undefined;
  before(async () => {
    db = await createTestDatabase();
    await publishFixture(db, fixture);
    app = createTestApp({ db, fixture, server: { trustedProxies: ['10.0.0.5'] } });
    // A request still in flight while the server closes (outside the API: no access to declare).
    app.get('/test/slow', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    release();
    await app.close();
    await db.close();
  });

  test("the router's own answers: a path parameter over its limit (414) and a malformed percent-encoding (400)", async () => {
    const cases: [string, string, number, unknown][] = [
      ['a path parameter over the limit', `/accounts/rest/subscriptions/${'x'.repeat(2000)}`, 414, { error: 'URI Too Long', code: 414 }],
      ['a malformed percent-encoding', '/accounts/rest/accounts/%', 400, { error: 'Bad Request', code: 400 }],
    ];
    for (const [what, url, status, body] of cases) {
      const response = await app.inject({ method: 'PUT', url });
      assert.equal(response.statusCode, status, what);
      assert.deepEqual(response.json(), body, what);
      assertCommon(response.headers, what);
      assert.equal(response.headers['content-security-policy'], RESOURCE_POLICY, what);
      assert.equal(response.headers['strict-transport-security'], undefined, what);
      const viaProxy = await app.inject({ method: 'PUT', url, remoteAddress: '10.0.0.5', headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(viaProxy.headers['strict-transport-security'], HSTS, `${what} over HTTPS`);
    }
  });

  test('a URL too long for the router, sent over a connection: 414 with every header an ordinary answer carries', async () => {
    const names = Object.keys(securityHeaders(false));
    assert.deepEqual(names.sort(), [...Object.keys(COMMON), 'content-security-policy'].sort(), 'the documented set, no more');
    const [ordinary] = await rawExchange(port, 'GET /accounts/rest/configuration HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const [tooLong, ...more] = await rawExchange(port, `PUT /accounts/rest/subscriptions/${'x'.repeat(2000)} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    assert.equal(more.length, 0);
    assert.equal(ordinary?.status, 200);
    assert.equal(tooLong?.status, 414);
    assert.deepEqual(JSON.parse(tooLong?.body ?? ''), { error: 'URI Too Long', code: 414 });
    assert.equal(tooLong?.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    for (const name of names) assert.equal(tooLong?.headers[name], ordinary?.headers[name], name);
    assertCommon(tooLong?.headers ?? {}, 'the 414');
  });

  test("a request Node's parser refuses: a malformed request line (400), headers too large (431)", async () => {
    const cases: [string, string, number, string][] = [
      ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n', 400, 'Bad Request'],
      ['headers over the limit', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'Request Header Fields Too Large'],
    ];
    for (const [what, request, status, error] of cases) {
      const [answer, ...more] = await rawExchange(port, request);
      assert.equal(more.length, 0, what);
      assert.equal(answer?.status, status, what);
      assert.deepEqual(JSON.parse(answer?.body ?? ''), { error, code: status }, what);
      assertCommon(answer?.headers ?? {}, what);
      assert.equal(answer?.headers['content-security-policy'], RESOURCE_POLICY, what);
    }
  });

  test('a request arriving while the server closes: 503 in the one error shape, with the headers', async () => {
    // The second request comes on the connection of the first, in flight when the close begins.
    let closed: Promise<void> | undefined;
    const answers = await rawExchange(
      port,
      'GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n',
      pause(200),
      async () => {
        closed = app.close();
      },
      pause(100),
      'GET /accounts/rest/configuration HTTP/1.1\r\nHost: x\r\n\r\n',
      pause(200),
      async () => release(),
    );
    await closed;
    const [first, second] = answers;
    assert.equal(first?.status, 200);
    assert.equal(second?.status, 503, JSON.stringify(second));
    assert.deepEqual(JSON.parse(second?.body ?? ''), { error: 'Service Unavailable', code: 503 });
    assertCommon(second?.headers ?? {}, 'the 503 while closing');
    assert.equal(second?.headers['content-security-policy'], RESOURCE_POLICY);
    assert.equal(second?.headers.connection, 'close');
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
