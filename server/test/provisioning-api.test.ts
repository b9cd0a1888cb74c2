/**
 * The provisioning calls (docs/provisioning.md): the overview, Retry, Reconcile now and the history
 * as CSV for MANAGE_PROVISIONING holders only; an account's access per service for its owner and
 * VIEW_ACCOUNT holders. Against a real slapd, so that failures and reconciles are real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { pendingRows, targetStatuses } from '../src/repositories/provisioning/queue.js';
import { createProvisioningEngine } from '../src/services/provisioning/engine.js';
import { createLdapTarget } from '../src/services/provisioning/ldap.js';
import type { Principal, TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { groupMembers, LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, ldapModify, startSlapd, type Slapd } from './ldap-helpers.js';
import { FORBIDDEN, call, createWorld, signedIn, type World } from './self-service-helpers.js';

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

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

for (const databaseKind of DATABASE_KINDS) {
  describe(`provisioning calls on ${databaseKind}`, () => {
    const base = `ou=api-${databaseKind},${LDAP_SUFFIX}`;
    let world: World;
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const settled = async () => {
      const deadline = Date.now() + 15_000;
      while ((await pendingRows(world.db, { limit: 1 })).length > 0) {
        if (Date.now() > deadline) assert.fail('provisioning did not settle');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    before(async () => {
      ldapModify(slapd.url, `dn: ${base}\nchangetype: add\nobjectClass: organizationalUnit\nou: api-${databaseKind}\n`);
      world = await createWorld(databaseKind, fixture, {
        portal: { supported_services: 'jira,artifacts,confluence' },
        provisioning: (db) =>
          createProvisioningEngine({
            db,
            targets: [createLdapTarget({ url: slapd.url, bindDn: LDAP_ADMIN_DN, bindPassword: LDAP_ADMIN_PASSWORD, baseDn: base, prune: false })],
            reconcileIntervalMs: 3_600_000,
            pollMs: 25,
            log: quietLog,
          }),
      });
      const engine = world.app.provisioning.engine!;
      await engine.register();
      people.admin = await signedIn(world, 'admin', { roles: ['site-admin'] });
      people.judge = await signedIn(world, 'judge', { roles: ['adjudicator'] });
      people.desk = await signedIn(world, 'desk', { roles: ['help-desk'] });
      people.user = await signedIn(world, 'user');
      people.other = await signedIn(world, 'other');
      await insertUserGroup(world.db, {
        id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'],
      });
      await addMembership(world.db, 'ALPHA', people.user.account.id, 'ALPHA-team');
      engine.start();
      await settled();
      // The reconcile at start has ended.
      const deadline = Date.now() + 15_000;
      while ((await targetStatuses(world.db))[0]?.lastReconcileAt == null) {
        if (Date.now() > deadline) assert.fail('the reconcile at start did not end');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    after(async () => {
      await world.app.provisioning.engine?.stop();
      await world.close();
    });

    test('only the site administrator (MANAGE_PROVISIONING) reads and runs provisioning', async () => {
      for (const name of ['judge', 'desk', 'user']) {
        for (const [method, path] of [
          ['GET', '/provisioning'],
          ['POST', '/provisioning/retry'],
          ['POST', '/provisioning/reconcile'],
          ['GET', '/provisioning/history.csv'],
        ] as const) {
          const res = await call(world.app, people[name]!.who, method, path, method === 'POST' ? {} : undefined);
          assert.equal(res.statusCode, 403, `${name} ${method} ${path}`);
          assert.deepEqual(res.json(), FORBIDDEN);
        }
      }
    });

    test('the overview: the target, up to date, its last reconcile; Reconcile now repairs drift and says what it did', async () => {
      ldapModify(slapd.url, `dn: cn=ALPHA-team,ou=groups,${base}\nchangetype: modify\nadd: member\nmember: uid=other,ou=people,${base}\n`);
      const reconciled = await call(world.app, people.admin!.who, 'POST', '/provisioning/reconcile', {});
      assert.equal(reconciled.statusCode, 200, reconciled.body);
      assert.deepEqual(reconciled.json(), {
        results: [
          {
            target: 'ldap',
            summary: '1 difference from the portal, 0 created, 1 changed, 0 removed',
            differences: 1,
            drift: ['cn=ALPHA-team: 0 members missing, 1 too many'],
            unknown: [],
          },
        ],
      });
      assert.deepEqual(groupMembers(slapd.url, base, 'ALPHA-team'), ['user']);
      const overview = await call(world.app, people.admin!.who, 'GET', '/provisioning');
      assert.equal(overview.statusCode, 200);
      const body = overview.json<{ targets: { name: string; backlog: number; failing: number; last_reconcile_differences: number | null }[]; failures: unknown[]; history: { kind: string; detail: string }[] }>();
      assert.deepEqual(
        body.targets.map((t) => [t.name, t.backlog, t.failing, t.last_reconcile_differences]),
        [['ldap', 0, 0, 1]],
      );
      assert.deepEqual(body.failures, []);
      assert.equal(body.history[0]?.kind, 'reconciled');
      const unknown = await call(world.app, people.admin!.who, 'POST', '/provisioning/reconcile', { target: 'scim:nowhere' });
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), { error: 'There is no provisioning target scim:nowhere.', code: 404 });
    });

    test("an account's access per service: up to date; failed with the reason while the directory is down; Retry clears it", async () => {
      const own = await call(world.app, people.user!.who, 'GET', '/service-access/user');
      assert.equal(own.statusCode, 200);
      assert.deepEqual(own.json(), { provisioned: true, services: [{ service: 'jira', state: 'up-to-date', since: null, next_attempt_at: null, error: null }] });
      assert.deepEqual((await call(world.app, people.other!.who, 'GET', '/service-access/user')).json(), FORBIDDEN);
      assert.equal((await call(world.app, people.desk!.who, 'GET', '/service-access/user')).statusCode, 200, 'the help desk views accounts');
      assert.equal((await call(world.app, people.admin!.who, 'GET', '/service-access/nobody')).statusCode, 404);

      await slapd.stop();
      try {
        await call(world.app, people.user!.who, 'PUT', '/subscriptions/user', { service: 'confluence', subscribed: true });
        const deadline = Date.now() + 10_000;
        let services: { service: string; state: string; error: string | null; next_attempt_at: number | null }[] = [];
        while (Date.now() < deadline) {
          services = (await call(world.app, people.user!.who, 'GET', '/service-access/user')).json<{ services: typeof services }>().services;
          if (services.every((s) => s.state === 'failed')) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.deepEqual(services.map((s) => [s.service, s.state]), [['confluence', 'failed'], ['jira', 'failed']]);
        assert.match(services[0]!.error ?? '', /^the directory did not answer at ldap:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
        assert.ok((services[0]!.next_attempt_at ?? 0) > Date.now());
        const overview = (await call(world.app, people.admin!.who, 'GET', '/provisioning')).json<{ failures: { object: string; attempts: number; error: string }[] }>();
        assert.deepEqual(overview.failures.map((f) => [f.object, f.attempts]), [['account user', 1]]);
        const csv = await call(world.app, people.admin!.who, 'GET', '/provisioning/history.csv');
        assert.equal(csv.statusCode, 200);
        assert.equal(csv.headers['content-disposition'], 'attachment; filename="provisioning-history.csv"');
        const lines = csv.body.trimEnd().split('\r\n');
        assert.equal(lines[0], 'when,target,what,object,detail');
        assert.match(lines.at(-1) ?? '', /^\d{4}-\d\d-\d\dT[^,]+,ldap,failed,account user,the directory did not answer at ldap:/);
        const history = (await call(world.app, people.admin!.who, 'GET', '/provisioning')).json<{ history: { kind: string; object: string | null }[] }>().history;
        assert.deepEqual(history[0], { ...history[0], kind: 'failed', object: 'account user' });
      } finally {
        await slapd.start();
      }
      const retried = await call(world.app, people.admin!.who, 'POST', '/provisioning/retry', {});
      assert.deepEqual(retried.json(), { retried: 1 });
      await settled();
      const after = (await call(world.app, people.user!.who, 'GET', '/service-access/user')).json<{ services: { state: string }[] }>();
      assert.deepEqual(after.services.map((s) => s.state), ['up-to-date', 'up-to-date']);
      assert.deepEqual(groupMembers(slapd.url, base, 'confluence-users'), ['user']);
    });
  });
}

describe('provisioning calls without a target', () => {
  test('the overview is empty, service access says nothing is provisioned, Reconcile now says why it cannot', async () => {
    const world = await createWorld('pglite', fixture);
    try {
      const admin = await signedIn(world, 'admin', { roles: ['site-admin'] });
      assert.deepEqual((await call(world.app, admin.who, 'GET', '/provisioning')).json(), { targets: [], failures: [], history: [] });
      assert.deepEqual((await call(world.app, admin.who, 'GET', '/service-access/admin')).json(), { provisioned: false, services: [] });
      const reconcile = await call(world.app, admin.who, 'POST', '/provisioning/reconcile', {});
      assert.equal(reconcile.statusCode, 409);
      assert.deepEqual(reconcile.json(), { error: 'Provisioning does not run on this server: no target is configured (PORTAL_LDAP_URL or PORTAL_SCIM_TARGETS).', code: 409 });
    } finally {
      await world.close();
    }
  });
});
