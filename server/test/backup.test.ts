/**
 * `portal backup FILE` and `portal restore FILE` (services/backup.ts), run as processes on real
 * data folders: a folder with rows in every table is backed up with the folder free and through a
 * running portal's socket, each backup is restored into a fresh folder, and every table's rows
 * are compared. Then what a restore refuses (a non-empty folder, a running portal, files that are
 * not a compatible dump), leaving the folder as it was. With DATABASE_URL: both commands print the
 * pg_dump / pg_restore commands, and those commands round-trip a PostgreSQL database.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { pack, type Header } from 'tar-stream';
import type { Database, Queryable } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { readTar } from '../src/db/tar.js';
import { runOidcClientCommand } from '../src/services/service-sign-in/oidc/clients.js';
import { ensureSigningKeys } from '../src/services/service-sign-in/oidc/keys.js';
import { seedDemoData } from '../src/seed.js';
import { PGLITE_POSTGRES_MAJOR } from '../src/services/backup.js';
import { enqueueMail } from '../src/services/mail.js';
import { runServiceCredentialCommand } from '../src/services/tokens/service-credentials.js';
import { pinRemote, publishRemote } from '../src/services/federation.js';
import { readRemoteBuild } from '../src/services/remote-store.js';
import { POSTGRES_URL, createFixture, writeRemoteBuild, type Fixture } from './helpers.js';
import { portalEnv, runCli, runningUrl, startMain, type CliResult } from './process-helpers.js';

let fixture: Fixture;
let dir: string;
before(() => {
  fixture = createFixture();
  dir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
});
after(() => {
  fixture.remove();
  rmSync(dir, { recursive: true, force: true });
});


/** Every table of the current schema with its rows, each row as JSON, sorted. */
async function snapshot(db: Queryable): Promise<Map<string, string[]>> {
  const { rows: tables } = await db.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
  );
  const result = new Map<string, string[]>();
  for (const { name } of tables) {
    const { rows } = await db.query<{ r: string }>(`select row_to_json(t)::text as r from "${name}" t order by 1`);
    result.set(name, rows.map((row) => row.r));
  }
  return result;
}

async function snapshotOfFolder(dataDir: string): Promise<Map<string, string[]>> {
  const db = await openPglite({ dataDir });
  try {
    return await snapshot(db);
  } finally {
    await db.close();
  }
}

/** The demo data, and a row in each table the demo leaves empty (through the services where there is one). */
async function fillEveryTable(db: Database): Promise<void> {
  await seedDemoData(db, { emailDomain: 'example.test' });
  const now = new Date('2026-01-02T03:04:05.000Z');
  await db.transaction((tx) => enqueueMail(tx, { to: 'someone@example.test', subject: 'Kept', text: 'A mail in the outbox.' }));
  await runServiceCredentialCommand(db, 'create', 'wiki', now);
  const account = (await db.query<{ id: number }>("select id from accounts where username = 'user'")).rows[0]?.id;
  const list = (await db.query<{ id: string }>('select id from mailing_lists order by id limit 1')).rows[0]?.id;
  assert.ok(account !== undefined && list !== undefined);
  await db.query('insert into list_subscriptions (list_id, account_id, subscribed, digest, updated_at) values ($1, $2, true, true, $3)', [list, account, now]);
  await db.query('insert into list_moderators (list_id, account_id) values ($1, $2)', [list, account]);
  await db.query("insert into list_accepted_senders (list_id, sender, created_at) values ($1, 'outsider@elsewhere.example', $2)", [list, now]);
  await db.query("insert into list_posts (list_id, sender, subject, text_body, accepted_at) values ($1, 'user@example.test', 'Hello', 'Hi all', $2)", [list, now]);
  await db.query("insert into login_failures (key, failures, last_failure_at) values ('id:nobody', 3, $1)", [now]);
  await db.query("insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at) values ('ab12', $1, $2, $2, $2)", [account, now]);
  await db.query("insert into used_challenges (signature_hash, expires_at) values ('cd34', $1)", [now]);
  await db.query("insert into verification_codes (email, code_hash, created_at, expires_at) values ('user@example.test', 'ef56', $1, $1)", [now]);
  await db.query("insert into server_secrets (name, value) values ('test', 'secret value')");
  await db.query("insert into rate_limit_hits (key, hits, expires_at) values ('sign-in 192.0.2.1 0', 3, $1)", [now]);
  // Provisioning: a target, a change it waits to apply and its history.
  await db.query("insert into provisioning_targets (name, kind, last_reconcile_at, last_reconcile_drift) values ('ldap', 'ldap', $1, 2)", [now]);
  await db.query("insert into provisioning_pending (target, object, since, attempts, next_attempt_at, last_error) values ('ldap', 'group:X-team', $1, 1, $1, 'the directory did not answer')", [now]);
  await db.query("insert into provisioning_events (target, at, kind, object, detail) values ('ldap', $1, 'failed', 'group:X-team', 'the directory did not answer')", [now]);
  // The OpenID provider: a client, its signing key and one of its records.
  await runOidcClientCommand(db, { action: 'add', name: 'wiki', redirectUris: ['https://wiki.example.test/callback'], consent: false }, now);
  await ensureSigningKeys(db, now);
  await db.query("insert into oidc_models (model, id, payload, expires_at) values ('Session', 'gh78', '{\"accountId\": \"1\"}', $1)", [now]);
  // A published remote, its pin (with history) and a session's preview of it.
  const storeDir = mkdtempSync(join(tmpdir(), 'portal-backup-store-'));
  try {
    const context = { db, storeDir, now: () => now };
    await publishRemote(context, await readRemoteBuild(writeRemoteBuild(storeDir, 'groups', '0.1.0')), 'team');
    await pinRemote(context, 'test', 'groups', '0.1.0', 'ada', 'first');
    await db.query("insert into remote_previews (session_id_hash, name, version) values ('ab12', 'groups', '0.1.0')");
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }
}

