/**
 * The Artifactory issuer (server/docs/tokens.md). No Artifactory runs here: these tests use
 * test/artifactory-fake.ts, a small HTTP server that answers as JFrog's documentation of the
 * Access Tokens and Users REST APIs shows. First the adapter alone (each request as JFrog
 * documents it, and every way a call can fail, with a message safe to show and no secret in it),
 * then the portal's token calls with the Artifactory issuer on each database.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { ArtifactRepositoryError, createArtifactoryIssuer, groupsScope, subjectIsUser } from '../src/services/tokens/artifactory.js';
import { NoArtifactRepositoryAccountError, type IssueRequest, type TokenIssuer } from '../src/services/tokens/issuer.js';
import { runTokenMaintenance } from '../src/services/tokens/maintenance.js';
import { startArtifactoryFake, type ArtifactoryFake } from './artifactory-fake.js';
import type { Principal, TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { call, createWorld, signedIn, type World } from './self-service-helpers.js';

const ADMIN_TOKEN = 'cmVmdADMINxSECRETxTOKENx0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const REFERENCE = /^cmVmd[A-Za-z0-9]{59}$/;
const NO_ACCOUNT = 'You need an Artifactory account to create access tokens. Please create a Jira case in the WEB project for assistance.';

const request = (overrides: Partial<IssueRequest> = {}): IssueRequest => ({
  username: 'alice',
  description: 'Nightly build',
  scopes: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'],
  expiresInSeconds: 30 * 86_400,
  issuedAt: new Date(),
  ...overrides,
});

/** The error a call throws, for its class and message. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('the Artifactory issuer against a fake following JFrog’s documented API', () => {
  let fake: ArtifactoryFake;
  let issuer: TokenIssuer;

  beforeEach(async () => {
    fake = await startArtifactoryFake({ adminToken: ADMIN_TOKEN, users: ['alice', 'bob'] });
    issuer = createArtifactoryIssuer({ url: `${fake.url}/`, adminToken: ADMIN_TOKEN });
  });
  afterEach(() => fake.close());

  test('is named artifactory; the scope names the groups as applied-permissions/groups', () => {
    assert.equal(issuer.name, 'artifactory');
    assert.equal(groupsScope(['ALPHA-artifactsWrite', 'BETA-artifactsRead']), 'applied-permissions/groups:ALPHA-artifactsWrite,BETA-artifactsRead');
    assert.equal(subjectIsUser('jfac@01abc/users/alice', 'alice'), true);
    assert.equal(subjectIsUser('jfac@01abc/users/malice', 'alice'), false);
    assert.equal(subjectIsUser('alice', 'alice'), true);
  });

  test('issue: looks the user up, then creates a non-refreshable token with a reference token, as JFrog documents the calls', async () => {
    const issued = await issuer.issue(request());
    assert.match(issued.referenceToken, REFERENCE);
    assert.equal(issued.secretHash, null);
    const stored = fake.tokens.get(issued.tokenId);
    assert.ok(stored, 'the token is at Artifactory under the id returned');
    assert.equal(stored.reference_token, issued.referenceToken);
    assert.equal(stored.subject, `${fake.serviceId}/users/alice`);
    assert.equal(stored.expiry - stored.issued_at, 30 * 86_400);

    assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), ['GET /access/api/v2/users/alice', 'POST /access/api/v1/tokens']);
    for (const r of fake.requests) {
      assert.equal(r.headers.authorization, `Bearer ${ADMIN_TOKEN}`);
      assert.equal(r.headers.accept, 'application/json');
    }
    const create = fake.requests[1]!;
    assert.equal(create.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(create.body), {
      username: 'alice',
      scope: 'applied-permissions/groups:ALPHA-artifactsWrite,BETA-artifactsRead',
      expires_in: 2_592_000,
      description: 'Nightly build',
      refreshable: false,
      include_reference_token: true,
    });
    assert.equal(fake.requests[0]!.body, '');
  });

  test('a name is sent as it is, and a user name is escaped in the path', async () => {
    fake.users.add('j.doe+ci');
    await issuer.issue(request({ username: 'j.doe+ci', description: 'Ünïcode & "quotes" / slashes' }));
    assert.equal(fake.requests[0]!.path, '/access/api/v2/users/j.doe%2Bci');
    assert.equal(JSON.parse(fake.requests[1]!.body).description, 'Ünïcode & "quotes" / slashes');
  });

  test('liveTokenIds: the user’s tokens only, by their subject', async () => {
    const mine = await issuer.issue(request());
    const made = fake.addToken('alice', 'made in Artifactory');
    const bobs = await issuer.issue(request({ username: 'bob' }));
    fake.requests.length = 0;
    const live = await issuer.liveTokenIds('alice');
    assert.deepEqual([...(live ?? [])].sort(), [mine.tokenId, made.token_id].sort());
    assert.ok(!live?.has(bobs.tokenId));
    assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), ['GET /access/api/v2/users/alice', 'GET /access/api/v1/tokens']);
    assert.deepEqual(fake.requests[1]!.query, { username: 'alice' });

    // An Artifactory that ignores the username filter lists every token: the subject decides.
    const unfiltered = createArtifactoryIssuer({
      url: fake.url,
      adminToken: ADMIN_TOKEN,
      fetch: (input, init) => fetch(String(input).replace(/\?.*$/, ''), init),
    });
    const all = await unfiltered.liveTokenIds('alice');
    assert.deepEqual([...(all ?? [])].sort(), [mine.tokenId, made.token_id].sort());
    assert.deepEqual(await unfiltered.liveTokenIds('bob'), new Set([bobs.tokenId]));
  });

  test('revoke: DELETE by id; a token Artifactory no longer knows (204 as documented, or 404) counts as revoked', async () => {
    const issued = await issuer.issue(request());
    fake.requests.length = 0;
    await issuer.revoke(issued.tokenId);
    assert.equal(fake.tokens.has(issued.tokenId), false);
    assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), [`DELETE /access/api/v1/tokens/${issued.tokenId}`]);
    assert.equal(fake.requests[0]!.headers.authorization, `Bearer ${ADMIN_TOKEN}`);
    await issuer.revoke(issued.tokenId);
    fake.unknownRevokeStatus = 404;
    await issuer.revoke('no-such-token');
    await issuer.revoke('../users/alice');
    assert.equal(fake.requests.at(-1)!.path, '/access/api/v1/tokens/..%2Fusers%2Falice');
  });

  test('a user Artifactory does not know: NoArtifactRepositoryAccountError, and no token is made', async () => {
    const issued = await failure(issuer.issue(request({ username: 'carol' })));
    assert.ok(issued instanceof NoArtifactRepositoryAccountError);
    assert.ok((await failure(issuer.liveTokenIds('carol'))) instanceof NoArtifactRepositoryAccountError);
    assert.equal(fake.tokens.size, 0);
    assert.ok(!fake.requests.some((r) => r.method === 'POST'));
  });

  test('500, a wrong admin token, no answer in time, a dropped connection and an unreachable host: a message safe to show', async () => {
    const messages: string[] = [];
    const expect = async (promise: Promise<unknown>, message: string) => {
      const error = await failure(promise);
      assert.ok(error instanceof ArtifactRepositoryError, `${error.name}: ${error.message}`);
      assert.equal(error.message, message);
      messages.push(error.message, String(error.stack), JSON.stringify(error));
    };
    fake.failNext(500);
    await expect(issuer.issue(request()), 'The artifact repository did not answer: HTTP 500 while looking up the user.');
    fake.failNext(200);
    fake.failNext(500);
    await expect(issuer.issue(request()), 'The artifact repository did not answer: HTTP 500 while creating a token.');
    fake.failNext(200);
    fake.failNext(503);
    await expect(issuer.liveTokenIds('alice'), 'The artifact repository did not answer: HTTP 503 while listing tokens.');
    fake.failNext(500);
    await expect(issuer.revoke('some-id'), 'The artifact repository did not answer: HTTP 500 while revoking a token.');
    const impatient = createArtifactoryIssuer({ url: fake.url, adminToken: ADMIN_TOKEN, timeoutMs: 200 });
    fake.failNext('hang');
    await expect(impatient.revoke('some-id'), 'The artifact repository did not answer: no answer within 200 ms while revoking a token.');
    fake.failNext('hang');
    await expect(impatient.issue(request()), 'The artifact repository did not answer: no answer within 200 ms while looking up the user.');
    fake.failNext('drop');
    await expect(issuer.liveTokenIds('alice'), 'The artifact repository did not answer: no connection while looking up the user.');

    const wrong = createArtifactoryIssuer({ url: fake.url, adminToken: 'not-the-admin-token' });
    await expect(wrong.issue(request()), 'The artifact repository did not answer: HTTP 401 while looking up the user.');
    assert.equal(fake.requests.at(-1)!.headers.authorization, 'Bearer not-the-admin-token');

    const gone = await startArtifactoryFake({ adminToken: ADMIN_TOKEN });
    await gone.close();
    const unreachable = createArtifactoryIssuer({ url: gone.url, adminToken: ADMIN_TOKEN });
    await expect(unreachable.revoke('some-id'), 'The artifact repository did not answer: no connection while revoking a token.');

    assert.equal(fake.tokens.size, 0, 'nothing was made');
    for (const text of messages) {
      assert.ok(!text.includes(ADMIN_TOKEN), 'the admin token is in no error');
      assert.ok(!text.includes('ADMINxSECRET'), 'not even part of it');
    }
  });

  test('an answer of another shape is an error; a token made without a reference token is revoked again', async () => {
    const answering = (status: number, body: string) =>
      createArtifactoryIssuer({
        url: fake.url,
        adminToken: ADMIN_TOKEN,
        fetch: async (input, init) => (String(input).includes('/users/') ? fetch(input, init) : new Response(body, { status })),
      });
    const html = answering(200, '<html>Login</html>');
    assert.equal((await failure(html.issue(request()))).message, 'The artifact repository did not answer: an unexpected answer while creating a token.');
    assert.equal((await failure(html.liveTokenIds('alice'))).message, 'The artifact repository did not answer: an unexpected answer while listing tokens.');
    const noId = answering(200, JSON.stringify({ access_token: 'x', reference_token: 'cmVmd' + 'a'.repeat(59) }));
    const error = await failure(noId.issue(request()));
    assert.equal(error.message, 'The artifact repository did not answer: an unexpected answer while creating a token.');
    assert.ok(!error.message.includes('cmVmd'), 'never the reference token');
    const badRows = answering(200, JSON.stringify({ tokens: [{ subject: 'x/users/alice' }] }));
    assert.equal((await failure(badRows.liveTokenIds('alice'))).message, 'The artifact repository did not answer: an unexpected answer while listing tokens.');
    const redirect = answering(302, '');
    assert.equal((await failure(redirect.revoke('x'))).message, 'The artifact repository did not answer: HTTP 302 while revoking a token.');

    // An Artifactory before 7.38.10 leaves the reference token out: the token is not left working.
    const old = createArtifactoryIssuer({
      url: fake.url,
      adminToken: ADMIN_TOKEN,
      fetch: (input, init) =>
        fetch(input, init?.method === 'POST' ? { ...init, body: JSON.stringify({ ...JSON.parse(String(init.body)), include_reference_token: false }) } : init),
    });
    assert.equal((await failure(old.issue(request()))).message, 'The artifact repository did not answer: an unexpected answer while creating a token.');
    assert.equal(fake.tokens.size, 0);
    assert.equal(fake.requests.at(-1)!.method, 'DELETE');
  });
});

for (const databaseKind of DATABASE_KINDS) {
  describe(`tokens with the Artifactory issuer on ${databaseKind}`, () => {
    let fixture: Fixture;
    let fake: ArtifactoryFake;
    let issuer: TokenIssuer;
    let world: World;
    const logs: string[] = [];
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const who = (name: string) => people[name]!.who;
    const create = (name: string, body: { description?: string; groups?: string[]; expiry?: number } = {}) =>
      call(world.app, who(name), 'POST', '/tokens', { description: 'CI upload', groups: ['ALPHA-artifactsWrite'], expiry: 30 * 86_400, ...body });
    const listed = async (name: string) => ((await call(world.app, who(name), 'GET', '/tokens')).json() as { tokens: { token_id: string }[] }).tokens.map((t) => t.token_id);
    const member = (name: string, groupName: string) => addMembership(world.db, groupName.split('-')[0]!, people[name]!.account.id, groupName);
    const row = async (id: string) =>
      (await world.db.query<{ revoked_by: string | null; issuer: string; secret_hash: string | null; issuer_revoked_at: Date | null }>(
        'select revoked_by, issuer, secret_hash, issuer_revoked_at from access_tokens where id = $1', [id],
      )).rows[0];

    before(async () => {
      fixture = createFixture();
      fake = await startArtifactoryFake({ adminToken: ADMIN_TOKEN, users: ['alice', 'bob', 'boss'] });
      issuer = createArtifactoryIssuer({ url: fake.url, adminToken: ADMIN_TOKEN, timeoutMs: 1500 });
      world = await createWorld(databaseKind, fixture, { portal: { supported_services: 'artifacts' }, tokenIssuer: issuer, logs });
      for (const name of ['alice', 'bob', 'dave']) people[name] = await signedIn(world, name);
      people.boss = await signedIn(world, 'boss', { roles: ['site-admin'] });
      for (const id of ['ALPHA', 'BETA']) {
        await insertUserGroup(world.db, {
          id, name: `${id} team`, description: `The ${id} group`, open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['artifacts'],
        });
      }
      await member('alice', 'ALPHA-artifactsWrite');
      await member('alice', 'BETA-artifactsRead');
      await member('bob', 'ALPHA-artifactsRead');
      await member('dave', 'ALPHA-artifactsRead');
    });
    after(async () => {
      await world.close();
      await fake.close();
      fixture.remove();
    });
    beforeEach(() => {
      fake.setDown(undefined);
    });

    test('POST /tokens creates the token at Artifactory and answers its reference token; GET /tokens lists it', async () => {
      fake.requests.length = 0;
      const response = await create('alice', { description: 'Nightly build', groups: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'] });
      assert.equal(response.statusCode, 200);
      const created = response.json() as { token_id: string; reference_token: string; issued_at: number; expiry: number; revocable: boolean; scope: string[] };
      assert.match(created.reference_token, REFERENCE);
      assert.equal(created.expiry - created.issued_at, 30 * 86_400);
      assert.deepEqual(created.scope, ['ALPHA-artifactsWrite', 'BETA-artifactsRead']);
      const atFake = fake.tokens.get(created.token_id);
      assert.ok(atFake);
      assert.equal(atFake.reference_token, created.reference_token);
      assert.equal(atFake.scope, 'applied-permissions/groups:ALPHA-artifactsWrite,BETA-artifactsRead');
      assert.equal(atFake.description, 'Nightly build');
      assert.equal(atFake.expiry - atFake.issued_at, 30 * 86_400);
      assert.equal(JSON.parse(fake.requests.find((r) => r.method === 'POST')!.body).username, 'alice');

      assert.deepEqual(await row(created.token_id), { revoked_by: null, issuer: 'artifactory', secret_hash: null, issuer_revoked_at: null });
      const list = (await call(world.app, who('alice'), 'GET', '/tokens')).json() as { tokens: Record<string, unknown>[] };
      assert.deepEqual(list.tokens.find((t) => t.token_id === created.token_id), {
        token_id: created.token_id, description: 'Nightly build', issued_at: created.issued_at, expiry: created.expiry, revocable: true,
        scope: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'],
      });
      assert.ok(!JSON.stringify(list).includes(created.reference_token), 'the secret is not listed');
      assert.ok(!logs.some((line) => line.includes(created.reference_token) || line.includes(ADMIN_TOKEN)), 'no secret in a log line');
    });

    test('a token revoked in Artifactory itself is gone from GET /tokens', async () => {
      const created = (await create('alice')).json() as { token_id: string };
      assert.ok((await listed('alice')).includes(created.token_id));
      fake.tokens.delete(created.token_id);
      assert.ok(!(await listed('alice')).includes(created.token_id));
    });

    test('DELETE /tokens/{id} revokes at Artifactory', async () => {
      const created = (await create('alice')).json() as { token_id: string };
      fake.requests.length = 0;
      const revoked = await call(world.app, who('alice'), 'DELETE', `/tokens/${created.token_id}`);
      assert.equal(revoked.statusCode, 200);
      assert.deepEqual(revoked.json(), { ok: true });
      assert.equal(fake.tokens.has(created.token_id), false);
      assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), [`DELETE /access/api/v1/tokens/${created.token_id}`]);
      assert.ok((await row(created.token_id))?.issuer_revoked_at, 'confirmed');
      assert.ok(!(await listed('alice')).includes(created.token_id));
    });

    test('a user Artifactory does not know gets the 400 on GET /tokens and on POST /tokens', async () => {
      const list = await call(world.app, who('dave'), 'GET', '/tokens');
      assert.equal(list.statusCode, 400);
      assert.deepEqual(list.json(), { error: NO_ACCOUNT, code: 400 });
      const made = await create('dave', { groups: ['ALPHA-artifactsRead'] });
      assert.equal(made.statusCode, 400);
      assert.equal((made.json() as { error: string }).error, NO_ACCOUNT);
      assert.equal(fake.tokensOf('dave').length, 0);
      const stored = await world.db.query('select id from access_tokens where account_id = $1', [people.dave!.account.id]);
      assert.equal(stored.rows.length, 0);
    });

    test('Artifactory down: creating and listing answer 503 saying so; a failed revoke changes nothing and the token stays listed', async () => {
      const created = (await create('alice')).json() as { token_id: string };
      fake.failNext(500);
      const revoke = await call(world.app, who('alice'), 'DELETE', `/tokens/${created.token_id}`);
      assert.equal(revoke.statusCode, 503);
      assert.deepEqual(revoke.json(), { error: 'The artifact repository did not answer: HTTP 500 while revoking a token.', code: 503 });
      assert.ok(fake.tokens.has(created.token_id));
      assert.deepEqual(await row(created.token_id), { revoked_by: null, issuer: 'artifactory', secret_hash: null, issuer_revoked_at: null });
      assert.ok((await listed('alice')).includes(created.token_id), 'still listed');

      fake.setDown('hang');
      const list = await call(world.app, who('alice'), 'GET', '/tokens');
      assert.equal(list.statusCode, 503);
      assert.match((list.json() as { error: string }).error, /^The artifact repository did not answer: no answer within/);
      fake.setDown(503);
      const before = fake.tokens.size;
      const made = await create('alice');
      assert.equal(made.statusCode, 503);
      assert.equal(fake.tokens.size, before);
      fake.setDown(undefined);
      assert.ok(!logs.some((line) => line.includes(ADMIN_TOKEN)), 'the admin token is in no log line');
      assert.ok(logs.some((line) => line.includes('The artifact repository did not answer')), 'the failure is logged, without the secret');
    });

    test('locking an account marks its tokens revoked; the maintenance round revokes them at Artifactory, again after a failure', async () => {
      const created = (await create('bob', { groups: ['ALPHA-artifactsRead'] })).json() as { token_id: string };
      assert.ok(fake.tokens.has(created.token_id));
      const locked = await call(world.app, who('boss'), 'POST', '/accounts/bob/lock', { comment: 'Leaked credentials' });
      assert.equal(locked.statusCode, 200);
      assert.deepEqual(await row(created.token_id), { revoked_by: 'account locked', issuer: 'artifactory', secret_hash: null, issuer_revoked_at: null });

      fake.failNext(500);
      await runTokenMaintenance(world.db, issuer, world.clock.now());
      assert.ok(fake.tokens.has(created.token_id), 'Artifactory failed: still there');
      assert.equal((await row(created.token_id))?.issuer_revoked_at, null, 'not confirmed');

      fake.setDown('drop');
      await runTokenMaintenance(world.db, issuer, world.clock.now());
      assert.equal((await row(created.token_id))?.issuer_revoked_at, null, 'unreachable: not confirmed');
      fake.setDown(undefined);

      fake.requests.length = 0;
      await runTokenMaintenance(world.db, issuer, world.clock.now());
      assert.equal(fake.tokens.has(created.token_id), false, 'revoked at Artifactory');
      assert.ok(fake.requests.some((r) => r.method === 'DELETE' && r.path === `/access/api/v1/tokens/${created.token_id}`));
      assert.ok((await row(created.token_id))?.issuer_revoked_at, 'confirmed');
      fake.requests.length = 0;
      await runTokenMaintenance(world.db, issuer, world.clock.now());
      assert.ok(!fake.requests.some((r) => r.method === 'DELETE'), 'once confirmed, not again');
    });

    test('the introspection endpoint is not served with this issuer', async () => {
      const response = await world.app.inject({
        method: 'POST',
        url: '/oauth2/introspect',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('svc:psc_x').toString('base64')}` },
        payload: 'token=cmVmdx',
      });
      assert.equal(response.statusCode, 404);
    });
  });
}
