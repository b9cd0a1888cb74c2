/**
 * `portal remotes …` (docs/federation.md) as a team and a platform administrator run it:
 * against a running portal on the embedded database (through its socket), and, with
 * DATABASE_URL, against PostgreSQL while two servers on that database serve the pins: one
 * command changes what both serve, at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { portalEnv, runCli, runningUrl, startMain, type Running } from './process-helpers.js';
import { POSTGRES_URL, createFixture, createPostgresSchema, writeRemoteBuild, type Fixture } from './helpers.js';

let fixture: Fixture;
let dir: string;
before(() => {
  fixture = createFixture();
  dir = mkdtempSync(join(tmpdir(), 'portal-remotes-cli-'));
});
after(() => {
  fixture.remove();
  rmSync(dir, { recursive: true, force: true });
});


async function servedVersion(url: string, name: string): Promise<string | undefined> {
  const manifest = (await (await fetch(`${url}/environment.json`)).json()) as { remotes: { name: string; version: string }[] };
  return manifest.remotes.find((r) => r.name === name)?.version;
}

async function stop(running: Running): Promise<void> {
  running.child.kill('SIGTERM');
  await running.exit;
}

describe('portal remotes, with the portal running on the embedded database', () => {
  test('publish, pin (refused and accepted), status, history and its CSV, rollback; the running portal serves each pin at once', async () => {
    const dataDir = join(dir, 'embedded');
    const store = join(dir, 'embedded-store');
    const env = { ...portalEnv(fixture, dataDir, store), LOG_LEVEL: 'error' };
    const portal = startMain(env);
    try {
      const url = await runningUrl(portal);
      assert.match(portal.output(), /initial pin of groups not made: No version of a remote named groups is published\./, 'the start says what it could not pin');
      const cli = (...args: string[]) => runCli(['remotes', ...args], { PORTAL_DATA_DIR: dataDir, PORTAL_REMOTES_DIR: store, PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile });

      const first = writeRemoteBuild(dir, 'groups', '0.1.0');
      const published = await cli('publish', first);
      assert.equal(published.stderr, '');
      assert.equal(published.stdout, `Published groups 0.1.0 (contract ^2.0.0, 4 files) into ${store}. Pin it with: npm run portal -- remotes pin ENVIRONMENT groups@0.1.0\n`);
      assert.equal((await cli('publish', first)).stdout, 'groups 0.1.0 is published already with the same content: nothing changed.\n');
      const changed = await cli('publish', writeRemoteBuild(dir, 'groups', '0.1.0', { marker: 'other' }));
      assert.equal(changed.code, 1);
      assert.equal(
        changed.stderr,
        'Cannot publish: groups 0.1.0 is already published with other content; a published version never changes. Give the new build a new version (in its package.json) and publish that.\n',
      );
      const notABuild = await cli('publish', fixture.hostDir);
      assert.equal(notABuild.code, 1);
      assert.match(notABuild.stderr, /^Cannot publish: .* is not a remote's build: portal-remote\.json, mf-manifest\.json, remoteEntry\.js are missing\./);

      const unknown = await cli('pin', 'test', 'groups@0.2.0');
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stderr, 'Cannot pin: groups 0.2.0 is not published (published: 0.1.0). Publish it first: npm run portal -- remotes publish BUILD.\n');
      const badTarget = await cli('pin', 'test', 'groups');
      assert.equal(badTarget.code, 2);
      assert.match(badTarget.stderr, /^remotes pin: 'groups' is not REMOTE@VERSION \(for example groups@0\.2\.0\)\./);

      assert.equal((await cli('pin', 'test', 'groups@0.1.0', '--reason', 'first', '--by', 'ada')).stdout, 'test now runs groups 0.1.0, from the next page load.\n');
      assert.equal(await servedVersion(url, 'groups'), '0.1.0');
      await cli('publish', writeRemoteBuild(dir, 'groups', '0.2.0'));
      assert.equal((await cli('pin', 'test', 'groups@0.2.0', '--reason', 'second', '--by', 'release bot')).stdout, 'test now runs groups 0.2.0 (was 0.1.0), from the next page load.\n');
      assert.equal(await servedVersion(url, 'groups'), '0.2.0', 'served at once, no restart');

      const status = await cli('status', 'test');
      assert.match(status.stdout, /^ENVIRONMENT +REMOTE +VERSION +CONTRACT +SINCE +BY +ROLLBACK TO\ntest +groups +0\.2\.0 +\^2\.0\.0 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ +release bot +0\.1\.0\n$/);
      // An environment without pins (a typo, most often) is a failure that says so, not an empty answer.
      const nowhere = await cli('status', 'nowhere');
      assert.deepEqual([nowhere.code, nowhere.stdout, nowhere.stderr], [1, '', 'Cannot read the pins: nowhere has no pins (environments with pins: test).\n']);
      const noHistory = await cli('history', 'nowhere');
      assert.deepEqual([noHistory.code, noHistory.stdout, noHistory.stderr], [1, '', 'Cannot read the pins: nowhere has no pins (environments with pins: test).\n']);
      const neverPinned = await cli('history', 'test', 'tokens', '--csv');
      assert.deepEqual([neverPinned.code, neverPinned.stdout, neverPinned.stderr], [1, '', 'Cannot read the pins: test has never pinned tokens.\n']);

      const history = await cli('history', 'test', 'groups');
      assert.match(history.stdout, /^WHEN +REMOTE +ACTION +FROM +TO +BY +WHY\n.*groups +pin +0\.1\.0 +0\.2\.0 +release bot +second\n.*groups +pin +- +0\.1\.0 +ada +first\n$/);
      const csv = await cli('history', 'test', '--csv');
      assert.match(csv.stdout, /^when,environment,remote,action,from,to,who,why\r\n.*,test,groups,pin,,0\.1\.0,ada,first\r\n.*,test,groups,pin,0\.1\.0,0\.2\.0,release bot,second\r\n$/);

      assert.equal((await cli('rollback', 'test', 'groups', '--reason', 'broken')).stdout, 'test rolled groups back to 0.1.0 (was 0.2.0), from the next page load.\n');
      assert.equal(await servedVersion(url, 'groups'), '0.1.0');
    } finally {
      await stop(portal);
    }
  });
});

const postgresUrl = POSTGRES_URL;
describe('portal remotes on PostgreSQL with two servers', { skip: postgresUrl ? false : 'needs DATABASE_URL' }, () => {
  test('one pin from the command line is served by both servers on the next request', async () => {
    const schema = await createPostgresSchema();
    const store = join(dir, 'shared-store');
    const url = new URL(postgresUrl as string);
    url.searchParams.set('options', `-c search_path=${schema.name}`);
    const databaseUrl = url.toString();
    const servers = [0, 1].map((i) => startMain({ ...portalEnv(fixture, join(dir, `pg-${i}`), store), DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }));
    try {
      const urls = [];
      for (const server of servers) urls.push(await runningUrl(server));
      const cli = (...args: string[]) => runCli(['remotes', ...args], { DATABASE_URL: databaseUrl, PORTAL_DATA_DIR: join(dir, 'unused'), PORTAL_REMOTES_DIR: store });
      for (const version of ['0.1.0', '0.2.0']) assert.equal((await cli('publish', writeRemoteBuild(dir, 'groups', version))).code, 0);
      assert.equal((await cli('pin', 'test', 'groups@0.1.0')).code, 0);
      assert.deepEqual(await Promise.all(urls.map((u) => servedVersion(u, 'groups'))), ['0.1.0', '0.1.0']);
      const pinned = await cli('pin', 'test', 'groups@0.2.0');
      assert.equal(pinned.stderr, '');
      assert.deepEqual(await Promise.all(urls.map((u) => servedVersion(u, 'groups'))), ['0.2.0', '0.2.0']);
      // Both serve the new version's files from the shared store.
      for (const u of urls) assert.equal(await (await fetch(`${u}/remotes/groups/0.2.0/remoteEntry.js`)).text(), "var groups = '0.2.0';");
    } finally {
      await Promise.all(servers.map(stop));
      await schema.drop();
    }
  });
});
