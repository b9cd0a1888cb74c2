/**
 * GET and PUT /accounts/rest/subscriptions/{username}: direct subscriptions, those held through
 * the user groups of the account's memberships, the configuration's supported services, and who
 * may read or change them (on PGlite, and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from './auth-helpers.js';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import type { Service } from '@portal/api';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { FORBIDDEN, NOT_FOUND, call, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

/** sonarqube and repository are not supported. */
const SUPPORTED = 'artifacts, bitbucket,confluence,jenkins,jira,jsm';
const UNKNOWN_SERVICE = { error: 'Unknown service.', code: 400 };
const HELD_THROUGH_GROUP = { error: 'This service is held through a group.', code: 409 };

for (const kind of DATABASE_KINDS) {
  describe(`subscriptions on ${kind}`, () => {
    let world: World;
    before(async () => {
      world = await createWorld(kind, fixture, { portal: { supported_services: SUPPORTED } });
      const group = (id: string, services: Service[]) =>
        insertUserGroup(world.db, { id, name: id, description: `${id} group`, open_access: false, visibility: 'site-approved', member_constraint: 'None', services });
      await group('ALPHA', ['jira', 'confluence', 'sonarqube']);
      await group('BETA', ['jira', 'bitbucket']);
      await group('GAMMA', ['jenkins']);
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    /** A signed-in user, member of ALPHA (user) and BETA (notification only). */
    async function member() {
      const signed = await signedIn(world, unique('member'));
      await addMembership(world.db, 'ALPHA', signed.account.id, 'ALPHA-user');
      await addMembership(world.db, 'BETA', signed.account.id, 'BETA-notification-low');
      return signed;
    }

    const directOf = async (accountId: number) =>
      (await world.db.query<{ service: string }>('select service from account_subscriptions where account_id = $1 order by service', [accountId])).rows.map((r) => r.service);

    test('GET: nested = the services of the groups of every membership, only the supported ones, in the configuration\'s order', async () => {
      const { account, who } = await member();
      const response = await call(world.app, who, 'GET', `/subscriptions/${account.username}`);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { direct: [], nested: ['bitbucket', 'confluence', 'jira'] });
      const loner = await signedIn(world, unique('loner'));
      assert.deepEqual((await call(world.app, loner.who, 'GET', `/subscriptions/${loner.account.username.toUpperCase()}`)).json(), { direct: [], nested: [] });
    });

    test('PUT: subscribe, again (no change), held both ways, unsubscribe; a nested-only one cannot be removed', async () => {
      const { app } = world;
      const { account, who } = await member();
      const path = `/subscriptions/${account.username}`;
      const put = (service: string, subscribed: boolean) => call(app, who, 'PUT', path, { service, subscribed });

      let response = await put('jsm', true);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { direct: ['jsm'], nested: ['bitbucket', 'confluence', 'jira'] });
      response = await put('jsm', true);
      assert.deepEqual(response.json(), { direct: ['jsm'], nested: ['bitbucket', 'confluence', 'jira'] });
      assert.deepEqual(await directOf(account.id), ['jsm']);

      response = await put('jira', false);
      assert.equal(response.statusCode, 409);
      assert.deepEqual(response.json(), HELD_THROUGH_GROUP);

      response = await put('jira', true);
      assert.deepEqual(response.json(), { direct: ['jira', 'jsm'], nested: ['bitbucket', 'confluence', 'jira'] });
      response = await put('jira', false);
      assert.equal(response.statusCode, 200, 'a direct subscription also held through a group can be removed');
      assert.deepEqual(response.json(), { direct: ['jsm'], nested: ['bitbucket', 'confluence', 'jira'] });

      response = await put('artifacts', false);
      assert.equal(response.statusCode, 200, 'removing one not held changes nothing');
      response = await put('artifacts', true);
      assert.deepEqual(response.json(), { direct: ['artifacts', 'jsm'], nested: ['bitbucket', 'confluence', 'jira'] });
      response = await put('jsm', false);
      assert.deepEqual(response.json(), { direct: ['artifacts'], nested: ['bitbucket', 'confluence', 'jira'] });
      assert.deepEqual(await directOf(account.id), ['artifacts']);
      assert.deepEqual((await call(app, who, 'GET', path)).json(), { direct: ['artifacts'], nested: ['bitbucket', 'confluence', 'jira'] });
    });

    test('a service the configuration does not support, or none at all: 400 Unknown service., nothing stored', async () => {
      const { account, who } = await member();
      for (const service of ['sonarqube', 'repository', 'nonsense', 'JIRA', '', 'artifactory']) {
        for (const subscribed of [true, false]) {
          const response = await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service, subscribed });
          assert.equal(response.statusCode, 400, service);
          assert.deepEqual(response.json(), UNKNOWN_SERVICE, service);
        }
      }
      assert.deepEqual(await directOf(account.id), []);
      const missing = await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira' });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(missing.json(), { error: 'Subscribed: This field is required.', code: 400, fields: { subscribed: 'This field is required.' } });
    });

    test('a direct subscription to a service no longer supported is not answered', async () => {
      const { account, who } = await member();
      await world.db.query("insert into account_subscriptions (account_id, service) values ($1, 'sonarqube'), ($1, 'jenkins')", [account.id]);
      assert.deepEqual((await call(world.app, who, 'GET', `/subscriptions/${account.username}`)).json(), {
        direct: ['jenkins'],
        nested: ['bitbucket', 'confluence', 'jira'],
      });
    });

    test('who may: the owner with VIEW/EDIT_SUBSCRIPTIONS, VIEW_ACCOUNT reads, EDIT_ACCOUNT changes; others 403; 404 only to them', async () => {
      const { app, db } = world;
      const owner = await member();
      const path = `/subscriptions/${owner.account.username}`;
      const change = { service: 'jsm', subscribed: true };

      const other = await signedIn(world, unique('other'));
      for (const [method, payload] of [['GET', undefined], ['PUT', change]] as const) {
        for (const target of [path, '/subscriptions/nobody.here']) {
          const response = await call(app, other.who, method, target, payload);
          assert.equal(response.statusCode, 403, `${method} ${target}`);
          assert.deepEqual(response.json(), FORBIDDEN);
        }
      }

      const helpdesk = await signedIn(world, unique('helpdesk'), { roles: ['help-desk'] });
      assert.deepEqual((await call(app, helpdesk.who, 'GET', path)).json(), { direct: [], nested: ['bitbucket', 'confluence', 'jira'] });
      assert.deepEqual((await call(app, helpdesk.who, 'GET', '/subscriptions/nobody.here')).json(), NOT_FOUND);
      assert.deepEqual((await call(app, helpdesk.who, 'PUT', path, change)).json(), FORBIDDEN, 'VIEW_ACCOUNT does not change');
      assert.deepEqual(await directOf(owner.account.id), []);

      const adjudicator = await signedIn(world, unique('adjudicator'), { roles: ['adjudicator'] });
      const changed = await call(app, adjudicator.who, 'PUT', path, change);
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(await directOf(owner.account.id), ['jsm']);
      const unknown = await call(app, adjudicator.who, 'PUT', '/subscriptions/nobody.here', change);
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), NOT_FOUND);

      // Without VIEW_SUBSCRIPTIONS / EDIT_SUBSCRIPTIONS (no role), not even one's own.
      const norole = await signedIn(world, unique('norole'), { roles: [] });
      for (const [method, payload] of [['GET', undefined], ['PUT', change]] as const) {
        const response = await call(app, norole.who, method, `/subscriptions/${norole.account.username}`, payload);
        assert.deepEqual(response.json(), FORBIDDEN, method);
      }
      assert.deepEqual(await directOf(norole.account.id), []);

      // A closed account's subscriptions can still be read by VIEW_ACCOUNT.
      const closed = await createAccount(db, { username: unique('closed'), state: 'closed' });
      assert.equal((await call(app, helpdesk.who, 'GET', `/subscriptions/${closed.username}`)).statusCode, 200);
    });
  });
}