function assertEveryTableHasRows(tables: Map<string, string[]>): void {
  const empty = [...tables].filter(([, rows]) => rows.length === 0).map(([name]) => name);
  assert.deepEqual(empty, [], 'every table has rows to compare');
  assert.ok(tables.size >= 26, `all the tables are there (${tables.size})`);
}

function assertSameRows(actual: Map<string, string[]>, expected: Map<string, string[]>): void {
  assert.deepEqual([...actual.keys()], [...expected.keys()], 'the same tables');
  for (const [name, rows] of expected) assert.deepEqual(actual.get(name), rows, `the rows of ${name}`);
}

function folderState(dataDir: string): Record<string, number> {
  const state: Record<string, number> = {};
  for (const name of readdirSync(dataDir, { recursive: true }) as string[]) {
    const stats = statSync(join(dataDir, name));
    state[name] = stats.isFile() ? stats.mtimeMs * 1e6 + stats.size : -1;
  }
  return state;
}

describe('portal backup and restore (embedded database)', () => {
  let source: string;
  let original: Map<string, string[]>;
  before(async () => {
    source = join(dir, 'source');
    const db = await openPglite({ dataDir: source });
    try {
      await migrate(db);
      await fillEveryTable(db);
      original = await snapshot(db);
    } finally {
      await db.close();
    }
  });

  test('the pinned PGlite writes the PostgreSQL version a backup is checked against', () => {
    assert.equal(readFileSync(join(source, 'PG_VERSION'), 'utf8').trim(), PGLITE_POSTGRES_MAJOR);
  });

  test('backed up with the folder free and through a running portal, restored into fresh folders: every row of every table', async () => {
    assertEveryTableHasRows(original);
    const env = { PORTAL_DATA_DIR: source };

    const free = join(dir, 'free.tar.gz');
    const first = await runCli(['backup', free], env);
    assert.equal(first.stderr, '');
    assert.equal(first.code, 0);
    assert.match(first.stdout, new RegExp(`^Backup of ${source} written to ${free} \\(\\d+\\.\\d MB\\)\\.\\n$`));
    assert.equal(statSync(free).mode & 0o777, 0o600, 'readable by its owner only');
    assert.ok(!existsSync(join(source, 'portal.lock')), 'the folder is free again');

    const portal = startMain(portalEnv(fixture, source));
    const live = join(dir, 'live.tar.gz');
    let admin: CliResult;
    let second: CliResult;
    try {
      await runningUrl(portal);
      // A change through the running portal, then the backup through its socket: the backup has it.
      admin = await runCli(['create-admin', '--username', 'after.backup', '--email', 'after.backup@example.test'], env);
      second = await runCli(['backup', live], env);
    } finally {
      portal.child.kill('SIGTERM');
      assert.equal((await portal.exit).code, 0, portal.output());
    }
    assert.equal(admin.code, 0, admin.stderr);
    assert.equal(second.stderr, '');
    assert.equal(second.code, 0);
    assert.match(second.stdout, new RegExp(`^Backup of ${source} written to ${live} \\(\\d+\\.\\d MB\\)\\.\\n$`));
    assert.equal(statSync(live).mode & 0o777, 0o600);
    const afterPortal = await snapshotOfFolder(source);
    assert.equal(afterPortal.get('accounts')?.length, (original.get('accounts')?.length ?? 0) + 1);

    for (const [backup, expected, name] of [
      [free, original, 'restored-free'],
      [live, afterPortal, 'restored-live'],
    ] as const) {
      const target = join(dir, name);
      const restored = await runCli(['restore', backup], { PORTAL_DATA_DIR: target });
      assert.equal(restored.stderr, '');
      assert.equal(restored.code, 0);
      assert.equal(restored.stdout, `Restored ${backup} into ${target}. Pending migrations run when the portal starts.\n`);
      assert.ok(!existsSync(join(target, 'portal.lock')) && !existsSync(join(target, 'portal.sock')), 'no lock or socket of the process that was backed up');
      assertSameRows(await snapshotOfFolder(target), expected);
      // Usable: opens and migrates (nothing pending here) as the next start does.
      const db = await openPglite({ dataDir: target });
      try {
        assert.deepEqual(await migrate(db), []);
      } finally {
        await db.close();
      }
    }

    // The portal starts on a restored folder, and the admin created before the backup signs in there.
    const restoredPortal = startMain(portalEnv(fixture, join(dir, 'restored-live')));
    try {
      await runningUrl(restoredPortal);
      const mail = await runCli(['mail', 'list', '--to', 'someone@example.test', '--json'], { PORTAL_DATA_DIR: join(dir, 'restored-live') });
      assert.equal(mail.code, 0, mail.stderr);
      assert.equal(JSON.parse(mail.stdout).subject, 'Kept');
    } finally {
      restoredPortal.child.kill('SIGTERM');
      assert.equal((await restoredPortal.exit).code, 0, restoredPortal.output());
    }
  });

  test('restore refuses a non-empty folder without --force, a running portal and files that are not a compatible dump; the folder is left as it was', async () => {
    const backup = join(dir, 'refusals.tar.gz');
    assert.equal((await runCli(['backup', backup], { PORTAL_DATA_DIR: source })).code, 0);

    // A folder holding a database: refused without --force, untouched.
    const target = join(dir, 'occupied');
    const db = await openPglite({ dataDir: target });
    await migrate(db);
    await db.query("insert into server_secrets (name, value) values ('occupied', 'x')");
    await db.close();
    const before = folderState(target);
    const refused = await runCli(['restore', backup], { PORTAL_DATA_DIR: target });
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, new RegExp(`^Cannot restore: ${target} is not empty \\(\\d+ entries\\)\\. Add --force to replace what it holds\\.\\n$`));
    assert.deepEqual(folderState(target), before);

    // Files that are not a dump this portal can restore.
    const notTar = join(dir, 'not-a-tar.gz');
    writeFileSync(notTar, gzipSync(Buffer.from('hello')));
    const damaged = join(dir, 'damaged.gz');
    writeFileSync(damaged, readFileSync(backup).subarray(0, 4096));
    const newer = join(dir, 'other-version.tar');
    const archive = gunzipSync(readFileSync(backup));
    writeFileSync(newer, withPgVersion(archive, '99'));
    // The backup's own entries with one more that a restore must never write: a name going up out
    // of the folder, and a link out of it.
    const hostile = async (extra: Partial<Header> & { name: string }) => {
      const writer = pack();
      const chunks: Buffer[] = [];
      const done = new Promise<Buffer>((resolve) => {
        writer.on('data', (chunk) => chunks.push(chunk as Buffer));
        writer.on('end', () => resolve(Buffer.concat(chunks)));
      });
      for (const entry of (await readTar(archive)) ?? []) {
        if (entry.type === 'file') writer.entry({ name: `/${entry.path}` }, Buffer.from(entry.data));
        else writer.entry({ name: `/${entry.path}`, type: 'directory' });
      }
      if (extra.type === 'file') writer.entry(extra, 'outside');
      else writer.entry(extra);
      writer.finalize();
      return gzipSync(await done);
    };
    const goingUp = join(dir, 'going-up.tar.gz');
    writeFileSync(goingUp, await hostile({ name: '../outside', type: 'file' }));
    const linked = join(dir, 'linked.tar.gz');
    writeFileSync(linked, await hostile({ name: '/base/outside', type: 'symlink', linkname: '/etc/passwd' }));
    const notADump = (file: string) =>
      `Cannot restore: ${file} is not a backup of the embedded database (a PGlite dump, as \`portal backup\` writes): it is not a tar archive of a data folder.\n`;
    const cases: [string, RegExp | string][] = [
      [join(dir, 'missing.tar.gz'), /^Cannot restore: Cannot read .*missing\.tar\.gz: ENOENT\.\n$/],
      [notTar, notADump(notTar)],
      [goingUp, notADump(goingUp)],
      [linked, notADump(linked)],
      [damaged, /^Cannot restore: .*damaged\.gz is not a backup of the embedded database: its gzip data is damaged/],
      [newer, /^Cannot restore: .*other-version\.tar is a dump of PostgreSQL 99, and this portal's PGlite runs PostgreSQL 18: restore it with the portal version that made it\.\n$/],
    ];
    for (const [file, message] of cases) {
      const result = await runCli(['restore', file, '--force'], { PORTAL_DATA_DIR: target });
      assert.equal(result.code, 1, file);
      if (typeof message === 'string') assert.equal(result.stderr, message);
      else assert.match(result.stderr, message);
      assert.deepEqual(folderState(target), before, `${file}: the folder is as it was`);
    }
    assert.deepEqual(readdirSync(dir).filter((name) => name.includes('.restore-') || name.includes('.replaced-')), [], 'no scratch folder left');

    // A portal running on the folder: refused even with --force.
    const portal = startMain(portalEnv(fixture, target));
    try {
      await runningUrl(portal);
      const running = await runCli(['restore', backup, '--force'], { PORTAL_DATA_DIR: target });
      assert.equal(running.code, 1);
      assert.equal(running.stderr, `Cannot restore: The embedded database in ${target} is in use by process ${portal.child.pid}. Stop the portal first.\n`);
    } finally {
      portal.child.kill('SIGTERM');
      assert.equal((await portal.exit).code, 0, portal.output());
    }
    assert.equal((await snapshotOfFolder(target)).get('server_secrets')?.some((row) => row.includes('occupied')), true, 'the database is the one it was');

    // With --force, the folder holds the backup afterwards.
    const forced = await runCli(['restore', backup, '--force'], { PORTAL_DATA_DIR: target });
    assert.equal(forced.stderr, '');
    assert.equal(forced.stdout, `Restored ${backup} into ${target} (its previous contents replaced). Pending migrations run when the portal starts.\n`);
    assertSameRows(await snapshotOfFolder(target), await snapshotOfFolder(source));
  });

  test('backup refuses an existing file without --force and a folder without a database; usage errors', async () => {
    const file = join(dir, 'exists.tar.gz');
    writeFileSync(file, 'keep me');
    const refused = await runCli(['backup', file], { PORTAL_DATA_DIR: source });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `Cannot back up: ${file} exists already. Choose another file, or add --force to replace it.\n`);
    assert.equal(readFileSync(file, 'utf8'), 'keep me');
    const forced = await runCli(['backup', file, '--force'], { PORTAL_DATA_DIR: source });
    assert.equal(forced.code, 0, forced.stderr);
    assert.notEqual(readFileSync(file, 'utf8'), 'keep me');

    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const none = await runCli(['backup', join(dir, 'none.tar.gz')], { PORTAL_DATA_DIR: empty });
    assert.equal(none.code, 1);
    assert.equal(none.stderr, `Cannot back up: There is no embedded database in ${empty}.\n`);
    assert.deepEqual(readdirSync(empty), [], 'nothing created');

    for (const args of [['backup'], ['restore'], ['backup', 'a', 'b'], ['restore', 'a', '--overwrite']]) {
      const usage = await runCli(args, { PORTAL_DATA_DIR: empty });
      assert.equal(usage.code, 2, args.join(' '));
      assert.match(usage.stderr, /\n\nUsage: portal <command>/);
    }
  });
});

