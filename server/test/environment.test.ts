import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import { createFixture, createTestApp, failingDatabase, parseLogs, TEST_MANIFEST, type Fixture } from './helpers.js';

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

async function start(devRemotes: Record<string, string> = {}): Promise<App> {
  app = createTestApp({ db: failingDatabase(), fixture, logs, server: { devRemotes } });
  await app.ready();
  return app;
}

const RESOLVED = {
  environment: 'test',
  remotes: [
    { name: 'groups', version: '0.1.0', entry: '/remotes/groups/0.1.0/mf-manifest.json', contract: '^1.0.0', routes: ['/groups'] },
    { name: 'tokens', version: '0.2.0-beta.1', entry: '/remotes/tokens/0.2.0-beta.1/mf-manifest.json', contract: '^1.0.0', routes: ['/tokens'] },
    { name: 'elsewhere', entry: 'https://cdn.example.test/elsewhere/mf-manifest.json', contract: '^1.0.0', routes: ['/elsewhere'] },
  ],
};

describe('GET /environment.json', () => {
  test('serves the manifest with every entry resolved, never cached', async () => {
    const response = await (await start()).inject({ method: 'GET', url: '/environment.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(response.json(), RESOLVED);
  });

  test('a pin changed on disk is served on the next request, without a restart', async () => {
    const server = await start();
    assert.equal((await server.inject('/environment.json')).json().remotes[0].entry, '/remotes/groups/0.1.0/mf-manifest.json');
    fixture.writeManifest({
      ...TEST_MANIFEST,
      remotes: TEST_MANIFEST.remotes.map((r) => (r.name === 'groups' ? { ...r, version: '0.0.9' } : r)),
    });
    const response = await server.inject('/environment.json');
    assert.deepEqual(response.json().remotes[0], {
      name: 'groups',
      version: '0.0.9',
      entry: '/remotes/groups/0.0.9/mf-manifest.json',
      contract: '^1.0.0',
      routes: ['/groups'],
    });
  });

  test('PORTAL_DEV_REMOTES replaces a remote’s entry', async () => {
    const response = await (await start({ groups: 'http://localhost:3102/mf-manifest.json' })).inject('/environment.json');
    assert.deepEqual(response.json().remotes, [
      { ...RESOLVED.remotes[0], entry: 'http://localhost:3102/mf-manifest.json' },
      RESOLVED.remotes[1],
      RESOLVED.remotes[2],
    ]);
  });

  const invalid: [string, () => void, unknown][] = [
    ['not JSON', () => fixture.writeManifest('{"environment": "test", '), ['not valid JSON']],
    [
      'an invalid manifest',
      () => fixture.writeManifest({ environment: 'test', remotes: [{ name: 'groups', version: 'latest', contract: '^1.0.0', routes: ['/groups'] }] }),
      ['remotes[0].version: must be a version such as 1.2.3'],
    ],
    ['a missing file', () => rmSync(fixture.manifestFile), ['the file does not exist']],
  ];
  for (const [name, breakIt, problems] of invalid) {
    test(`${name} on disk gives a 500 JSON error and a log line`, async () => {
      const server = await start();
      breakIt();
      const response = await server.inject('/environment.json');
      assert.equal(response.statusCode, 500);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.deepEqual(response.json(), { error: 'Environment manifest unavailable', code: 500 });
      const entry = parseLogs(logs).find((l) => l.msg === 'the environment manifest is not usable');
      assert.ok(entry, 'logged');
      assert.equal(entry.file, fixture.manifestFile);
      const logged = entry.problems as string[];
      assert.equal(logged.length, (problems as string[]).length);
      (problems as string[]).forEach((p, i) => assert.ok(logged[i]?.startsWith(p), `${logged[i]} starts with ${p}`));
    });
  }
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
