/**
 * Provisioning to a SCIM 2.0 service (docs/provisioning.md, "SCIM 2.0"), against a service
 * provider run on loopback (scim-provider.ts: scimmy with scimmy-routers, since no SCIM service can
 * run here from a package): decisions land as Users and Groups; a lock makes the User inactive and
 * takes it out of every Group, an unlock puts it back; drift made in the service is reported and
 * repaired; a service that is down delays and loses nothing; the token travels as a bearer token
 * and never shows in a failure; and one engine feeds the directory and the SCIM service alike.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { pendingRows } from '../src/repositories/provisioning/queue.js';
import { addSubscription } from '../src/repositories/subscriptions.js';
import { createProvisioningEngine, type ProvisioningEngine } from '../src/services/provisioning/engine.js';
import { createLdapTarget } from '../src/services/provisioning/ldap.js';
import { createScimTarget } from '../src/services/provisioning/scim.js';
import { ProvisioningSetupError, provisioningTargets } from '../src/services/provisioning/setup.js';
import { ProvisioningError, type ProvisioningTarget } from '../src/services/provisioning/target.js';
import { createAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { groupMembers, LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, ldapModify, memberOf, startSlapd, type Slapd } from './ldap-helpers.js';
import { startScimProvider, type ScimProvider, type Store } from './scim-provider.js';
import { call, createWorld, signedIn, type World } from './self-service-helpers.js';
import { settled } from './provisioning-helpers.js';

let fixture: Fixture;
let provider: ScimProvider;
let slapd: Slapd;
before(async () => {
  fixture = createFixture();
  provider = await startScimProvider();
  slapd = await startSlapd();
});
after(async () => {
  fixture.remove();
  await provider.close();
  await slapd.remove();
});

/** The engine's warnings and errors, kept so that a failing test can say what the worker met. */
const logged: string[] = [];
const keep = (level: string) => (fields: object, message: string) => {
  logged.push(`${level}: ${message} ${JSON.stringify(fields, (_key, value: unknown) => (value instanceof Error ? value.message : value))}`);
};
const quietLog = { info: () => undefined, warn: keep('warn'), error: keep('error') };


/** A group's members in the service, by userName, sorted; [] when there is no such Group. */
function scimMembers(store: Store, group: string): string[] {
  const found = store.groups.find((g) => g.displayName === group);
  return (found?.members ?? []).map((m) => store.users.find((u) => u.id === m.value)?.userName ?? `(unknown id ${m.value})`).sort();
}

function scimGroupsOf(store: Store, username: string): string[] {
  const user = store.users.find((u) => u.userName === username);
  return store.groups.filter((g) => g.members.some((m) => m.value === user?.id)).map((g) => g.displayName).sort();
}

function scimUser(store: Store, username: string) {
  const users = store.users.filter((u) => u.userName === username);
  assert.equal(users.length, 1, `one User ${username}`);
  return users[0]!;
}

