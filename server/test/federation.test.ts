/**
 * Federation operations (docs/federation.md): publishing into the remote store,
 * pins per environment in the database with their refusals, rollback, history and its CSV,
 * previews held by a session, what /environment.json serves, and files checked against their
 * digests as they are served; on PGlite (and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import * as api from '@portal/api';
import type { Database } from '../src/db/database.js';
import { REPO_DIR } from '../src/paths.js';
import {
  importInitialPins,
  pinHistory,
  pinHistoryCsv,
  pinRemote,
  publishRemote,
  remoteStatus,
  rollbackRemote,
  servedManifest,
  type FederationContext,
} from '../src/services/federation.js';
import { BuildError, digestOf, readRemoteBuild } from '../src/services/remote-store.js';
import { permissionsOf } from '../src/services/roles.js';
import { API, as, fetchXsrf, signIn, type Principal } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestDatabase, parseLogs, publishFixture, TEST_MANIFEST, writeRemoteBuild, type Fixture } from './helpers.js';
import { call, createWorld, FORBIDDEN, signedIn, type World } from './self-service-helpers.js';

const writeBuild = writeRemoteBuild;

/** The JSON block the first HTML carries for the host (`BootData`), as text; undefined when there is none. */
const bootJsonOf = (html: string): string | undefined => /<script type="application\/json" id="portal-boot">(.*?)<\/script>/.exec(html)?.[1];

let fixture: Fixture;
let scratch: string;
before(() => {
  fixture = createFixture();
  scratch = mkdtempSync(join(tmpdir(), 'portal-federation-'));
});
after(() => {
  fixture.remove();
  rmSync(scratch, { recursive: true, force: true });
});

describe('reading a build', () => {
  test('a folder, a .tgz of the folder and a .tar of the version folder give the same build', async () => {
    const dir = writeBuild(scratch, 'groups', '0.3.0');
    const folder = await readRemoteBuild(dir);
    assert.equal(folder.name, 'groups');
    assert.equal(folder.version, '0.3.0');
    assert.deepEqual(folder.routes, ['/groups']);
    const tgz = join(scratch, 'groups.tgz');
    execFileSync('tar', ['-czf', tgz, '-C', dir, '.']);
    const fromTgz = await readRemoteBuild(tgz);
    assert.deepEqual([...fromTgz.files.keys()].sort(), [...folder.files.keys()].sort());
    for (const [path, data] of folder.files) assert.equal(digestOf(fromTgz.files.get(path) as Buffer), digestOf(data), path);
    const tar = join(scratch, 'groups.tar');
    execFileSync('tar', ['-cf', tar, '-C', scratch, dir.slice(scratch.length + 1)]);
    assert.deepEqual([...(await readRemoteBuild(tar)).files.keys()].sort(), [...folder.files.keys()].sort());
  });

  test('what is not a remote build is refused with what to do', async () => {
    const dir = writeBuild(scratch, 'groups', '0.3.1');
    rmSync(join(dir, 'remoteEntry.js'));
    await assert.rejects(readRemoteBuild(dir), (error: Error) => error instanceof BuildError && /remoteEntry\.js is missing/.test(error.message));
    const bad = writeBuild(scratch, 'groups', 'latest');
    await assert.rejects(readRemoteBuild(bad), /the version must be a version such as 1\.2\.3/);
    const notTar = join(scratch, 'notes.tgz');
    writeFileSync(notTar, 'hello');
    await assert.rejects(readRemoteBuild(notTar), /is not a tar archive/);
    await assert.rejects(readRemoteBuild(join(scratch, 'nowhere')), /does not exist/);
    const hidden = writeBuild(scratch, 'groups', '0.3.2');
    writeFileSync(join(hidden, '.env'), 'SECRET=1');
    await assert.rejects(readRemoteBuild(hidden), /will not serve: \.env/);
  });

  test("its sidebar entries are read with the build, and refused, each problem named, when they are not the remote's to declare", async () => {
    const groups = { section: 'main', order: 30, label: 'Groups', path: '/groups' };
    assert.deepEqual((await readRemoteBuild(writeBuild(scratch, 'groups', '0.4.0', { navigation: [groups] }))).navigation, [groups]);
    assert.deepEqual((await readRemoteBuild(writeBuild(scratch, 'groups', '0.4.1'))).navigation, [], 'a build that declares none has none');
    const bad = writeBuild(scratch, 'groups', '0.4.2', {
      navigation: [
        { ...groups, path: '/tokens/services' },
        { section: 'sidebar', order: 'first', label: '', path: 'groups', when: 'tuesdays', count: 'everything', colour: 'red' },
      ],
    });
    await assert.rejects(readRemoteBuild(bad), {
      name: 'BuildError',
      message:
        "portal-remote.json: navigation[0].path: '/tokens/services' is not under one of this remote's routes; " +
        'navigation[1].colour: is not a field of a sidebar entry; navigation[1].section: must be one of main, manage-accounts, platform; ' +
        'navigation[1].order: must be a number; navigation[1].label: must be a name of 1 to 60 characters; ' +
        "navigation[1].path: must be a page's path such as /groups; navigation[1].when: must be smart-cards or service:NAME; " +
        'navigation[1].count: must be a field of the request summary such as total_new.',
    });
    await assert.rejects(readRemoteBuild(writeBuild(scratch, 'groups', '0.4.3', { navigation: { groups } })), /navigation: must be a list of sidebar entries/);
  });
});

