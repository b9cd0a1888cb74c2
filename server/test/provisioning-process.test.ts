/**
 * Provisioning in the server as `npm start` runs it, with a real slapd: the directory is filled
 * at start, and `portal provision status|reconcile` answer through the running portal; a server
 * killed with SIGKILL while it applies a backlog loses none of it (on PGlite and PostgreSQL).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { insertUserGroup } from '../src/repositories/groups.js';
import { pendingRows, registerTargets } from '../src/repositories/provisioning/queue.js';
import { createFixture, DATABASE_KINDS, type Fixture } from './helpers.js';
import { groupMembers, LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, ldapModify, ldapSearch, memberOf, startSlapd, type Slapd } from './ldap-helpers.js';
import { portalEnv, processDatabase, type ProcessDatabase, runCli, runningUrl, startMain, type Running } from './process-helpers.js';

let fixture: Fixture;
let slapd: Slapd;
let dataDir: string;
before(async () => {
  fixture = createFixture();
  slapd = await startSlapd();
  dataDir = mkdtempSync(join(tmpdir(), 'portal-provisioning-'));
});
after(async () => {
  fixture.remove();
  await slapd.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a new portal with demo data fills an empty directory at start; provision status and reconcile answer through it', async () => {
  const env = {
    PORT: '0',
    PORTAL_LIST_SMTP_PORT: '0',
    PORTAL_HOST_DIR: fixture.hostDir,
    PORTAL_REMOTES_DIR: fixture.remotesDir,
    PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile,
    PORTAL_DATA_DIR: join(dataDir, 'embedded'),
    PORTAL_SEED_DEMO: 'true',
    PORTAL_LDAP_URL: slapd.url,
    PORTAL_LDAP_BIND_DN: LDAP_ADMIN_DN,
    PORTAL_LDAP_BIND_PASSWORD: LDAP_ADMIN_PASSWORD,
    PORTAL_LDAP_BASE_DN: LDAP_SUFFIX,
  };
  const running = startMain(env);
  try {
    await runningUrl(running);
    const people = () => ldapSearch(slapd.url, `ou=people,${LDAP_SUFFIX}`, '(objectClass=inetOrgPerson)', ['uid'], 'one').map((e) => e.uid?.[0]).sort();
    const demo = ['adjudicator', 'admin', 'closed.user', 'helpdesk', 'locked.user', 'renewal.user', 'user'];
    const deadline = Date.now() + 20_000;
    while (people().length < demo.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(people(), demo, running.output());
    assert.deepEqual(memberOf(slapd.url, LDAP_SUFFIX, 'locked.user'), [], 'a locked account is in no group');

    const status = await runCli(['provision', 'status', '--json'], { PORTAL_DATA_DIR: env.PORTAL_DATA_DIR });
    assert.equal(status.code, 0, status.stderr);
    const overview = JSON.parse(status.stdout) as { targets: { name: string; backlog: number; last_reconcile_at: string | null }[]; failures: unknown[] };
    assert.equal(overview.targets.length, 1);
    assert.equal(overview.targets[0]?.name, 'ldap');
    assert.notEqual(overview.targets[0]?.last_reconcile_at, null);
    assert.deepEqual(overview.failures, []);

    const dry = await runCli(['provision', 'reconcile', '--dry-run'], { PORTAL_DATA_DIR: env.PORTAL_DATA_DIR });
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(dry.stdout, 'ldap: 0 differences from the portal, 0 would be created, 0 would be changed, 0 would be removed\n');
    assert.doesNotMatch(running.output() + status.stdout + status.stderr, new RegExp(LDAP_ADMIN_PASSWORD));
  } finally {
    running.child.kill('SIGTERM');
    await running.exit;
  }
});

test('provision reconcile without a target says what to set; a bad action is a usage error', async () => {
  const none = await runCli(['provision', 'reconcile'], { PORTAL_DATA_DIR: join(dataDir, 'none') });
  assert.equal(none.code, 1);
  assert.equal(none.stderr, 'Cannot reconcile: No provisioning target is configured (set PORTAL_LDAP_URL with the other PORTAL_LDAP_ settings, or PORTAL_SCIM_TARGETS).\n');
  const bad = await runCli(['provision', 'sync'], { PORTAL_DATA_DIR: join(dataDir, 'none') });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^Unknown provision action 'sync'\./);
});

/** Accounts made, each with a membership: enough that applying them takes the worker a while. */
const BACKLOG = 400;