/** The archive with PG_VERSION saying another version (its header checksum recomputed). */
function withPgVersion(archive: Buffer, version: string): Buffer {
  const copy = Buffer.from(archive);
  let offset = 0;
  while (offset + 512 <= copy.length) {
    const header = copy.subarray(offset, offset + 512);
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    if (name === '/PG_VERSION' || name === 'PG_VERSION') {
      const data = Buffer.from(`${version}\n`);
      data.copy(copy, offset + 512);
      header.write(data.length.toString(8).padStart(11, '0') + '\0', 124, 'utf8');
      header.fill(32, 148, 156);
      let sum = 0;
      for (const byte of header) sum += byte;
      header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'utf8');
      return copy;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('no PG_VERSION in the archive');
}

describe('portal backup and restore with DATABASE_URL (PostgreSQL)', { skip: POSTGRES_URL === undefined }, () => {
  test('both print the pg_dump / pg_restore command, and those commands round-trip every row', async () => {
    const url = POSTGRES_URL ?? '';
    const file = join(dir, 'postgres.dump');
    const backup = await runCli(['backup', file], { DATABASE_URL: url });
    assert.equal(backup.code, 1);
    assert.equal(backup.stdout, '');
    assert.equal(
      backup.stderr,
      [
        'Cannot back up: The portal uses PostgreSQL (DATABASE_URL): back it up with pg_dump, with DATABASE_URL set as for the portal:',
        `  pg_dump --format=custom --no-owner --file=${file} "$DATABASE_URL"`,
        '',
      ].join('\n'),
    );
    assert.ok(!backup.stderr.includes(url), 'DATABASE_URL is never printed');
    const restore = await runCli(['restore', file], { DATABASE_URL: url });
    assert.equal(restore.code, 1);
    assert.equal(
      restore.stderr,
      [
        'Cannot restore: The portal uses PostgreSQL (DATABASE_URL): stop the portal, then restore with pg_restore into an empty database, with DATABASE_URL naming it:',
        `  pg_restore --no-owner --exit-on-error --single-transaction --dbname="$DATABASE_URL" ${file}`,
        'Pending migrations run when the portal starts.',
        '',
      ].join('\n'),
    );

    // The printed commands, run as printed, on two databases of their own.
    const admin = openPostgres({ connectionString: url });
    const suffix = `${process.pid}_${Date.now()}`;
    const names = [`portal_backup_${suffix}`, `portal_restore_${suffix}`];
    const urlOf = (name: string) => {
      const parsed = new URL(url);
      parsed.pathname = `/${name}`;
      return parsed.toString();
    };
    try {
      for (const name of names) await admin.query(`create database ${name}`);
      const sourceDb = openPostgres({ connectionString: urlOf(names[0] ?? '') });
      let expected: Map<string, string[]>;
      try {
        await migrate(sourceDb);
        await fillEveryTable(sourceDb);
        expected = await snapshot(sourceDb);
      } finally {
        await sourceDb.close();
      }
      assertEveryTableHasRows(expected);
      const command = (text: string) => /^ {2}(.*)$/m.exec(text)?.[1] ?? '';
      execFileSync('sh', ['-c', command(backup.stderr)], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: urlOf(names[0] ?? '') } });
      execFileSync('sh', ['-c', command(restore.stderr)], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: urlOf(names[1] ?? '') } });
      const restoredDb = openPostgres({ connectionString: urlOf(names[1] ?? '') });
      try {
        assertSameRows(await snapshot(restoredDb), expected);
        assert.deepEqual(await migrate(restoredDb), [], 'usable: nothing pending');
        await restoredDb.query("insert into server_secrets (name, value) values ('after-restore', 'x')");
        await restoredDb.query("insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at) values ('a@example.test', 's', 'b', now(), now())");
      } finally {
        await restoredDb.close();
      }
    } finally {
      for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    }
  });
});
