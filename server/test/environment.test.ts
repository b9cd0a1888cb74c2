import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { createFixture, createTestApp, createTestDatabase, failingDatabase, parseLogs, publishFixture, TEST_MANIFEST, type Fixture } from './helpers.js';

let fixture: Fixture;
let app: App | undefined;
let logs: string[];

beforeEach(() => {
  fixture = createFixture();
  logs = [];
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  fixture.remove();
});

let db: Database | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function start(devRemotes: Record<string, string> = {}): Promise<App> {
  db = await createTestDatabase();
  await publishFixture(db, fixture);
  app = createTestApp({ db, fixture, logs, server: { devRemotes } });
  await app.ready();
  return app;
}

const GROUPS = {
  name: 'groups',
  version: '0.1.0',
  entry: '/remotes/groups/0.1.0/remoteEntry.js',
  contract: '^2.0.0',
  routes: ['/groups'],
};

describe('GET /environment.json', () => {
  test('serves the environment’s pins from the database with each entry and its digests, never cached', async () => {
    const server = await start();
    const response = await server.inject({ method: 'GET', url: '/environment.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    const manifest = response.json();
    assert.equal(manifest.environment, 'test', 'the environment named in the manifest file');
    assert.deepEqual(manifest.remotes.map(({ integrity: _, ...rest }: Record<string, unknown>) => rest), [GROUPS]);
    assert.deepEqual(Object.keys(manifest.remotes[0].integrity), ['/remotes/groups/0.1.0/remoteEntry.js'], 'the host loads the entry alone (no mf-manifest.json)');
  });

  test('the manifest file is only the initial pins: a changed file changes nothing served', async () => {
    const server = await start();
    fixture.writeManifest({ ...TEST_MANIFEST, remotes: TEST_MANIFEST.remotes.map((r) => (r.name === 'groups' ? { ...r, version: '0.0.9' } : r)) });
    assert.equal((await server.inject('/environment.json')).json().remotes[0].version, '0.1.0');
  });

  test('PORTAL_DEV_REMOTES replaces a remote’s entry (and drops its digests)', async () => {
    const response = await (await start({ groups: 'http://localhost:3102/mf-manifest.json' })).inject('/environment.json');
    assert.deepEqual(response.json().remotes, [{ ...GROUPS, entry: 'http://localhost:3102/mf-manifest.json' }]);
  });

  test('a database that does not answer gives a 500 JSON error and a log line', async () => {
    app = createTestApp({ db: failingDatabase(), fixture, logs });
    await app.ready();
    const response = await app.inject('/environment.json');
    assert.equal(response.statusCode, 500);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.deepEqual(response.json(), { error: 'Environment manifest unavailable', code: 500 });
    assert.ok(parseLogs(logs).some((l) => l.msg === 'the environment manifest cannot be read from the database'));
  });
});

describe('the manifest at start', () => {
  test('a broken manifest stops the app from starting, with the problems', async () => {
    fixture.writeManifest({ environment: '', remotes: [] });
    app = createTestApp({ db: failingDatabase(), fixture });
    await assert.rejects(async () => void (await app?.ready()), {
      name: 'ManifestError',
      message: `The environment manifest ${fixture.manifestFile} is not usable:\n  environment: must be a non-empty string`,
    });
  });

  test('a PORTAL_DEV_REMOTES name that is not in the manifest stops the app from starting', async () => {
    app = createTestApp({ db: failingDatabase(), fixture, server: { devRemotes: { grops: 'http://localhost:3102/mf-manifest.json' } } });
    await assert.rejects(async () => void (await app?.ready()), {
      name: 'ManifestError',
      message: `The environment manifest ${fixture.manifestFile} is not usable:\n  PORTAL_DEV_REMOTES names 'grops', which is not a remote of this manifest (remotes: groups, tokens, elsewhere)`,
    });
  });
});
