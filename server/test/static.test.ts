import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { NOT_BUILT_MESSAGE } from '../src/routes/host.js';
import { isHashedFileName, safeRelativePath } from '../src/services/static-files.js';
import {
  createFixture,
  createTestApp,
  createTestDatabase,
  publishFixture,
  HASHED_HOST_FILE,
  HASHED_REMOTE_FILE,
  type Fixture,
} from './helpers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const HTML = 'text/html';

let fixture: Fixture;
let app: App;

let db: Database;

before(async () => {
  fixture = createFixture();
  db = await createTestDatabase();
  await publishFixture(db, fixture);
  app = createTestApp({ db, fixture });
  await app.ready();
});
after(async () => {
  await app.close();
  await db.close();
  fixture.remove();
});

async function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers });
}

function assertNotFound(response: Awaited<ReturnType<typeof get>>, url: string): void {
  assert.equal(response.statusCode, 404, url);
  assert.deepEqual(response.json(), { error: 'Not found', code: 404 }, url);
}

describe('remote files', () => {
  const base = '/remotes/groups/0.1.0';

  test('a precompressed copy is sent when the browser accepts its encoding, the file itself otherwise', async () => {
    const url = `${base}/${HASHED_REMOTE_FILE}`;
    const brotli = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(brotli.statusCode, 200);
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotli.body, 'brotli bytes');
    assert.match(String(brotli.headers.vary), /accept-encoding/i);
    assert.equal(brotli.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.equal(brotli.headers['cache-control'], IMMUTABLE);

    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.body, 'gzip bytes');

    const plain = await get(url, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.notEqual(plain.body, 'gzip bytes');
    assert.notEqual(plain.body, 'brotli bytes');
  });

  test('mf-manifest.json and remoteEntry.js are revalidated (no-cache, ETag) and open to any origin', async () => {
    for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
      const response = await get(`${base}/${file}`);
      assert.equal(response.statusCode, 200, file);
      assert.equal(response.headers['cache-control'], 'no-cache', file);
      assert.equal(response.headers['access-control-allow-origin'], '*', file);
      assert.ok(response.headers.etag, file);
      assert.ok(response.headers['last-modified'], file);
    }
    const manifest = await get(`${base}/mf-manifest.json`);
    assert.equal(manifest.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(manifest.body, '{"name":"groups"}');
  });

  test('a file with a content hash is immutable', async () => {
    const response = await get(`${base}/${HASHED_REMOTE_FILE}`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], IMMUTABLE);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.body, 'console.log("chunk");');
  });

  test('a matching If-None-Match gives 304', async () => {
    const first = await get(`${base}/mf-manifest.json`);
    const second = await get(`${base}/mf-manifest.json`, { 'if-none-match': String(first.headers.etag) });
    assert.equal(second.statusCode, 304);
    assert.equal(second.body, '');
  });

  test('path traversal is a 404, however it is spelled', async () => {
    for (const url of [
      `${base}/../../package.json`,
      `${base}/../../../secret.txt`,
      `${base}/%2e%2e/%2e%2e/%2e%2e/secret.txt`,
      `${base}/..%2f..%2f..%2fsecret.txt`,
      `${base}/%2E%2E%2F%2E%2E%2F%2E%2E%2Fsecret.txt`,
      `${base}/%252e%252e/%252e%252e/%252e%252e/secret.txt`,
      `${base}/..%5c..%5c..%5csecret.txt`,
      `${base}/mf-manifest.json%00.js`,
      '/remotes/groups/..%2f..%2f/secret.txt',
    ]) {
      assertNotFound(await get(url), url);
    }
  });

  // app.inject resolves '.' and '..' segments as a browser would; a raw connection sends them as they are.
  test('path traversal and dot segments over a real connection (the URL sent as is) are a 404', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of [
      `${base}/../../../secret.txt`,
      `${base}/%2e%2e/%2e%2e/%2e%2e/secret.txt`,
      `${base}/..%2f..%2f..%2fsecret.txt`,
      `${base}/./mf-manifest.json`,
      `${base}//mf-manifest.json`,
      '/remotes/groups/0.1.0/../../groups/0.1.0/mf-manifest.json',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/./index.html',
    ]) {
      const response = await raw(path);
      assert.equal(response.status, 404, path);
      assert.ok(!response.body.includes('outside the served folders'), path);
    }
  });

  test('a bad remote name or version is a 404', async () => {
    for (const url of [
      '/remotes/gr-oups/0.1.0/mf-manifest.json',
      '/remotes/1groups/0.1.0/mf-manifest.json',
      '/remotes/groups/0.1/mf-manifest.json',
      '/remotes/groups/v0.1.0/mf-manifest.json',
      '/remotes/groups/latest/mf-manifest.json',
      '/remotes/groups',
      '/remotes',
    ]) {
      assertNotFound(await get(url), url);
    }
  });

  test('a missing file, a folder or a hidden file is a 404', async () => {
    fixture.write('remotes/groups/0.1.0/.env', 'SECRET=1');
    for (const url of [`${base}/nope.js`, '/remotes/groups/9.9.9/mf-manifest.json', '/remotes/nobody/0.1.0/mf-manifest.json', `${base}/`, `${base}/.env`]) {
      assertNotFound(await get(url), url);
    }
  });

});