for (const kind of DATABASE_KINDS) {
  describe(`a server killed with SIGKILL while it applies a backlog, on ${kind}`, () => {
    const base = `ou=killed-${kind},${LDAP_SUFFIX}`;
    let dir: string;
    let database: ProcessDatabase | undefined;
    let env: Record<string, string>;
    /** The database as the test reads it (PGlite: only while no server holds the folder). */
    let openDb: () => Promise<Database>;
    let running: Running | undefined;
    const usernames = Array.from({ length: BACKLOG }, (_, i) => `member${String(i).padStart(4, '0')}`);

    before(async () => {
      ldapModify(slapd.url, `dn: ${base}\nchangetype: add\nobjectClass: organizationalUnit\nou: killed-${kind}\n`);
      dir = mkdtempSync(join(tmpdir(), 'portal-provisioning-kill-'));
      const dataDir = join(dir, 'data');
      env = {
        ...portalEnv(fixture, dataDir),
        PORTAL_LDAP_URL: slapd.url,
        PORTAL_LDAP_BIND_DN: LDAP_ADMIN_DN,
        PORTAL_LDAP_BIND_PASSWORD: LDAP_ADMIN_PASSWORD,
        PORTAL_LDAP_BASE_DN: base,
      };
      database = await processDatabase(kind, dataDir);
      if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
      openDb = database.open;
      const db = await openDb();
      await migrate(db);
      // The target as the server registers it, so that the decisions below are recorded for it.
      await registerTargets(db, [{ name: 'ldap', kind: 'ldap' }]);
      // Another server holds the reconcile: neither start here reconciles, so what reaches the
      // directory reaches it through the recorded changes alone (a reconcile would hide a lost one).
      await db.query(`update provisioning_targets set reconcile_claimed_until = now() + interval '1 day'`);
      await insertUserGroup(db, {
        id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [],
      });
      await db.transaction(async (tx) => {
        for (const username of usernames) {
          const { rows } = await tx.query<{ id: string | number }>(
            `insert into accounts (username, email, first_name, last_name, active, closed) values ($1, $2, 'Test', 'Person', true, false) returning id`,
            [username, `${username}@example.test`],
          );
          await tx.query(`insert into group_memberships (user_group_id, account_id, group_name) values ('ALPHA', $1, 'ALPHA-team')`, [rows[0]?.id]);
        }
      });
      assert.equal((await pendingRows(db, { limit: BACKLOG * 2 })).length, BACKLOG, 'one change recorded per account');
      await db.close();
    });

    after(async () => {
      running?.child.kill('SIGKILL');
      await running?.exit;
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('every change recorded before the kill reaches the directory after a restart, and no pending row is left', async (t) => {
      const people = () => ldapSearch(slapd.url, `ou=people,${base}`, '(objectClass=inetOrgPerson)', ['uid'], 'one').map((e) => e.uid?.[0] ?? '');
      running = startMain(env);
      // Killed as soon as the directory shows the worker at work.
      const deadline = Date.now() + 60_000;
      let seen = 0;
      while (seen === 0) {
        assert.ok(Date.now() < deadline, `nothing reached the directory within 60 s:\n${running.output()}`);
        assert.equal(running.child.exitCode, null, running.output());
        seen = people().length;
        if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      running.child.kill('SIGKILL');
      assert.deepEqual(await running.exit, { code: null, signal: 'SIGKILL' });
      const applied = new Set(people());
      assert.ok(applied.size < BACKLOG, `the kill came after all ${BACKLOG} were applied; the test needs a bigger backlog`);

      // Nothing lost at the kill: each account not in the directory yet still has its change waiting.
      let db = await openDb();
      const waiting = new Set((await pendingRows(db, { limit: BACKLOG * 2 })).map((r) => r.object));
      const { rows: accounts } = await db.query<{ id: string | number; username: string }>('select id, username from accounts order by username');
      // On PostgreSQL the killed worker's claims stay until their lease (2 minutes) runs out, as
      // another server may hold them (provisioning.test.ts: a claim left alone, one run out). The
      // lease's end is brought forward here rather than waited for.
      if (kind === 'postgres') await db.query('update provisioning_pending set claimed_until = now() where claimed_until is not null');
      await db.close();
      t.diagnostic(`killed with ${applied.size} of ${BACKLOG} accounts in the directory and ${waiting.size} changes waiting`);
      assert.ok(waiting.size > 0, 'changes were still waiting when the server was killed');
      const lost = accounts.filter((a) => !applied.has(a.username) && !waiting.has(`account:${a.id}`)).map((a) => a.username);
      assert.deepEqual(lost, [], 'accounts neither in the directory nor waiting');

      // Started again: the backlog drains (rows the killed worker had claimed wait for its claim to run out).
      running = startMain(env);
      await runningUrl(running);
      const cliEnv: Record<string, string> = kind === 'postgres' ? { DATABASE_URL: env.DATABASE_URL ?? '', PORTAL_DATA_DIR: join(dir, 'unused') } : { PORTAL_DATA_DIR: env.PORTAL_DATA_DIR ?? '' };
      const drained = Date.now() + 200_000;
      for (;;) {
        const status = await runCli(['provision', 'status', '--json'], cliEnv);
        assert.equal(status.code, 0, status.stderr);
        const overview = JSON.parse(status.stdout) as { targets: { name: string; backlog: number }[]; failures: unknown[] };
        assert.deepEqual(overview.failures, []);
        if (overview.targets[0]?.backlog === 0) break;
        assert.ok(Date.now() < drained, `the backlog did not drain: ${status.stdout}\n${running.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null }, running.output());

      // The directory holds exactly the portal's truth, and nothing waits.
      assert.deepEqual(people().sort(), usernames);
      assert.deepEqual(groupMembers(slapd.url, base, 'ALPHA-team'), usernames);
      db = await openDb();
      assert.deepEqual(await pendingRows(db, { limit: 10 }), []);
      await db.close();
    });
  });
}