describe('the workspace remotes', () => {
  test('each declares in package.json ("portal") the contract its routes module states and a prefix for every route', () => {
    const apps = readdirSync(REPO_DIR).filter((name) => name.startsWith('remote-'));
    assert.equal(apps.length, 5);
    for (const app of apps) {
      const pkg = JSON.parse(readFileSync(join(REPO_DIR, app, 'package.json'), 'utf8')) as { portal: { remote: string; contract: string; routes: string[] } };
      const source = readFileSync(join(REPO_DIR, app, 'src', 'routes.tsx'), 'utf8');
      assert.equal(/name: '([^']+)'/.exec(source)?.[1], pkg.portal.remote, app);
      assert.equal(/contract: '([^']+)'/.exec(source)?.[1], pkg.portal.contract, app);
      // Its routes: those written in place (route('path', …)) and its pages' (pageRoute(pages.x, …),
      // bareRoute(pages.x, …): the patterns of its pages' module in @portal/api).
      const written = [...source.matchAll(/\broute\(\s*'([^']+)'/g)].map((m) => `/${m[1]}`);
      const pagesModule = /\b(\w+Pages) as pages\b/.exec(source)?.[1];
      const pages = pagesModule === undefined ? {} : ((api as unknown as Record<string, Record<string, api.PortalPage>>)[pagesModule] ?? {});
      const fromPages = [...source.matchAll(/\b(pageRoute|bareRoute)\(pages\.(\w+)/g)].map(([, how, key]) => {
        const pattern = pages[key as string]?.pattern;
        assert.ok(pattern, `${app}: pages.${key} is a page of ${pagesModule}`);
        return how === 'bareRoute' ? `/${pattern.split('/')[1]}` : pattern;
      });
      const paths = [...written, ...fromPages];
      assert.ok(paths.length > 0, app);
      for (const path of paths) {
        const owned = pkg.portal.routes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
        assert.ok(owned, `${app}: the route ${path} is under none of package.json's portal.routes`);
      }
    }
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`publishing and pinning on ${kind}`, () => {
    let db: Database;
    let store: string;
    let context: FederationContext;
    beforeEach(async () => {
      db = await createTestDatabase(kind);
      store = mkdtempSync(join(scratch, 'store-'));
      context = { db, storeDir: store };
    });
    afterEach(async () => {
      await db.close();
      rmSync(store, { recursive: true, force: true });
    });

    const count = async (table: string) => Number((await db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n);
    const publish = async (name: string, version: string, options?: Parameters<typeof writeBuild>[3]) =>
      publishRemote(context, await readRemoteBuild(writeBuild(scratch, name, version, options)), 'team');

    test('publish: new, the same again (nothing changes), other content under the version refused', async () => {
      assert.equal((await publish('groups', '1.0.0')).outcome, 'published');
      assert.equal(readFileSync(join(store, 'groups', '1.0.0', 'remoteEntry.js'), 'utf8'), "var groups = '1.0.0';");
      const { rows } = await db.query<{ files: unknown; published_by: string }>("select files, published_by from remote_versions where name = 'groups'");
      const files = (typeof rows[0]?.files === 'string' ? JSON.parse(rows[0].files) : rows[0]?.files) as Record<string, string>;
      assert.equal(files['remoteEntry.js'], digestOf(Buffer.from("var groups = '1.0.0';")));
      assert.equal(rows[0]?.published_by, 'team');

      assert.equal((await publish('groups', '1.0.0')).outcome, 'unchanged');
      await assert.rejects(publish('groups', '1.0.0', { marker: 'changed' }), {
        name: 'ConflictError',
        message: 'groups 1.0.0 is already published with other content; a published version never changes. Give the new build a new version (in its package.json) and publish that.',
      });
      assert.equal(readFileSync(join(store, 'groups', '1.0.0', 'remoteEntry.js'), 'utf8'), "var groups = '1.0.0';", 'the store is untouched');
      assert.equal(await count('remote_versions'), 1);
    });

    test('pin: refused for an unknown version, changed files, an unmet contract or a taken path, with nothing changed', async () => {
      await publish('groups', '1.0.0');
      await publish('tokens', '1.0.0');
      await pinRemote(context, 'staging', 'groups', '1.0.0', 'ada');
      await pinRemote(context, 'staging', 'tokens', '1.0.0', 'ada');
      const before = { pins: await remoteStatus(db, 'staging'), history: await count('remote_pin_history') };

      await assert.rejects(pinRemote(context, 'staging', 'groups', '9.9.9', 'ada'), {
        name: 'NotFoundError',
        message: 'groups 9.9.9 is not published (published: 1.0.0). Publish it first: npm run portal -- remotes publish BUILD.',
      });
      await assert.rejects(pinRemote(context, 'staging', 'nobody', '1.0.0', 'ada'), { message: 'No version of a remote named nobody is published.' });

      await publish('groups', '1.1.0');
      writeFileSync(join(store, 'groups', '1.1.0', 'remoteEntry.js'), 'alert("tampered")');
      await assert.rejects(pinRemote(context, 'staging', 'groups', '1.1.0', 'ada'), {
        name: 'ConflictError',
        message:
          'groups 1.1.0 cannot be pinned: its files in the remote store are not the ones published (remoteEntry.js was changed after publishing). Publish it again from its build, or pin another version.',
      });

      await publish('groups', '2.0.0', { contract: '^3.0.0' });
      await assert.rejects(pinRemote(context, 'staging', 'groups', '2.0.0', 'ada'), {
        name: 'ConflictError',
        message: 'groups 2.0.0 cannot be pinned: it needs host contract ^3.0.0, and the host of staging implements 2.0.0. Pin a version written for contract 2.0.0.',
      });

      await publish('groups', '1.2.0', { routes: ['/groups', '/tokens'] });
      await assert.rejects(pinRemote(context, 'staging', 'groups', '1.2.0', 'ada'), {
        message: 'groups 1.2.0 cannot be pinned: it claims /tokens, which tokens 1.0.0 owns in staging.',
      });

      await assert.rejects(pinRemote(context, 'staging', 'groups', '1.0.0', 'ada'), { message: 'staging runs groups 1.0.0 already; nothing changed.' });

      assert.deepEqual(await remoteStatus(db, 'staging'), before.pins);
      assert.equal(await count('remote_pin_history'), before.history);
    });

    test('rollback goes back one pin at a time; the history says who, when, from, to and why', async () => {
      for (const version of ['1.0.0', '1.1.0', '1.2.0']) await publish('groups', version);
      await assert.rejects(rollbackRemote(context, 'prod', 'groups', 'ada'), { message: 'groups is not pinned in prod.' });
      await pinRemote(context, 'prod', 'groups', '1.0.0', 'ada', 'first release');
      await assert.rejects(rollbackRemote(context, 'prod', 'groups', 'ada'), {
        message: 'groups has had only one pin in prod (1.0.0): there is nothing to roll back to.',
      });
      await pinRemote(context, 'prod', 'groups', '1.1.0', 'ada', 'new search');
      await pinRemote(context, 'prod', 'groups', '1.2.0', 'bob', 'faster');
      assert.equal((await remoteStatus(db, 'prod'))[0]?.rollbackTo, '1.1.0');

      const back = await rollbackRemote(context, 'prod', 'groups', 'bob', 'broken table');
      assert.deepEqual(back, { environment: 'prod', name: 'groups', fromVersion: '1.2.0', toVersion: '1.1.0', action: 'rollback' });
      assert.equal((await rollbackRemote(context, 'prod', 'groups', 'bob', 'still broken')).toVersion, '1.0.0');
      const [status] = await remoteStatus(db, 'prod');
      assert.equal(status?.version, '1.0.0');
      assert.equal(status?.pinnedBy, 'bob');
      assert.equal(status?.reason, 'still broken');
      assert.equal(status?.rollbackTo, null);

      const history = await pinHistory(db, 'prod');
      assert.deepEqual(
        history.map((h) => [h.action, h.fromVersion, h.toVersion, h.changedBy, h.reason]),
        [
          ['rollback', '1.1.0', '1.0.0', 'bob', 'still broken'],
          ['rollback', '1.2.0', '1.1.0', 'bob', 'broken table'],
          ['pin', '1.1.0', '1.2.0', 'bob', 'faster'],
          ['pin', '1.0.0', '1.1.0', 'ada', 'new search'],
          ['pin', null, '1.0.0', 'ada', 'first release'],
        ],
      );
      const csv = pinHistoryCsv(history).split('\r\n');
      assert.equal(csv[0], 'when,environment,remote,action,from,to,who,why');
      assert.match(csv[1] ?? '', /^\d{4}-\d\d-\d\dT[\d:.]+Z,prod,groups,pin,,1\.0\.0,ada,first release$/);
      assert.match(csv[5] ?? '', /,prod,groups,rollback,1\.1\.0,1\.0\.0,bob,still broken$/);
    });

    test('initial pins: imported once from the environment file; what cannot be pinned is skipped with the reason', async () => {
      await publishFixture(db, fixture);
      const status = await remoteStatus(db, 'test');
      assert.deepEqual(status.map((s) => [s.name, s.version, s.pinnedBy]), [['groups', '0.1.0', 'initial pins (fixture)']]);
      const again = await importInitialPins({ db, storeDir: fixture.remotesDir }, TEST_MANIFEST, 'again');
      assert.deepEqual(again.pinned, []);
      assert.deepEqual(again.skipped, [
        { name: 'tokens', reason: 'No version of a remote named tokens is published.' },
        { name: 'elsewhere', reason: 'it names an entry URL, not a version: only published versions are pinned (publish it, or use PORTAL_DEV_REMOTES while developing)' },
      ]);
      assert.equal(await count('remote_pin_history'), 1);
    });

    test('the served manifest: the pins with the digests of their entry files, a preview for its session only', async () => {
      await publish('groups', '1.0.0');
      await publish('groups', '1.1.0');
      await pinRemote(context, 'local', 'groups', '1.0.0', 'ada');
      const served = await servedManifest(db, 'local');
      assert.deepEqual(served, {
        environment: 'local',
        remotes: [
          {
            name: 'groups',
            version: '1.0.0',
            entry: '/remotes/groups/1.0.0/remoteEntry.js',
            contract: '^2.0.0',
            routes: ['/groups'],
            integrity: {
              '/remotes/groups/1.0.0/remoteEntry.js': digestOf(Buffer.from("var groups = '1.0.0';")),
            },
          },
        ],
      });
      const withDev = await servedManifest(db, 'local', { devRemotes: { groups: 'http://localhost:3102/mf-manifest.json' } });
      assert.deepEqual(withDev.remotes[0], { name: 'groups', version: '1.0.0', contract: '^2.0.0', routes: ['/groups'], entry: 'http://localhost:3102/mf-manifest.json' });
    });

    test("the served manifest carries each pinned version's sidebar entries, a developer's override keeping them; a new version's entries need no host change", async () => {
      const groups = { section: 'main', order: 30, label: 'Groups', path: '/groups' };
      const queue = { section: 'manage-accounts', order: 70, label: 'User Group Requests', path: '/groups/requests', permission: 'LIST_USER_GROUP_REQUESTS', count: 'total_usergroup' };
      await publish('groups', '1.0.0', { navigation: [groups] });
      await publish('groups', '1.1.0', { navigation: [groups, queue] });
      await pinRemote(context, 'local', 'groups', '1.0.0', 'ada');
      assert.deepEqual((await servedManifest(db, 'local')).remotes[0]?.navigation, [groups]);
      await pinRemote(context, 'local', 'groups', '1.1.0', 'ada');
      assert.deepEqual((await servedManifest(db, 'local')).remotes[0]?.navigation, [groups, queue]);
      const withDev = await servedManifest(db, 'local', { devRemotes: { groups: 'http://localhost:3102/mf-manifest.json' } });
      assert.deepEqual(withDev.remotes[0]?.navigation, [groups, queue]);
      // Other entries under a published version are other content: refused as any change is.
      await assert.rejects(publish('groups', '1.1.0', { navigation: [groups] }), { name: 'ConflictError' });
    });
  });

  describe(`the federation API and /environment.json on ${kind}`, () => {
    let world: World;
    let store: string;
    beforeEach(async () => {
      store = mkdtempSync(join(scratch, 'store-'));
      world = await createWorld(kind, fixture, { server: { remotesDir: store } });
      for (const version of ['0.1.0', '0.2.0']) {
        await publishRemote({ db: world.db, storeDir: store }, await readRemoteBuild(writeBuild(scratch, 'groups', version)), 'team');
      }
      await pinRemote({ db: world.db, storeDir: store }, 'test', 'groups', '0.1.0', 'initial');
    });
    afterEach(async () => {
      await world.close();
      rmSync(store, { recursive: true, force: true });
    });

    test('only MANAGE_REMOTES holders (the site administrator) may read or change pins', async () => {
      const { who: user } = await signedIn(world, 'plain.user');
      const { who: adjudicator } = await signedIn(world, 'judge.person', { roles: ['adjudicator'] });
      for (const who of [user, adjudicator]) {
        assert.deepEqual((await call(world.app, who, 'GET', '/federation')).json(), FORBIDDEN);
        const pin = await call(world.app, who, 'POST', '/federation/pins', { environment: 'test', remote: 'groups', version: '0.2.0', reason: 'x' });
        assert.equal(pin.statusCode, 403);
        assert.equal((await call(world.app, who, 'PUT', '/federation/previews/groups', { version: '0.2.0' })).statusCode, 403);
      }
      assert.equal((await remoteStatus(world.db, 'test'))[0]?.version, '0.1.0');
    });

    test('an administrator pins, sees the state and the history, and exports it as CSV', async () => {
      const { who: admin } = await signedIn(world, 'site.admin', { roles: ['site-admin'] });
      const pinned = await call(world.app, admin, 'POST', '/federation/pins', { environment: 'test', remote: 'groups', version: '0.2.0', reason: 'new table' });
      assert.equal(pinned.statusCode, 200, pinned.body);
      assert.deepEqual(pinned.json(), { environment: 'test', remote: 'groups', action: 'pin', from_version: '0.1.0', to_version: '0.2.0' });

      const refused = await call(world.app, admin, 'POST', '/federation/pins', { environment: 'test', remote: 'groups', version: '3.0.0', reason: '' });
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), { error: 'groups 3.0.0 is not published (published: 0.2.0, 0.1.0). Publish it first: npm run portal -- remotes publish BUILD.', code: 404 });

      const state = (await call(world.app, admin, 'GET', '/federation')).json();
      assert.equal(state.environment, 'test');
      assert.equal(state.host_contract, '2.0.0');
      assert.deepEqual(
        state.remotes.map((r: { name: string; version: string; pinned_by: string; reason: string; rollback_to: string; versions: { version: string }[] }) => [
          r.name, r.version, r.pinned_by, r.reason, r.rollback_to, r.versions.map((v) => v.version),
        ]),
        [['groups', '0.2.0', 'site.admin', 'new table', '0.1.0', ['0.2.0', '0.1.0']]],
      );
      const served = (await world.app.inject('/environment.json')).json();
      assert.equal(served.remotes[0].entry, '/remotes/groups/0.2.0/remoteEntry.js', 'the next page load runs the new pin');

      const history = (await call(world.app, admin, 'GET', '/federation/history')).json();
      assert.deepEqual(history.history.map((h: { action: string; to_version: string; changed_by: string }) => [h.action, h.to_version, h.changed_by]), [
        ['pin', '0.2.0', 'site.admin'],
        ['pin', '0.1.0', 'initial'],
      ]);
      const csv = await world.app.inject({ method: 'GET', url: '/accounts/rest/federation/history.csv?environment=test', headers: { cookie: admin.cookie } });
      assert.equal(csv.statusCode, 200);
      assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(csv.headers['content-disposition'], 'attachment; filename="test-remote-history.csv"');
      assert.match(csv.body, /^when,environment,remote,action,from,to,who,why\r\n.*,test,groups,pin,,0\.1\.0,initial,\r\n.*,test,groups,pin,0\.1\.0,0\.2\.0,site\.admin,new table\r\n$/s);

      const back = await call(world.app, admin, 'POST', '/federation/rollbacks', { environment: 'test', remote: 'groups', reason: 'rows missing' });
      assert.deepEqual(back.json(), { environment: 'test', remote: 'groups', action: 'rollback', from_version: '0.2.0', to_version: '0.1.0' });
    });

    test('a preview is served to its session only, marked, and ends on request', async () => {
      const { who: admin } = await signedIn(world, 'site.admin', { roles: ['site-admin'] });
      const { who: other } = await signedIn(world, 'other.admin', { roles: ['site-admin'] });
      const started = await call(world.app, admin, 'PUT', '/federation/previews/groups', { version: '0.2.0' });
      assert.equal(started.statusCode, 200, started.body);
      const manifestAs = async (who: typeof admin | undefined) =>
        (await world.app.inject({ method: 'GET', url: '/environment.json', headers: who ? as(who) : {} })).json().remotes[0];
      assert.equal((await manifestAs(admin)).version, '0.2.0');
      assert.equal((await manifestAs(admin)).preview, true);
      assert.equal((await manifestAs(other)).version, '0.1.0');
      assert.equal((await manifestAs(other)).preview, undefined);
      assert.equal((await manifestAs(undefined)).version, '0.1.0');
      assert.equal((await call(world.app, admin, 'GET', '/federation')).json().remotes[0].preview, '0.2.0');

      const unknown = await call(world.app, admin, 'PUT', '/federation/previews/groups', { version: '7.0.0' });
      assert.equal(unknown.statusCode, 404);

      assert.equal((await call(world.app, admin, 'DELETE', '/federation/previews/groups')).statusCode, 200);
      assert.equal((await manifestAs(admin)).version, '0.1.0');
      assert.deepEqual((await call(world.app, admin, 'DELETE', '/federation/previews/groups')).json(), { error: 'You are not previewing groups.', code: 404 });
      assert.equal((await remoteStatus(world.db, 'test'))[0]?.version, '0.1.0', 'the environment never changed');
    });
  });

  describe(`the first HTML on ${kind}`, () => {
    test('carries the configuration, the pins (a preview for its session) and preload hints for the remote of the path, escaped', async () => {
      const store = mkdtempSync(join(scratch, 'store-'));
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html><head><title>Portal</title></head><body></body></html>');
      const brand = '</script><script>alert(1)</script>';
      const world = await createWorld(kind, fixture, { server: { remotesDir: store, hostDir }, portal: { brand } });
      try {
        for (const version of ['0.1.0', '0.2.0']) {
          await publishRemote({ db: world.db, storeDir: store }, await readRemoteBuild(writeRemoteBuild(scratch, 'groups', version)), 'team');
        }
        await pinRemote({ db: world.db, storeDir: store }, 'test', 'groups', '0.1.0', 'ada');
        const page = async (url: string, headers: Record<string, string> = {}) => {
          const response = await world.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
          assert.equal(response.statusCode, 200);
          assert.equal(response.headers['cache-control'], 'no-store');
          const html = response.body;
          const json = bootJsonOf(html);
          assert.ok(json, html);
          return { html, boot: JSON.parse(json) as { configuration: { brand: string }; environment: { remotes: { version: string; preview?: boolean }[] } } };
        };
        const groups = await page('/groups');
        assert.equal(groups.boot.configuration.brand, brand, 'the same configuration the API answers');
        assert.equal((groups.html.match(/<script/g) ?? []).length, 1, 'the brand cannot open a script of its own');
        assert.equal(groups.boot.environment.remotes[0]?.version, '0.1.0');
        const served = (await world.app.inject('/environment.json')).json();
        assert.deepEqual(groups.boot.environment, served, 'the same pins /environment.json serves');
        const entry = served.remotes[0].integrity['/remotes/groups/0.1.0/remoteEntry.js'];
        assert.ok(groups.html.includes(`<link rel="preload" as="script" href="/remotes/groups/0.1.0/remoteEntry.js" integrity="${entry}" crossorigin="anonymous">`));
        assert.ok(!groups.html.includes('mf-manifest.json'), 'the host reads no manifest of the remote: none is hinted');
        const other = await page('/profile');
        assert.ok(!other.html.includes('rel="preload"'), 'no remote owns /profile here: no hints');

        const { who: admin } = await signedIn(world, 'site.admin', { roles: ['site-admin'] });
        assert.equal((await call(world.app, admin, 'PUT', '/federation/previews/groups', { version: '0.2.0' })).statusCode, 200);
        const previewed = await page('/groups', { cookie: admin.cookie });
        assert.equal(previewed.boot.environment.remotes[0]?.version, '0.2.0');
        assert.equal(previewed.boot.environment.remotes[0]?.preview, true);
        assert.ok(previewed.html.includes('href="/remotes/groups/0.2.0/remoteEntry.js"'));
      } finally {
        await world.close();
        rmSync(store, { recursive: true, force: true });
      }
    });
  });

  describe(`the configuration in the first HTML, on ${kind}`, () => {
    test('is written as it is, whatever it holds: a brand with `$` patterns writes nothing of the page again', async () => {
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html><head><title>Portal</title></head><body><div id=root></div></body></html>');
      const brand = "R&D $' $& $` $$ $1";
      const world = await createWorld(kind, fixture, { server: { hostDir }, portal: { brand } });
      try {
        const response = await world.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
        assert.equal(response.statusCode, 200);
        const json = bootJsonOf(response.body);
        assert.ok(json, response.body);
        assert.equal((JSON.parse(json) as { configuration: { brand: string } }).configuration.brand, brand);
        assert.equal((response.body.match(/<\/html>/g) ?? []).length, 1, response.body);
        assert.equal((response.body.match(/<title>/g) ?? []).length, 1, response.body);
      } finally {
        await world.close();
      }
    });

    test("the startup frame's top bar carries the portal's name, as text, so that the first paint has words", async () => {
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      // As the build minifies host/src/index.html.
      writeFileSync(
        join(hostDir, 'index.html'),
        '<!doctype html><html><head><title>Portal</title></head><body><div id=root><div class=startup-bar id=startup-bar></div><div class=startup-body></div></div></body></html>',
      );
      const bar = (body: string) => /<div class=startup-bar id=startup-bar>(.*?)<\/div>/.exec(body)?.[1];
      for (const [brand, shown] of [
        ["R&D $' $& <b>Team</b>", "R&amp;D $' $&amp; &lt;b&gt;Team&lt;/b&gt;"],
        ['undefined', 'Portal'],
      ]) {
        const world = await createWorld(kind, fixture, { server: { hostDir }, portal: { brand } });
        try {
          const response = await world.app.inject({ method: 'GET', url: '/profile', headers: { accept: 'text/html' } });
          assert.equal(response.statusCode, 200);
          assert.equal(bar(response.body), `<span class="startup-brand">${shown}</span>`, response.body);
        } finally {
          await world.close();
        }
      }
    });

    test("the startup frame is painted in the reader's remembered theme (its cookie), else the configured css_theme, else left to the system setting", async () => {
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html lang=en><head><title>Portal</title></head><body><div id=root></div></body></html>');
      const themeOf = (body: string) => /<html\b([^>]*)>/.exec(body)?.[1]?.match(/data-theme="(\w+)"/)?.[1] ?? 'system';
      for (const [cssTheme, cookie, shown] of [
        ['undefined', undefined, 'system'],
        ['undefined', 'dark', 'dark'],
        ['undefined', 'light', 'light'],
        ['dark', undefined, 'dark'],
        ['dark', 'light', 'light'],
        ['light', 'dark', 'dark'],
        ['light', '"><script>x</script>', 'light'],
      ] as const) {
        const world = await createWorld(kind, fixture, { server: { hostDir }, portal: { css_theme: cssTheme } });
        try {
          const headers: Record<string, string> = { accept: 'text/html', ...(cookie === undefined ? {} : { cookie: `portal-theme=${encodeURIComponent(cookie)}` }) };
          const response = await world.app.inject({ method: 'GET', url: '/profile', headers });
          assert.equal(response.statusCode, 200);
          assert.equal(themeOf(response.body), shown, `css_theme ${cssTheme}, cookie ${String(cookie)}: ${response.body.slice(0, 80)}`);
          assert.doesNotMatch(response.body, /<script>x/);
        } finally {
          await world.close();
        }
      }
    });
  });

  describe(`the host's own page scripts in the first HTML, on ${kind}`, () => {
    test("hints at the scripts the build lists for the address (the sign-in page's on /login and /), at no other address, and none when the list is missing or not one", async () => {
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html><head><title>Portal</title></head><body></body></html>');
      const scripts = ['/login.0a1b2c.js', '/152.3d4e5f.js'];
      const world = await createWorld(kind, fixture, { server: { hostDir } });
      const hinted = async (url: string) => {
        const response = await world.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        assert.equal(response.statusCode, 200);
        return [...response.body.matchAll(/<link rel="preload" as="script" href="([^"]+)" fetchpriority="low">/g)].map((m) => m[1]);
      };
      try {
        assert.deepEqual(await hinted('/login'), [], 'a build without the list');
        writeFileSync(join(hostDir, 'page-preloads.json'), JSON.stringify({ '/': scripts, '/login': scripts }));
        assert.deepEqual(await hinted('/login'), scripts);
        assert.deepEqual(await hinted('/'), scripts);
        assert.deepEqual(await hinted('/profile'), []);
        assert.deepEqual(await hinted('/login/more'), []);
        // Not a list of scripts (a path elsewhere, a tag): nothing hinted, the page still served.
        for (const broken of ['{', JSON.stringify({ '/login': ['https://elsewhere.example/x.js'] }), JSON.stringify({ '/login': ['/a.js"><script>'] })]) {
          writeFileSync(join(hostDir, 'page-preloads.json'), broken);
          assert.deepEqual(await hinted('/login'), [], broken);
        }
      } finally {
        await world.close();
      }
    });
  });

  describe(`a remote's first page in the first HTML, on ${kind}`, () => {
    test("hints at the remote's routes and the host's files of the shared modules they consume, as the two builds list them; nothing for a build without the lists, a developer's override, or lists that are not lists", async () => {
      const store = mkdtempSync(join(scratch, 'store-'));
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html><head><title>Portal</title></head><body></body></html>');
      const world = await createWorld(kind, fixture, { server: { remotesDir: store, hostDir } });
      const hinted = async (url: string, headers: Record<string, string> = {}) => {
        const response = await world.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
        assert.equal(response.statusCode, 200);
        return [...response.body.matchAll(/<link rel="preload" as="script" href="([^"]+)" fetchpriority="low">/g)].map((m) => m[1]);
      };
      const publish = async (version: string, firstLoad?: unknown) =>
        publishRemote({ db: world.db, storeDir: store }, await readRemoteBuild(writeRemoteBuild(scratch, 'groups', version, { firstLoad })), 'team');
      try {
        // Its routes' chunk, and the shared modules its code consumes: one the host lists, one it
        // provides from its first file (no files), one it does not know.
        await publish('0.1.0', { scripts: ['__federation_expose_routes.0a1b2c.js'], shared: ['@portal/antd-data', '@portal/antd-core', '@portal/unknown'] });
        await publish('0.2.0'); // built before the builds wrote what a first page loads
        await publish('0.3.0', { scripts: ['a.js"><script>alert(1)</script>'], shared: ['@portal/antd-data'] });
        await pinRemote({ db: world.db, storeDir: store }, 'test', 'groups', '0.1.0', 'ada');
        const routes = '/remotes/groups/0.1.0/__federation_expose_routes.0a1b2c.js';
        assert.deepEqual(await hinted('/groups'), [routes], 'a host build without shared-preloads.json: the routes only');
        writeFileSync(join(hostDir, 'shared-preloads.json'), JSON.stringify({ '@portal/antd-data': ['/987.3d4e.js', '/910.5f6a.js'], '@portal/antd-forms': ['/forms.7b8c.js'] }));
        assert.deepEqual(await hinted('/groups'), [routes, '/987.3d4e.js', '/910.5f6a.js']);
        assert.deepEqual(await hinted('/groups/PORTAL/admin'), [routes, '/987.3d4e.js', '/910.5f6a.js'], 'every address the remote owns');
        assert.deepEqual(await hinted('/profile'), [], 'no remote owns /profile here');
        // The host's own list, by address, comes first; a file in both is hinted once.
        writeFileSync(join(hostDir, 'page-preloads.json'), JSON.stringify({ '/groups': ['/910.5f6a.js', '/own.1c2d.js'] }));
        assert.deepEqual(await hinted('/groups'), ['/910.5f6a.js', '/own.1c2d.js', routes, '/987.3d4e.js']);
        rmSync(join(hostDir, 'page-preloads.json'));

        const { who: admin } = await signedIn(world, 'site.admin', { roles: ['site-admin'] });
        for (const [version, expected] of [['0.2.0', []], ['0.3.0', []]] as const) {
          assert.equal((await call(world.app, admin, 'PUT', '/federation/previews/groups', { version })).statusCode, 200);
          assert.deepEqual(await hinted('/groups', { cookie: admin.cookie }), expected, `groups ${version}`);
        }
        for (const broken of ['{', JSON.stringify({ '@portal/antd-data': ['https://elsewhere.example/x.js'] }), JSON.stringify({ '@portal/antd-data': '/987.3d4e.js' })]) {
          writeFileSync(join(hostDir, 'shared-preloads.json'), broken);
          assert.deepEqual(await hinted('/groups'), [routes], broken);
        }
      } finally {
        await world.close();
      }
      const overridden = await createWorld(kind, fixture, { server: { remotesDir: store, hostDir, devRemotes: { groups: 'http://localhost:3102/mf-manifest.json' } } });
      try {
        const firstLoad = { scripts: ['__federation_expose_routes.0a1b2c.js'], shared: ['@portal/antd-data'] };
        await publishRemote({ db: overridden.db, storeDir: store }, await readRemoteBuild(writeRemoteBuild(scratch, 'groups', '0.1.0', { firstLoad })), 'team');
        await pinRemote({ db: overridden.db, storeDir: store }, 'test', 'groups', '0.1.0', 'ada');
        const response = await overridden.app.inject({ method: 'GET', url: '/groups', headers: { accept: 'text/html' } });
        assert.equal(response.statusCode, 200);
        assert.ok(response.body.includes('"entry":"http://localhost:3102/mf-manifest.json"'), response.body);
        assert.ok(!response.body.includes('fetchpriority="low"'), "a developer's override loads from elsewhere: nothing of the store is hinted");
      } finally {
        await overridden.close();
        rmSync(store, { recursive: true, force: true });
      }
    });
  });

  describe(`who the first HTML says is signed in, on ${kind}`, () => {
    test('as GET /sessions/current and GET /xsrf answer for the cookie: nobody without a session, the token of an anonymous one, the user and token of a signed-in one, nobody for a locked account', async () => {
      const hostDir = mkdtempSync(join(scratch, 'host-'));
      writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html><head><title>Portal</title></head><body></body></html>');
      const world = await createWorld(kind, fixture, { server: { hostDir } });
      try {
        const boot = async (cookie?: string): Promise<Record<string, unknown>> => {
          const response = await world.app.inject({ method: 'GET', url: '/profile', headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
          assert.equal(response.statusCode, 200);
          assert.equal(response.headers['cache-control'], 'no-store');
          assert.equal(response.headers['set-cookie'], undefined, 'the page starts no session of its own');
          const json = bootJsonOf(response.body);
          assert.ok(json, response.body);
          return JSON.parse(json) as Record<string, unknown>;
        };
        const current = (who: Principal) => world.app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(who) });

        const nobody = await boot();
        assert.equal(nobody.session, null);
        assert.ok(!('xsrf' in nobody), 'no session: no token (GET /xsrf starts one when a call needs it)');
        assert.equal((await boot('portal-session=not-a-session-id')).session, null, 'a cookie naming no session is nobody');

        const visitor = await fetchXsrf(world.app);
        const anonymous = await boot(visitor.cookie);
        assert.equal(anonymous.session, null);
        assert.equal(anonymous.xsrf, visitor.xsrf);

        const { account, who } = await signedIn(world, 'boot.user');
        const signedInBoot = await boot(who.cookie);
        assert.deepEqual(signedInBoot.session, (await current(who)).json());
        assert.deepEqual(signedInBoot.session, { username: 'boot.user', permissions: permissionsOf(['user']) });
        assert.equal(signedInBoot.xsrf, who.xsrf);
        const withCarriedToken = await current({ cookie: who.cookie, xsrf: String(signedInBoot.xsrf) });
        assert.equal(withCarriedToken.statusCode, 200, 'the carried token is the session\'s');

        // The account locked behind the session's back: nobody, and no token of that session.
        await world.db.query('update accounts set active = false where id = $1', [account.id]);
        const locked = await boot(who.cookie);
        assert.equal(locked.session, null);
        assert.ok(!('xsrf' in locked));
        assert.equal((await current(who)).statusCode, 401, 'as the API says');

        // Signed in again elsewhere: the old cookie's page carries nothing of the new session.
        await world.db.query('update accounts set active = true where id = $1', [account.id]);
        const again = await signIn(world.app, 'boot.user', account.token);
        assert.notEqual((await boot(again.cookie)).xsrf, signedInBoot.xsrf, 'a new session, a new token');
      } finally {
        await world.close();
      }
    });
  });

  describe(`files served from the store on ${kind}`, () => {
    test('a file changed, removed or added after publishing is refused (404) and the log says which', async () => {
      const store = mkdtempSync(join(scratch, 'store-'));
      const logs: string[] = [];
      const world = await createWorld(kind, fixture, { server: { remotesDir: store }, logs });
      try {
        await publishRemote({ db: world.db, storeDir: store }, await readRemoteBuild(writeBuild(scratch, 'groups', '0.5.0')), 'team');
        const get = (file: string) => world.app.inject({ method: 'GET', url: `/remotes/groups/0.5.0/${file}` });
        assert.equal((await get('remoteEntry.js')).body, "var groups = '0.5.0';");
        assert.equal((await get('not-published.js')).statusCode, 404);

        writeFileSync(join(store, 'groups', '0.5.0', 'remoteEntry.js'), 'alert(1)');
        assert.equal((await get('remoteEntry.js')).statusCode, 404);
        const line = parseLogs(logs).find((l) => String(l.msg).includes('remoteEntry.js does not match its published digest'));
        assert.ok(line, 'the log says why');
        assert.equal(line.msg, 'refused groups 0.5.0: remoteEntry.js does not match its published digest (changed or removed after publishing)');

        writeFileSync(join(store, 'groups', '0.5.0', 'chunk.0123456789abcdef.js.br'), 'sneaky');
        assert.equal((await get('chunk.0123456789abcdef.js')).statusCode, 404, 'a precompressed copy added later would be sent instead');
        assert.ok(parseLogs(logs).some((l) => l.msg === 'refused groups 0.5.0: chunk.0123456789abcdef.js.br was added to the remote store after publishing'));
        assert.equal((await get('mf-manifest.json')).statusCode, 200, 'the untouched files are still served');
        assert.equal((await world.app.inject('/remotes/groups/0.9.9/remoteEntry.js')).statusCode, 404, 'an unpublished version');
      } finally {
        await world.close();
        rmSync(store, { recursive: true, force: true });
      }
    });
  });
}
