/**
 * Provisioning to a real OpenLDAP directory (docs/provisioning.md): decisions made through the API
 * and the repositories the decisions use land in the directory; a lock, a closure or a lapsed
 * renewal empties the account's groups and an unlock restores them; nestings are expanded; drift
 * made by hand is repaired and reported; a directory that is down delays and loses nothing;
 * hostile names stay in their own entry; two servers on one PostgreSQL apply each change once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMembership, addNesting, insertUserGroup } from '../src/repositories/groups.js';
import { addSubscription } from '../src/repositories/subscriptions.js';
import { claimDue, pendingRows, targetStatuses } from '../src/repositories/provisioning/queue.js';
import { createProvisioningEngine, type ProvisioningEngine } from '../src/services/provisioning/engine.js';
import { createLdapTarget, PORTAL_MARK } from '../src/services/provisioning/ldap.js';
import type { ProvisioningTarget } from '../src/services/provisioning/target.js';
import { createAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { groupMembers, LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, ldapModify, ldapSearch, memberOf, startSlapd, type Slapd } from './ldap-helpers.js';
import { call, createWorld, signedIn, type World } from './self-service-helpers.js';
import { quietLog, settled } from './provisioning-helpers.js';

let fixture: Fixture;
let slapd: Slapd;
before(async () => {
  fixture = createFixture();
  slapd = await startSlapd();
});
after(async () => {
  fixture.remove();
  await slapd.remove();
});



function ldapTarget(base: string, password = LDAP_ADMIN_PASSWORD): ProvisioningTarget {
  return createLdapTarget({ url: slapd.url, bindDn: LDAP_ADMIN_DN, bindPassword: password, baseDn: base, prune: false });
}

for (const databaseKind of DATABASE_KINDS) {
  describe(`provisioning to OpenLDAP on ${databaseKind}`, () => {
    const base = `ou=${databaseKind},${LDAP_SUFFIX}`;
    let world: World;
    let engine: ProvisioningEngine;
    const ids: Record<string, number> = {};
    const members = (group: string) => groupMembers(slapd.url, base, group);
    const groupsOf = (username: string) => memberOf(slapd.url, base, username);

    before(async () => {
      ldapModify(slapd.url, `dn: ${base}\nchangetype: add\nobjectClass: organizationalUnit\nou: ${databaseKind}\n`);
      world = await createWorld(databaseKind, fixture, { portal: { supported_services: 'jira,artifacts,bitbucket,confluence' } });
      engine = createProvisioningEngine({ db: world.db, targets: [ldapTarget(base)], reconcileIntervalMs: 3_600_000, pollMs: 25, log: quietLog });
      await engine.register();
      // Made before the engine starts: the reconcile at start fills the empty directory.
      for (const name of ['alice', 'bob', 'carol']) ids[name] = (await createAccount(world.db, { username: name })).id;
      ids.boss = (await signedIn(world, 'boss', { roles: ['site-admin'] })).account.id;
      await insertUserGroup(world.db, {
        id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'],
      });
      await insertUserGroup(world.db, {
        id: 'BETA', name: 'Beta', description: 'The beta group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['bitbucket'],
      });
      await addMembership(world.db, 'ALPHA', ids.alice!, 'ALPHA-admin');
      await addMembership(world.db, 'ALPHA', ids.bob!, 'ALPHA-team');
      engine.start();
      await settled(world.db);
    });
    after(async () => {
      await engine.stop();
      await world.close();
    });

    test('at start an empty directory is filled: people under ou=people, groups and access groups under ou=groups', () => {
      const [alice] = ldapSearch(slapd.url, `ou=people,${base}`, '(uid=alice)', ['objectClass', 'uid', 'cn', 'sn', 'givenName', 'mail', 'displayName', 'description'], 'one');
      assert.deepEqual(alice, {
        dn: [`uid=alice,ou=people,${base}`],
        objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
        uid: ['alice'],
        cn: ['Test Person'],
        sn: ['Person'],
        givenName: ['Test'],
        mail: ['alice@example.test'],
        displayName: ['Test Person'],
        description: [PORTAL_MARK],
      });
      assert.deepEqual(members('ALPHA-admin'), ['alice']);
      assert.deepEqual(members('ALPHA-team'), ['bob']);
      assert.deepEqual(members('jira-users'), ['alice', 'bob']);
      assert.deepEqual(members('BETA-admin'), [], 'a group without members has no entry');
      assert.deepEqual(groupsOf('carol'), []);
    });

    test("a group admin's decision lands in the group, and the group's services in their access groups", async () => {
      const alice = await signedIn(world, 'alice.admin');
      await addMembership(world.db, 'ALPHA', alice.account.id, 'ALPHA-admin');
      const res = await call(world.app, alice.who, 'POST', '/requests/membership/new', {
        user_group: 'ALPHA', username: 'carol', join: ['ALPHA-user'], leave: [], reason: 'Joins the team', updateIntent: 'join',
      });
      assert.equal(res.statusCode, 200, res.body);
      await settled(world.db);
      assert.deepEqual(members('ALPHA-user'), ['carol']);
      assert.deepEqual(groupsOf('carol'), ['ALPHA-user', 'jira-users']);
    });

    test('a subscription of its own puts the account in the access group; its removal takes it out', async () => {
      await addSubscription(world.db, ids.carol!, 'confluence', new Date());
      await settled(world.db);
      assert.deepEqual(members('confluence-users'), ['carol']);
      await world.db.query("delete from account_subscriptions where account_id = $1 and service = 'confluence'", [ids.carol]);
      await settled(world.db);
      assert.deepEqual(members('confluence-users'), [], 'its last member gone, the group has no entry');
    });

    test('a lock empties every group of the account and keeps its entry; the unlock puts it back', async () => {
      const boss = (await signedIn(world, 'boss2', { roles: ['site-admin'] })).who;
      const lock = await call(world.app, boss, 'POST', '/accounts/bob/lock', { comment: 'Left the project' });
      assert.equal(lock.statusCode, 200, lock.body);
      await settled(world.db);
      assert.deepEqual(groupsOf('bob'), []);
      assert.equal(ldapSearch(slapd.url, `ou=people,${base}`, '(uid=bob)', ['uid'], 'one').length, 1, 'the entry stays');
      const unlock = await call(world.app, boss, 'POST', '/accounts/bob/unlock', { comment: 'Back again' });
      assert.equal(unlock.statusCode, 200, unlock.body);
      await settled(world.db);
      assert.deepEqual(groupsOf('bob'), ['ALPHA-team', 'jira-users']);
    });

    test('a closure and an overdue renewal take every group away; a renewal gives them back; an email change changes mail', async () => {
      await world.db.query('update accounts set last_certified = now() - interval \'400 days\', created_at = now() - interval \'500 days\' where id = $1', [ids.alice]);
      await settled(world.db);
      assert.deepEqual(groupsOf('alice'), []);
      await world.db.query('update accounts set last_certified = now() where id = $1', [ids.alice]);
      await world.db.query("update accounts set email = 'alice@new.example.test' where id = $1", [ids.alice]);
      await settled(world.db);
      assert.deepEqual(groupsOf('alice'), ['ALPHA-admin', 'jira-users']);
      assert.deepEqual(ldapSearch(slapd.url, `ou=people,${base}`, '(uid=alice)', ['mail'], 'one')[0]?.mail, ['alice@new.example.test']);
      await world.db.query('update accounts set closed = true, active = false where id = $1', [ids.alice]);
      await settled(world.db);
      assert.deepEqual(groupsOf('alice'), []);
      await world.db.query('update accounts set closed = false, active = true where id = $1', [ids.alice]);
      await settled(world.db);
    });

    test("a nesting makes the inner group's members direct members of the outer group and of its services' access group", async () => {
      await addNesting(world.db, 'BETA', 'BETA-user', 'ALPHA-team');
      await settled(world.db);
      assert.deepEqual(members('BETA-user'), ['bob']);
      assert.deepEqual(members('bitbucket-users'), ['bob']);
      await world.db.query("delete from group_nestings where group_name = 'BETA-user'");
      await settled(world.db);
      assert.deepEqual(members('BETA-user'), []);
      assert.deepEqual(members('bitbucket-users'), []);
    });

    test("a group's services changed moves its members into and out of the access groups", async () => {
      await world.db.query("update user_groups set services = '{artifacts}' where id = 'ALPHA'");
      await settled(world.db);
      assert.deepEqual(members('artifacts-users'), ['alice', 'alice.admin', 'bob', 'carol']);
      assert.deepEqual(members('jira-users'), []);
      await world.db.query("update user_groups set services = '{jira}' where id = 'ALPHA'");
      await settled(world.db);
      assert.deepEqual(members('jira-users'), ['alice', 'alice.admin', 'bob', 'carol']);
    });

    test('drift made by hand is reported by a dry run, then repaired; an entry the portal does not know stays and is reported', async () => {
      ldapModify(slapd.url, `dn: cn=ALPHA-team,ou=groups,${base}\nchangetype: modify\ndelete: member\nmember: uid=bob,ou=people,${base}\n-\nadd: member\nmember: uid=carol,ou=people,${base}\n`);
      ldapModify(slapd.url, `dn: cn=handmade,ou=groups,${base}\nchangetype: add\nobjectClass: groupOfNames\ncn: handmade\nmember: uid=carol,ou=people,${base}\n`);
      ldapModify(slapd.url, `dn: uid=alice,ou=people,${base}\nchangetype: modify\nreplace: mail\nmail: wrong@example.test\n`);
      const [dry] = await engine.reconcile({ dryRun: true });
      assert.equal(dry?.summary, '3 differences from the portal, 0 would be created, 2 would be changed, 0 would be removed, 1 unknown entry left in place');
      assert.deepEqual(members('ALPHA-team'), ['carol'], 'a dry run changes nothing');
      const [done] = await engine.reconcile({ dryRun: false });
      assert.equal(done?.summary, '3 differences from the portal, 0 created, 2 changed, 0 removed, 1 unknown entry left in place');
      assert.deepEqual(done?.report.drift.sort(), [
        `cn=ALPHA-team: 1 member missing, 1 too many`,
        `cn=handmade,ou=groups,${base}: not a group of the portal`,
        'uid=alice: mail differs',
      ]);
      assert.deepEqual(members('ALPHA-team'), ['bob']);
      assert.deepEqual(members('handmade'), ['carol']);
      assert.deepEqual(ldapSearch(slapd.url, `ou=people,${base}`, '(uid=alice)', ['mail'], 'one')[0]?.mail, ['alice@new.example.test']);
      const [status] = await targetStatuses(world.db);
      assert.equal(status?.lastReconcileDrift, 3);
      const events = await world.db.query<{ kind: string; detail: string }>("select kind, detail from provisioning_events where kind = 'reconciled' order by id desc limit 1");
      assert.match(events.rows[0]?.detail ?? '', /^3 differences from the portal, 0 created, 2 changed, 0 removed, 1 unknown entry left in place\n/);
      ldapModify(slapd.url, `dn: cn=handmade,ou=groups,${base}\nchangetype: delete\n`);
    });

    test('while the directory is down decisions are made and queued with the reason; started again, each is applied once', async () => {
      await slapd.stop();
      try {
        // One decision's transaction: both changes wait together, so the worker meets the closed
        // directory with both in hand (a second change made after the first failed would wait out
        // the worker's 10 s pause, as the engine means it to).
        await world.db.transaction(async (tx) => {
          await addMembership(tx, 'BETA', ids.carol!, 'BETA-admin');
          await addMembership(tx, 'BETA', ids.bob!, 'BETA-team');
        });
        const deadline = Date.now() + 10_000;
        let failed: Awaited<ReturnType<typeof pendingRows>> = [];
        while (Date.now() < deadline) {
          failed = await pendingRows(world.db, { failedOnly: true, limit: 10 });
          if (failed.length === 2) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.deepEqual(failed.map((r) => [r.object, r.attempts]).sort(), [[`account:${ids.bob}`, 1], [`account:${ids.carol}`, 1]]);
        assert.match(failed[0]?.lastError ?? '', new RegExp(`^the directory did not answer at ${slapd.url.replace(/\./g, '\\.')} \\(ECONNREFUSED\\)$`));
        const history = await world.db.query<{ object: string; detail: string }>("select object, detail from provisioning_events where kind = 'failed' order by id");
        assert.equal(history.rows.length, 2, 'one failure recorded per object, not per retry');
      } finally {
        await slapd.start();
      }
      assert.equal(await engine.retry(undefined, 'boss'), 2);
      await settled(world.db);
      assert.deepEqual(members('BETA-admin'), ['carol']);
      assert.deepEqual(members('BETA-team'), ['bob']);
    });

    test('after the directory restarts, the next decision is applied at once with no failure: the connection it closed is opened anew, bound', async () => {
      await settled(world.db);
      // The engine's kept connection is closed by the restart; reused as it is, its next change
      // would fail (closed unanswered), or go out unbound and be refused as anonymous.
      await slapd.stop();
      await slapd.start();
      const failures = async () => Number((await world.db.query<{ n: string }>("select count(*) as n from provisioning_events where kind = 'failed'")).rows[0]?.n);
      const before = await failures();
      await addMembership(world.db, 'ALPHA', ids.carol!, 'ALPHA-team');
      await settled(world.db);
      assert.ok(members('ALPHA-team').includes('carol'));
      assert.equal(await failures(), before);
    });

    test('a change claimed by a server killed while applying it is applied by another once the claim runs out', async () => {
      await engine.stop();
      const dana = await createAccount(world.db, { username: 'dana' });
      await addMembership(world.db, 'ALPHA', dana.id, 'ALPHA-team');
      // The killed server: it claimed the change (for 2 s here) and never finished it.
      const claimed = await claimDue(world.db, 'ldap', 2_000, 10);
      assert.deepEqual(claimed.map((c) => c.object), [`account:${dana.id}`]);
      engine = createProvisioningEngine({ db: world.db, targets: [ldapTarget(base)], reconcileIntervalMs: 3_600_000, pollMs: 25, scheduleMs: 3_600_000, log: quietLog });
      engine.start();
      assert.deepEqual(await claimDue(world.db, 'ldap', 2_000, 10), [], 'nobody else takes it while the claim runs');
      await settled(world.db);
      assert.ok(members('ALPHA-team').includes('dana'));
    });

    test(`a claim found when a process starts is ${databaseKind === 'pglite' ? "a dead process's on the embedded database: its change is due at once" : 'left to run out on PostgreSQL (another server may hold it)'}`, async () => {
      await engine.stop();
      const erin = await createAccount(world.db, { username: 'erin' });
      await addMembership(world.db, 'ALPHA', erin.id, 'ALPHA-team');
      // The process that ended: it claimed the change for an hour and never finished it.
      assert.deepEqual((await claimDue(world.db, 'ldap', 3_600_000, 10)).map((c) => c.object), [`account:${erin.id}`]);
      engine = createProvisioningEngine({ db: world.db, targets: [ldapTarget(base)], reconcileIntervalMs: 3_600_000, pollMs: 25, scheduleMs: 3_600_000, log: quietLog });
      await engine.register();
      if (databaseKind === 'pglite') {
        engine.start();
        await settled(world.db);
        assert.ok(members('ALPHA-team').includes('erin'));
      } else {
        assert.deepEqual(await claimDue(world.db, 'ldap', 1, 10), [], 'still claimed: nobody takes it');
        assert.ok(!members('ALPHA-team').includes('erin'));
        await world.db.query('update provisioning_pending set claimed_until = null');
        engine.start();
        await settled(world.db);
      }
    });

    test('hostile usernames get an entry of their own and reach no other entry', async () => {
      // (A NUL cannot be in the database's text: ldap-names.test.ts shows its escape.)
      const hostile = ['evil,ou=groups', 'x+cn=admin', ' lead#', 'star*(paren)\\back', 'ümlaut=é', 'semi;colon<>"q"', 'trail '];
      for (const username of hostile) {
        const account = await createAccount(world.db, { username, email: `${hostile.indexOf(username)}@example.test` });
        await addMembership(world.db, 'ALPHA', account.id, 'ALPHA-user');
      }
      await settled(world.db);
      const people = ldapSearch(slapd.url, `ou=people,${base}`, '(objectClass=inetOrgPerson)', ['uid'], 'one').map((e) => e.uid?.[0]);
      for (const username of hostile) assert.ok(people.includes(username), `${JSON.stringify(username)} has its entry`);
      const groups = ldapSearch(slapd.url, `ou=groups,${base}`, '(objectClass=groupOfNames)', ['cn'], 'one').map((e) => e.cn?.[0]).sort();
      assert.ok(!groups.includes('admin') && groups.every((g) => g !== undefined && !g.includes('evil')), groups.join(', '));
      assert.equal(ldapSearch(slapd.url, base, '(uid=evil)', ['uid']).length, 0);
      assert.equal(members('ALPHA-user').length, 1 + hostile.length);
    });

    if (databaseKind === 'pglite') {
      test('an idle worker only reads: the embedded database sees no write, so cached sessions stay valid', async () => {
        await settled(world.db);
        const before = world.db.writeGeneration?.();
        await new Promise((resolve) => setTimeout(resolve, 300)); // a dozen polls at 25 ms
        assert.equal(world.db.writeGeneration?.(), before);
      });
    }

    test('a wrong bind password is a failure in words that never shows the password', async () => {
      const wrong = 'not-the-password-9876';
      const target = ldapTarget(base, wrong);
      await assert.rejects(target.apply(`account:${ids.carol}`, world.db), (error: Error) => {
        assert.equal(error.message, `the directory refused the portal's credentials (PORTAL_LDAP_BIND_DN ${LDAP_ADMIN_DN})`);
        return true;
      });
      await target.close();
    });

    if (databaseKind === 'postgres') {
      // Two engines on one connection pool: their claims run on separate connections, as two servers' do.
      test('two servers on one PostgreSQL apply each change once', async () => {
        const applied: string[] = [];
        const counting = (): ProvisioningTarget => {
          const inner = ldapTarget(base);
          return { ...inner, name: 'ldap', apply: async (object, db) => { applied.push(object); await inner.apply(object, db); } };
        };
        await engine.stop();
        const a = createProvisioningEngine({ db: world.db, targets: [counting()], reconcileIntervalMs: 3_600_000, pollMs: 10, scheduleMs: 3_600_000, log: quietLog });
        const b = createProvisioningEngine({ db: world.db, targets: [counting()], reconcileIntervalMs: 3_600_000, pollMs: 10, scheduleMs: 3_600_000, log: quietLog });
        try {
          // Made before the two start: each account is recorded by several statements (its row, its
          // role, its token), and a worker that applied it between two of them would rightly apply
          // it again. Here each change is waiting whole, and the two compete for all forty.
          const accounts: number[] = [];
          for (let i = 0; i < 40; i++) accounts.push((await createAccount(world.db, { username: `many${i}` })).id);
          const { rows: [{ last = 0 } = {}] } = await world.db.query<{ last: number }>('select coalesce(max(id), 0)::int as last from provisioning_events');
          a.start();
          b.start();
          await settled(world.db);
          const counts = new Map<string, number>();
          for (const object of applied) counts.set(object, (counts.get(object) ?? 0) + 1);
          for (const id of accounts) assert.equal(counts.get(`account:${id}`), 1, `account:${id} applied once`);
          // Both start with a reconcile, while the other applies: an entry one made before the
          // other could is corrected, never a failure in the history (it was: 'Code: 0x44').
          const { rows: failures } = await world.db.query<{ object: string; detail: string }>("select object, detail from provisioning_events where id > $1 and kind = 'failed'", [last]);
          assert.deepEqual(failures, []);
        } finally {
          await a.stop();
          await b.stop();
        }
      });
    }
  });
}