for (const databaseKind of DATABASE_KINDS) {
  describe(`provisioning to a SCIM 2.0 service on ${databaseKind}`, () => {
    const tenant = `portal-${databaseKind}`;
    let world: World;
    let engine: ProvisioningEngine;
    const ids: Record<string, number> = {};
    /** Where this service's requests start in provider.authorizations. */
    let firstRequest = 0;
    const store = () => provider.store(tenant);
    const members = (group: string) => scimMembers(store(), group);
    const groupsOf = (username: string) => scimGroupsOf(store(), username);
    const scimTarget = (token = provider.token, name = 'test') => createScimTarget({ name, url: provider.url(tenant), token });

    before(async () => {
      firstRequest = provider.authorizations.length;
      world = await createWorld(databaseKind, fixture, { portal: { supported_services: 'jira,artifacts,bitbucket,confluence' } });
      engine = createProvisioningEngine({ db: world.db, targets: [scimTarget()], reconcileIntervalMs: 3_600_000, pollMs: 25, log: quietLog });
      await engine.register();
      // Made before the engine starts: the reconcile at start fills the empty service.
      for (const name of ['alice', 'bob', 'carol']) ids[name] = (await createAccount(world.db, { username: name })).id;
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

    test('at start an empty service is filled: a User per account, a Group per group with members', () => {
      const { id, ...alice } = scimUser(store(), 'alice');
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(alice, {
        userName: 'alice',
        externalId: String(ids.alice),
        name: { givenName: 'Test', familyName: 'Person' },
        displayName: 'Test Person',
        emails: [{ value: 'alice@example.test', type: 'work', primary: true }],
        active: true,
      });
      assert.deepEqual(members('ALPHA-admin'), ['alice']);
      assert.deepEqual(members('ALPHA-team'), ['bob']);
      assert.deepEqual(members('jira-users'), ['alice', 'bob']);
      assert.deepEqual(
        store().groups.map((g) => [g.displayName, g.externalId]).sort(),
        [['ALPHA-admin', 'ALPHA-admin'], ['ALPHA-team', 'ALPHA-team'], ['jira-users', 'jira-users']],
        'a group without members has no Group; each Group carries its name as externalId',
      );
      assert.deepEqual(groupsOf('carol'), []);
    });

    test("a group admin's decision lands in the Group, and the group's services in their access Groups", async () => {
      const admin = await signedIn(world, 'alice.admin');
      await addMembership(world.db, 'ALPHA', admin.account.id, 'ALPHA-admin');
      const res = await call(world.app, admin.who, 'POST', '/requests/membership/new', {
        user_group: 'ALPHA', username: 'carol', join: ['ALPHA-user'], leave: [], reason: 'Joins the team', updateIntent: 'join',
      });
      assert.equal(res.statusCode, 200, res.body);
      await settled(world.db);
      assert.deepEqual(members('ALPHA-user'), ['carol']);
      assert.deepEqual(groupsOf('carol'), ['ALPHA-user', 'jira-users']);
    });

    test('a Group is created with its first member and deleted with its last', async () => {
      await addSubscription(world.db, ids.carol!, 'confluence', new Date());
      await settled(world.db);
      assert.deepEqual(members('confluence-users'), ['carol']);
      await world.db.query("delete from account_subscriptions where account_id = $1 and service = 'confluence'", [ids.carol]);
      await settled(world.db);
      assert.equal(store().groups.find((g) => g.displayName === 'confluence-users'), undefined);
    });

    test('a lock makes the User inactive and takes it out of every Group; the unlock puts it back', async () => {
      const boss = (await signedIn(world, 'boss', { roles: ['site-admin'] })).who;
      const lock = await call(world.app, boss, 'POST', '/accounts/bob/lock', { comment: 'Left the project' });
      assert.equal(lock.statusCode, 200, lock.body);
      await settled(world.db);
      assert.equal(scimUser(store(), 'bob').active, false);
      assert.deepEqual(groupsOf('bob'), []);
      assert.equal(store().groups.find((g) => g.displayName === 'ALPHA-team'), undefined, 'its last member gone, the Group is deleted');
      const unlock = await call(world.app, boss, 'POST', '/accounts/bob/unlock', { comment: 'Back again' });
      assert.equal(unlock.statusCode, 200, unlock.body);
      await settled(world.db);
      assert.equal(scimUser(store(), 'bob').active, true);
      assert.deepEqual(groupsOf('bob'), ['ALPHA-team', 'jira-users']);
    });

    test('usernames with quotes, backslashes and filter words are found by their own filter and reach no other User', async () => {
      const hostile = ['evil" or userName pr or userName eq "x', 'back\\slash"', 'ümlaut (é) and ]bracket[', 'alice" or "1" eq "1'];
      const accounts: number[] = [];
      for (const username of hostile) {
        const account = await createAccount(world.db, { username, email: `${hostile.indexOf(username)}@hostile.example.test` });
        accounts.push(account.id);
        await addMembership(world.db, 'BETA', account.id, 'BETA-user');
      }
      await settled(world.db);
      // Applied again: each is found by its filter and replaced, not created a second time.
      await world.db.query("update accounts set first_name = 'Changed' where id = any($1::bigint[])", [accounts]);
      await settled(world.db);
      for (const username of hostile) assert.equal(scimUser(store(), username).name?.givenName, 'Changed', username);
      assert.deepEqual(members('BETA-user'), [...hostile].sort());
      assert.equal(scimUser(store(), 'alice').name?.givenName, 'Test', 'alice is untouched');
      assert.deepEqual(groupsOf('alice'), ['ALPHA-admin', 'jira-users']);
    });

    test('drift made in the service is reported by a dry run, then repaired; Users and Groups the portal does not know stay and are reported', async () => {
      const s = store();
      const id = (username: string) => scimUser(s, username).id;
      const team = s.groups.find((g) => g.displayName === 'ALPHA-team')!;
      team.members = [{ value: id('carol') }];
      scimUser(s, 'alice').emails = [{ value: 'wrong@example.test', type: 'work', primary: true }];
      s.groups = s.groups.filter((g) => g.displayName !== 'jira-users');
      s.groups.push({ id: randomUUID(), displayName: 'handmade', members: [{ value: id('carol') }] });
      s.groups.push({ id: randomUUID(), displayName: 'BETA-admin', externalId: 'BETA-admin', members: [{ value: id('carol') }] });
      s.users.push({ id: randomUUID(), userName: 'stranger', active: true });
      const [dry] = await engine.reconcile({ dryRun: true });
      assert.equal(dry?.summary, '6 differences from the portal, 1 would be created, 2 would be changed, 1 would be removed, 2 unknown entries left in place');
      assert.deepEqual(members('ALPHA-team'), ['carol'], 'a dry run changes nothing');
      const [done] = await engine.reconcile({ dryRun: false });
      assert.equal(done?.summary, '6 differences from the portal, 1 created, 2 changed, 1 removed, 2 unknown entries left in place');
      assert.deepEqual(done?.report.drift.sort(), [
        'Group ALPHA-team: 1 member missing, 1 too many',
        'Group BETA-admin: the portal has no member in it',
        'Group handmade: not a group of the portal',
        'Group jira-users: missing (4 members)',
        'User alice: emails differs',
        'User stranger: not an account of the portal',
      ]);
      assert.deepEqual(members('ALPHA-team'), ['bob']);
      assert.deepEqual(members('jira-users'), ['alice', 'alice.admin', 'bob', 'carol']);
      assert.equal(store().groups.find((g) => g.displayName === 'BETA-admin'), undefined);
      assert.deepEqual(members('handmade'), ['carol']);
      assert.deepEqual(scimUser(store(), 'alice').emails, [{ value: 'alice@example.test', type: 'work', primary: true }]);
      const [again] = await engine.reconcile({ dryRun: false });
      assert.equal(again?.summary, '2 differences from the portal, 0 created, 0 changed, 0 removed, 2 unknown entries left in place');
    });

    test('a reconcile reads every page of a long list (startIndex and count)', async () => {
      const many = Array.from({ length: 450 }, (_, i) => ({ id: randomUUID(), userName: `visitor${String(i).padStart(3, '0')}`, active: true }));
      store().users.unshift(...many); // the portal's Users come after them, on the third page
      try {
        const [dry] = await engine.reconcile({ dryRun: true });
        assert.equal(dry?.report.unknown.filter((u) => u.startsWith('User visitor')).length, 450);
        assert.ok(dry?.report.unknown.includes('User visitor449'));
        assert.equal(dry?.report.created, 0, 'every account of the portal was found, whichever page it was on');
      } finally {
        const visitors = new Set<string>(many.map((u) => u.id));
        store().users = store().users.filter((u) => !visitors.has(u.id));
      }
    });

    test('while the service is down decisions are made and queued with the reason; started again, each is applied', async () => {
      await provider.stop();
      try {
        await addMembership(world.db, 'BETA', ids.carol!, 'BETA-admin');
        // Long enough for the worker's own wait after an error of its own (10 s), on a busy machine.
        const deadline = Date.now() + 30_000;
        let failed: Awaited<ReturnType<typeof pendingRows>> = [];
        while (Date.now() < deadline) {
          failed = await pendingRows(world.db, { failedOnly: true, limit: 10 });
          if (failed.length === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const seen = failed.map((r) => [r.target, r.object, r.attempts, r.lastError]);
        assert.deepEqual(
          seen,
          [['scim:test', `account:${ids.carol}`, 1, `the SCIM service did not answer at ${provider.url(tenant)} (ECONNREFUSED)`]],
          `failed changes: ${JSON.stringify(seen)}; the engine last logged: ${JSON.stringify(logged.slice(-10))}`,
        );
      } finally {
        await provider.start();
      }
      assert.equal(await engine.retry(undefined, 'boss'), 1);
      await settled(world.db);
      assert.deepEqual(members('BETA-admin'), ['carol']);
    });

    test('a kept-alive connection the service closes without answering is opened anew for a request that may be sent twice', async () => {
      // In front of the provider: every connection's second request is cut off unanswered, as a
      // service restarting (or its idle timeout) cuts a connection the portal keeps alive.
      let cut = 0;
      const seen = new WeakMap<object, number>();
      const front: Server = createServer((req, res) => {
        const count = (seen.get(req.socket) ?? 0) + 1;
        seen.set(req.socket, count);
        if (count > 1) {
          cut++;
          req.socket.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          void fetch(`${provider.url(tenant).replace(/\/portal-[a-z]+\/scim\/v2$/, '')}${req.url}`, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            ...(body.length > 0 ? { body } : {}),
          }).then(
            async (answer) => {
              res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
              res.end(Buffer.from(await answer.arrayBuffer()));
            },
            () => res.destroy(),
          );
        });
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      const address = `http://127.0.0.1:${(front.address() as AddressInfo).port}/${tenant}/scim/v2`;
      const target = createScimTarget({ name: 'test', url: address, token: provider.token });
      try {
        const users = store().users.length;
        for (const name of ['alice', 'bob', 'carol']) await target.apply(`account:${ids[name]}`, world.db);
        assert.ok(cut >= 2, `connections were cut (${cut}), and each request was answered on a new one`);
        assert.equal(store().users.length, users, 'no User was created twice');
      } finally {
        await target.close();
        front.closeAllConnections();
        await new Promise((resolve) => front.close(resolve));
      }
    });

    test('the token is sent as a bearer token; a wrong one is a failure in words that never shows it', async () => {
      const seen = provider.authorizations.slice(firstRequest);
      assert.ok(seen.length > 0);
      assert.deepEqual([...new Set(seen)], [`Bearer ${provider.token}`]);
      const wrong = 'not-the-token-31415';
      const target = scimTarget(wrong, 'wrong');
      await assert.rejects(target.apply(`account:${ids.carol}`, world.db), (error: Error) => {
        assert.ok(error instanceof ProvisioningError && error.unreachable, 'every object would fail alike: the worker waits');
        assert.equal(
          error.message,
          `the SCIM service at ${provider.url(tenant)} refused the portal's token (401, The bearer token *** is not valid here); check the token of 'wrong' in PORTAL_SCIM_TARGETS`,
        );
        assert.ok(!error.message.includes(wrong));
        return true;
      });
      assert.equal(provider.authorizations.at(-1), `Bearer ${wrong}`, 'the service did receive (and repeat) the wrong token');
      await target.close();
    });

    test("the settings' targets: one per PORTAL_SCIM_TARGETS entry, its token read from its file's first line; a file that cannot be read is said", async () => {
      const file = join(fixture.dir, `scim-token-${databaseKind}`);
      writeFileSync(file, `${provider.token}\nignored second line\n`);
      const none = { ldapUrl: undefined, ldapBindDn: undefined, ldapBindPassword: undefined, ldapBindPasswordFile: undefined, ldapBaseDn: undefined, ldapPrune: false };
      const [fromFile, ...rest] = provisioningTargets({ ...none, scimTargets: [{ name: 'fromfile', url: provider.url(tenant), token: undefined, tokenFile: file }] });
      assert.deepEqual([fromFile?.name, fromFile?.kind, rest.length], ['scim:fromfile', 'scim', 0]);
      const before = provider.authorizations.length;
      await fromFile?.apply(`account:${ids.alice}`, world.db);
      assert.deepEqual([...new Set(provider.authorizations.slice(before))], [`Bearer ${provider.token}`]);
      const missing = join(fixture.dir, 'no-such-token-file');
      assert.throws(
        () => provisioningTargets({ ...none, scimTargets: [{ name: 'lost', url: provider.url(tenant), token: undefined, tokenFile: missing }] }),
        (error: Error) => error instanceof ProvisioningSetupError && error.message === `PORTAL_SCIM_TARGETS, entry 'lost', tokenFile: cannot read ${missing} (ENOENT)`,
      );
    });

    test('the engine needs no change for a second kind of target: a directory and a SCIM service side by side each get every change', async () => {
      const base = `ou=scim-${databaseKind},${LDAP_SUFFIX}`;
      ldapModify(slapd.url, `dn: ${base}\nchangetype: add\nobjectClass: organizationalUnit\nou: scim-${databaseKind}\n`);
      const applied: Record<string, string[]> = { ldap: [], 'scim:test': [] };
      const counting = (inner: ProvisioningTarget): ProvisioningTarget => ({
        ...inner,
        apply: async (object, db) => {
          applied[inner.name]!.push(object);
          await inner.apply(object, db);
        },
      });
      await engine.stop();
      const ldap = createLdapTarget({ url: slapd.url, bindDn: LDAP_ADMIN_DN, bindPassword: LDAP_ADMIN_PASSWORD, baseDn: base, prune: false });
      engine = createProvisioningEngine({ db: world.db, targets: [counting(ldap), counting(scimTarget())], reconcileIntervalMs: 3_600_000, pollMs: 25, log: quietLog });
      await engine.register();
      await engine.reconcile({ target: 'ldap', dryRun: false });
      assert.deepEqual(groupMembers(slapd.url, base, 'jira-users'), ['alice', 'alice.admin', 'bob', 'carol'], 'a reconcile filled the new directory');
      engine.start();
      await settled(world.db);
      applied.ldap = [];
      applied['scim:test'] = [];
      const dave = await createAccount(world.db, { username: 'dave' });
      await addMembership(world.db, 'ALPHA', dave.id, 'ALPHA-team');
      await world.db.query('update accounts set active = false where id = $1', [ids.carol]);
      await world.db.query("update user_groups set services = '{jira,artifacts}' where id = 'ALPHA'");
      await settled(world.db);
      assert.deepEqual([...new Set(applied.ldap)].sort(), [...new Set(applied['scim:test'])].sort());
      assert.deepEqual(new Set(applied.ldap), new Set([`account:${dave.id}`, `account:${ids.carol}`, 'group:artifacts-users']));
      for (const [group, want] of [
        ['ALPHA-team', ['bob', 'dave']],
        ['artifacts-users', ['alice', 'alice.admin', 'bob', 'dave']],
      ] as const) {
        assert.deepEqual(groupMembers(slapd.url, base, group), want, `directory: ${group}`);
        assert.deepEqual(members(group), want, `SCIM: ${group}`);
      }
      assert.deepEqual(memberOf(slapd.url, base, 'carol'), []);
      assert.deepEqual(groupsOf('carol'), ['handmade'], 'only the Group the portal does not know keeps her');
      assert.equal(scimUser(store(), 'carol').active, false);
    });
  });
}