describe('the host', () => {
  test('index.html is never cached, at / and by name', async () => {
    for (const url of ['/', '/index.html']) {
      const response = await get(url, { accept: HTML });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.equal(response.body, '<!doctype html><title>Portal</title>', url);
    }
  });

  test('hashed files are immutable; other files are revalidated', async () => {
    const hashed = await get(`/${HASHED_HOST_FILE}`);
    assert.equal(hashed.statusCode, 200);
    assert.equal(hashed.headers['cache-control'], IMMUTABLE);
    assert.equal(hashed.body, 'console.log("host");');
    const icon = await get('/favicon.svg');
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'no-cache');
    assert.ok(icon.headers.etag);
  });

  test('a page address that accepts HTML gets index.html (SPA fallback), never cached', async () => {
    for (const url of ['/groups', '/login', '/group-administration/team1/42', '/manage-accounts/first.last']) {
      const response = await get(url, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.equal(response.body, '<!doctype html><title>Portal</title>', url);
    }
  });

  test('no fallback for a missing asset, a non-HTML request, the API or /remotes', async () => {
    for (const [url, accept] of [
      ['/main.deadbeefdeadbeef.js', HTML],
      ['/logo.png', HTML],
      ['/groups', 'application/json'],
      ['/groups', '*/*'],
      ['/accounts/rest/nothing', HTML],
      ['/remotes/groups/0.1.0/nope.js', HTML],
      ['/remotes/anything', HTML],
    ] as const) {
      assertNotFound(await get(url, { accept }), `${url} (${accept})`);
    }
  });

  test('traversal out of the host folder is a 404', async () => {
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt']) {
      assertNotFound(await get(url, { accept: HTML }), url);
    }
  });
});

describe('a missing host build', () => {
  let bare: App;
  before(async () => {
    bare = createTestApp({ db, fixture, server: { hostDir: join(fixture.dir, 'no-host-here') } });
    await bare.ready();
  });
  after(() => bare.close());

  test('is a 503 text that says what to do, for the root, pages and assets', async () => {
    for (const url of ['/', '/groups', `/${HASHED_HOST_FILE}`]) {
      const response = await bare.inject({ method: 'GET', url, headers: { accept: HTML } });
      assert.equal(response.statusCode, 503, url);
      assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8', url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.equal(response.body, NOT_BUILT_MESSAGE, url);
    }
    assert.equal(NOT_BUILT_MESSAGE, 'The portal has not been built. Run npm start.');
  });

  test('does not stop the API or the remotes', async () => {
    assert.equal((await bare.inject('/accounts/rest/configuration')).statusCode, 200);
    assert.equal((await bare.inject('/remotes/groups/0.1.0/mf-manifest.json')).statusCode, 200);
  });
});

describe('file name rules', () => {
  test('a content hash is a segment of at least 8 hex digits between dots', () => {
    for (const name of ['123.a1b2c3d4e5f6a7b8.js', 'main.0123abcd.css', 'vendor.DEADBEEF.js.map']) assert.equal(isHashedFileName(name), true, name);
    for (const name of ['mf-manifest.json', 'remoteEntry.js', 'main.abc123.js', 'a1b2c3d4e5f6.js', 'main.a1b2c3g4.js']) assert.equal(isHashedFileName(name), false, name);
  });

  test('safe relative paths', () => {
    assert.equal(safeRelativePath('static/js/main.js'), 'static/js/main.js');
    for (const path of ['', '../x', 'a/../b', './a', 'a//b', 'a/', '.env', 'a\\b', 'a%2fb', 'a\0b']) {
      assert.equal(safeRelativePath(path), undefined, JSON.stringify(path));
    }
  });
});
