/** The server as a process (the bundle of src/main.ts, as `npm start` runs dist/main.mjs). */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { LOCK_FILE_NAME } from '../src/db/lock.js';
import { readMigrations } from '../src/db/migrate.js';
import { POSTGRES_URL, createFixture, createPostgresSchema, type Fixture } from './helpers.js';
import { outputMatching, runningUrl, startMain } from './process-helpers.js';

/** The end of the demo sign-in text: its list of demo groups and the blank line after it. */
const DEMO_TEXT_END = /^Demo groups \(listed at \/groups\):\n(?: {2}.*\n)+/m;

let fixture: Fixture;
let dataDir: string;
let firstStartTokens: string[] = [];

/** The website tokens of the demo sign-in lines. */
function demoTokens(output: string): string[] {
  return [...output.matchAll(/^ {2}\S+ +\S+(?: \((?:locked|closed)\))? +([A-Za-z0-9_-]{43})$/gm)].map((m) => m[1] ?? '');
}
before(() => {
  fixture = createFixture();
  dataDir = mkdtempSync(join(tmpdir(), 'portal-main-'));
});
after(() => {
  fixture.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

const siteEnv = (): Record<string, string> => ({
  PORT: '0',
  PORTAL_LIST_SMTP_PORT: '0',
  PORTAL_HOST_DIR: fixture.hostDir,
  PORTAL_REMOTES_DIR: fixture.remotesDir,
  PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile,
});

describe('main', () => {
  test('a bad configuration value exits non-zero naming the key', async () => {
    const running = startMain({ ...siteEnv(), PORTAL_DATA_DIR: join(dataDir, 'never'), PORTAL_CAC_SUPPORT: 'maybe', PORT: 'eighty' });
    const { code } = await running.exit;
    assert.equal(code, 1);
    assert.equal(
      running.output(),
      [
        'Configuration error:',
        "  - cac_support: 'maybe' is not a boolean; use true, false, 1, 0, yes or no (from PORTAL_CAC_SUPPORT)",
        "  - PORT: 'eighty' is not a port number (0 to 65535)",
        '',
      ].join('\n'),
    );
    assert.equal(existsSync(join(dataDir, 'never')), false, 'nothing was opened');
  });

  test('starts on the embedded database, serves, refuses a second server on its folder, and stops on SIGTERM', async () => {
    const env = { ...siteEnv(), PORTAL_DATA_DIR: join(dataDir, 'embedded') };
    const running = startMain(env);
    try {
      const url = await runningUrl(running);
      await outputMatching(running, DEMO_TEXT_END);
      assert.match(running.output(), /Portal running at http:\/\/localhost:\d+ \(database: embedded PGlite in .*embedded\)\n/);
      assert.match(
        running.output(),
        /Demo accounts \(sign in at http:\/\/localhost:\d+\/login with the username and website token; demo data, never for production\):\n {2}admin +site-admin +[A-Za-z0-9_-]{43}\n {2}adjudicator +adjudicator +[A-Za-z0-9_-]{43}\n {2}helpdesk +help-desk +[A-Za-z0-9_-]{43}\n {2}user +user +[A-Za-z0-9_-]{43}\n {2}locked\.user +user \(locked\) +[A-Za-z0-9_-]{43}\n {2}closed\.user +user \(closed\) +[A-Za-z0-9_-]{43}\n {2}renewal\.user +user +[A-Za-z0-9_-]{43}\n/,
      );
      firstStartTokens = demoTokens(running.output());
      assert.equal(statSync(join(env.PORTAL_DATA_DIR, 'demo-accounts.json')).mode & 0o777, 0o600);
      assert.equal(statSync(join(env.PORTAL_DATA_DIR, 'portal.sock')).mode & 0o777, 0o600);

      const health = await fetch(`${url}/accounts/rest/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', database: 'ok' });
      const config = await fetch(`${url}/accounts/rest/configuration`);
      assert.equal(((await config.json()) as { brand: string }).brand, 'undefined');

      const lockFile = join(env.PORTAL_DATA_DIR, LOCK_FILE_NAME);
      assert.equal(readFileSync(lockFile, 'utf8'), `${running.child.pid}\n`);

      const second = startMain(env);
      assert.equal((await second.exit).code, 1);
      assert.equal(
        second.output(),
        `Cannot start the portal: The embedded database in ${env.PORTAL_DATA_DIR} is in use by process ${running.child.pid}. Stop that process first, or set DATABASE_URL.\n`,
      );

      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null });
      assert.equal(existsSync(lockFile), false, 'the lock is released');
      assert.equal(existsSync(join(env.PORTAL_DATA_DIR, 'portal.sock')), false, 'the command socket is removed');
    } finally {
      running.child.kill('SIGKILL');
    }
  });

  test('a second start on the same folder keeps the data, seeds nothing, and prints the same demo sign-ins', async () => {
    const running = startMain({ ...siteEnv(), PORTAL_DATA_DIR: join(dataDir, 'embedded') });
    try {
      await runningUrl(running);
      assert.deepEqual(demoTokens(await outputMatching(running, DEMO_TEXT_END)), firstStartTokens);
      assert.equal(firstStartTokens.length, 7);
      running.child.kill('SIGINT');
      assert.deepEqual(await running.exit, { code: 0, signal: null });
    } finally {
      running.child.kill('SIGKILL');
    }
  });

  test('a stop does not wait for ever on a request that never ends: its connection is cut after 10 s, and the data is closed properly', async () => {
    const env = { ...siteEnv(), PORTAL_DATA_DIR: join(dataDir, 'stuck') };
    const running = startMain(env);
    const client = new Socket();
    try {
      const url = new URL(await runningUrl(running));
      // A client that stopped sending halfway through its request's headers.
      await new Promise<void>((resolve, reject) => client.once('error', reject).connect(Number(url.port), '127.0.0.1', resolve));
      client.write('GET /accounts/rest/health HTTP/1.1\r\nHost: localhost\r\n');
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signalled = Date.now();
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null });
      const took = Date.now() - signalled;
      assert.ok(took >= 9_000 && took < 20_000, `the stop took ${took} ms`);
      await closed;
      assert.match(running.output(), /^Shutdown: requests still open after 10 s; closing their connections\.$/m);
      assert.equal(existsSync(join(env.PORTAL_DATA_DIR, LOCK_FILE_NAME)), false, 'the database was closed: its lock is released');
    } finally {
      client.destroy();
      running.child.kill('SIGKILL');
    }
  });

  test('a broken environment manifest exits non-zero with the reason', async () => {
    const broken = createFixture();
    broken.writeManifest({ environment: 'test', remotes: 'all of them' });
    const running = startMain({ ...siteEnv(), PORTAL_ENVIRONMENT_MANIFEST: broken.manifestFile, PORTAL_DATA_DIR: join(dataDir, 'broken') });
    try {
      assert.equal((await running.exit).code, 1);
      assert.equal(
        running.output(),
        `Cannot start the portal: The environment manifest ${broken.manifestFile} is not usable:\n  remotes: must be a list\n`,
      );
      assert.equal(existsSync(join(dataDir, 'broken')), false, 'no database was opened');
    } finally {
      broken.remove();
    }
  });

  const postgresUrl = POSTGRES_URL;
  if (postgresUrl) {
    test('starts on PostgreSQL (DATABASE_URL), migrates, seeds nothing by default, and stops on SIGTERM', async () => {
      const schema = await createPostgresSchema();
      const url = new URL(postgresUrl);
      url.searchParams.set('options', `-c search_path=${schema.name}`);
      const running = startMain({ ...siteEnv(), DATABASE_URL: url.toString(), PORTAL_DATA_DIR: join(dataDir, 'unused') });
      try {
        const base = await runningUrl(running);
        assert.match(running.output(), /\(database: PostgreSQL \(DATABASE_URL\)\)/);
        assert.doesNotMatch(running.output(), /Demo accounts/);
        assert.equal(existsSync(join(dataDir, 'unused')), false, 'no demo file outside demo mode');
        assert.deepEqual(await (await fetch(`${base}/accounts/rest/health`)).json(), { status: 'ok', database: 'ok' });
        const db = schema.open();
        const onDisk = readMigrations().map(({ version }) => ({ version }));
        assert.deepEqual((await db.query('select version from schema_migrations order by version')).rows, onDisk);
        running.child.kill('SIGTERM');
        assert.deepEqual(await running.exit, { code: 0, signal: null });
        assert.equal(existsSync(join(dataDir, 'unused')), false, 'no embedded database');
      } finally {
        running.child.kill('SIGKILL');
        await schema.drop();
      }
    });

    test('refuses a PostgreSQL database that is not UTF8, saying which encoding it has, and creates nothing in it', async () => {
      const name = `portal_latin1_${process.pid}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${name}`);
        await admin.query(`create database ${name} encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0`);
        const url = new URL(postgresUrl);
        url.pathname = `/${name}`;
        const running = startMain({ ...siteEnv(), DATABASE_URL: url.toString(), PORTAL_DATA_DIR: join(dataDir, 'unused') });
        try {
          assert.equal((await running.exit).code, 1);
          assert.equal(
            running.output(),
            "Cannot start the portal: The PostgreSQL database of DATABASE_URL uses the encoding LATIN1; the portal needs a UTF8 database (CREATE DATABASE name ENCODING 'UTF8' TEMPLATE template0).\n",
          );
        } finally {
          running.child.kill('SIGKILL');
        }
        const latin1 = new pg.Client({ connectionString: url.toString() });
        await latin1.connect();
        try {
          assert.deepEqual((await latin1.query("select to_regclass('public.schema_migrations') as t")).rows, [{ t: null }], 'no migration ran');
        } finally {
          await latin1.end();
        }
      } finally {
        await admin.query(`drop database if exists ${name}`);
        await admin.end();
      }
    });
  }
});
