/**
 * Artifact-repository tokens with the embedded issuer (server/docs/tokens.md): the groups a user
 * may create tokens for, every rule of the create form checked again by the server with its
 * message, listing, revoking, an administrator's view, and introspection by a platform service
 * for each reason a token stops being active. The secret is never stored, listed or logged.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { listMail } from '../src/services/mail.js';
import type { Queryable } from '../src/db/database.js';
import { answerIntrospection } from '../src/services/tokens/introspection.js';
import { createServiceCredential, rotateServiceSecret } from '../src/services/tokens/service-credentials.js';
import { runTokenMaintenance } from '../src/services/tokens/maintenance.js';
import { as, HOUR, postSignIn, type Principal, type TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { DAY, FORBIDDEN, call, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

/** Tokens shorter than 2 hours cannot be revoked here. */
const PORTAL = { supported_services: 'artifacts,jira', artifacts_token_revocable_expiry: 2 };
const RANGE = { error: 'Please enter a whole number between 1 and 180.', code: 400 };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function introspect(app: App, token: string, credential: { name: string; secret: string } | undefined) {
  return app.inject({
    method: 'POST',
    url: '/oauth2/introspect',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(credential ? { authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}` } : {}),
    },
    payload: new URLSearchParams({ token }).toString(),
  });
}

for (const databaseKind of DATABASE_KINDS) {
  describe(`tokens on ${databaseKind}`, () => {
    let world: World;
    const logs: string[] = [];
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const who = (name: string) => people[name]!.who;
    let service: { name: string; secret: string };

    const create = (name: string, body: { description?: string; groups?: string[]; expiry?: number }) =>
      call(world.app, who(name), 'POST', '/tokens', { description: 'CI upload', groups: ['ALPHA-artifactsWrite'], expiry: 30 * 86_400, ...body });
    const member = (name: string, groupName: string) => addMembership(world.db, groupName.split('-')[0]!, people[name]!.account.id, groupName);
    const active = async (token: string) => ((await introspect(world.app, token, service)).json() as { active: boolean }).active;

    before(async () => {
      // Logs collected, to show that no secret reaches a log line.
      world = await createWorld(databaseKind, fixture, { portal: PORTAL, logs });
      for (const name of ['alice', 'bob', 'carol']) people[name] = await signedIn(world, name);
      people.boss = await signedIn(world, 'boss', { roles: ['site-admin'] });
      for (const id of ['ALPHA', 'BETA']) {
        await insertUserGroup(world.db, {
          id, name: `${id} team`, description: `The ${id} group`, open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['artifacts', 'jira'],
        });
      }
      await insertUserGroup(world.db, {
        id: 'NOART', name: 'No artifacts', description: 'Uses the tracker only', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'],
      });
      await member('alice', 'ALPHA-team');
      await member('alice', 'ALPHA-artifactsWrite');
      await member('alice', 'BETA-artifactsRead');
      await member('alice', 'NOART-artifactsAdmin');
      await member('carol', 'BETA-artifactsAdmin');
      service = { name: 'artifact-proxy', secret: await createServiceCredential(world.db, 'artifact-proxy', new Date()) };
    });
    after(() => world.close());
    beforeEach(() => {
      logs.length = 0;
    });

    test('GET /tokens/groups offers each group the levels its member holds, and nothing to a user without artifact rights', async () => {
      const alice = await call(world.app, who('alice'), 'GET', '/tokens/groups');
      assert.equal(alice.statusCode, 200);
      assert.deepEqual(alice.json(), {
        rows: [
          { id: 'ALPHA', name: 'ALPHA team', levels: ['read', 'write'] },
          { id: 'BETA', name: 'BETA team', levels: ['read'] },
        ],
      });
      assert.deepEqual((await call(world.app, who('carol'), 'GET', '/tokens/groups')).json(), {
        rows: [{ id: 'BETA', name: 'BETA team', levels: ['read', 'write', 'admin'] }],
      });
      assert.deepEqual((await call(world.app, who('bob'), 'GET', '/tokens/groups')).json(), { rows: [] });
      assert.deepEqual((await call(world.app, who('bob'), 'GET', '/tokens')).json(), { tokens: [] });
    });

    test('POST /tokens refuses every bad field with the form’s message, and creates nothing', async () => {
      const cases: [string, Parameters<typeof create>[1], string, string][] = [
        ['no name', { description: '' }, 'description', 'Token name is required.'],
        ['a blank name', { description: '   ' }, 'description', 'Token name is required.'],
        ['a name over 1024', { description: 'x'.repeat(1025) }, 'description', 'Token name must be shorter than 1024 characters.'],
        ['no group', { groups: [] }, 'groups', 'Please select at least one group.'],
        ['no expiry', { expiry: 0 }, 'expiry', RANGE.error],
        ['181 days', { expiry: 181 * 86_400 }, 'expiry', RANGE.error],
        ['181 hours', { expiry: 181 * 3600 }, 'expiry', RANGE.error],
        ['half an hour', { expiry: 1800 }, 'expiry', RANGE.error],
        ['90 minutes', { expiry: 5400 }, 'expiry', RANGE.error],
        ['admin with write rights', { groups: ['ALPHA-artifactsAdmin'] }, 'groups', 'You may not create a token with ALPHA-artifactsAdmin.'],
        ['write with read rights', { groups: ['BETA-artifactsWrite'] }, 'groups', 'You may not create a token with BETA-artifactsWrite.'],
        ['a group the user is not in', { groups: ['GAMMA-artifactsRead'] }, 'groups', 'You may not create a token with GAMMA-artifactsRead.'],
        ['a group without the artifact repository', { groups: ['NOART-artifactsRead'] }, 'groups', 'You may not create a token with NOART-artifactsRead.'],
        ['not a scope', { groups: ['ALPHA-admin'] }, 'groups', 'You may not create a token with ALPHA-admin.'],
        ['one group twice', { groups: ['ALPHA-artifactsRead', 'ALPHA-artifactsWrite'] }, 'groups', 'Choose one access level for ALPHA.'],
      ];
      for (const [what, body, field, message] of cases) {
        const response = await create('alice', body);
        assert.equal(response.statusCode, 400, what);
        const answer = response.json() as { error: string; fields: Record<string, string> };
        assert.equal(answer.fields[field], message, what);
      }
      const stored = await world.db.query('select id from access_tokens where account_id = $1', [people.alice!.account.id]);
      assert.equal(stored.rows.length, 0);
      const schema = await create('alice', { expiry: 1.5 });
      assert.equal(schema.statusCode, 400);
      // The expiry is digits only (spec section 5): in JSON, a number. Text is not turned into one,
      // with a space (the form's ' 5') or without, nor is a number JSON makes infinite.
      for (const expiry of [' 432000', '432000', '432000 ', 'Infinity']) {
        const text = await call(world.app, who('alice'), 'POST', '/tokens', { description: 'CI upload', groups: ['ALPHA-artifactsWrite'], expiry });
        assert.deepEqual(text.json(), { error: 'Expiry: This value is not valid.', code: 400, fields: { expiry: 'This value is not valid.' } }, JSON.stringify(expiry));
      }
      const huge = await world.app.inject({
        method: 'POST',
        url: '/accounts/rest/tokens',
        headers: { ...as(who('alice')), 'content-type': 'application/json' },
        payload: '{"description":"CI upload","groups":["ALPHA-artifactsWrite"],"expiry":1e400}',
      });
      assert.equal(huge.statusCode, 400, huge.body);
      assert.equal((await world.db.query('select id from access_tokens where account_id = $1', [people.alice!.account.id])).rows.length, 0, 'nothing stored');
    });

    test('a created token is shown once, stored only as a hash, listed without its secret, and active for a service', async () => {
      const response = await create('alice', { description: 'Nightly build', groups: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'], expiry: 30 * 86_400 });
      assert.equal(response.statusCode, 200);
      const created = response.json() as { token_id: string; reference_token: string; issued_at: number; expiry: number; revocable: boolean; scope: string[] };
      assert.match(created.reference_token, /^ptk_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.expiry - created.issued_at, 30 * 86_400);
      assert.equal(created.revocable, true);
      assert.deepEqual(created.scope, ['ALPHA-artifactsWrite', 'BETA-artifactsRead']);

      const row = await world.db.query<Record<string, unknown>>('select * from access_tokens where id = $1', [created.token_id]);
      assert.equal(row.rows[0]!.secret_hash, sha256(created.reference_token));
      assert.ok(!JSON.stringify(row.rows[0]).includes(created.reference_token.slice(4)), 'the secret is not stored');

      const listed = (await call(world.app, who('alice'), 'GET', '/tokens')).json() as { tokens: Record<string, unknown>[] };
      assert.deepEqual(listed.tokens[0], {
        token_id: created.token_id, description: 'Nightly build', issued_at: created.issued_at, expiry: created.expiry, revocable: true,
        scope: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'],
      });
      const answer = (await introspect(world.app, created.reference_token, service)).json() as Record<string, unknown>;
      assert.deepEqual(answer, {
        active: true, scope: 'ALPHA-artifactsWrite BETA-artifactsRead', client_id: 'artifact-proxy', username: 'alice', sub: 'alice',
        token_type: 'Bearer', exp: created.expiry, iat: created.issued_at, jti: created.token_id,
      });
      assert.ok(!logs.some((line) => line.includes(created.reference_token.slice(4))), 'the secret is in no log line');
    });

    test('introspection refuses unknown credentials and answers inactive alike for unknown, malformed and revoked tokens', async () => {
      const token = ((await create('alice', {})).json() as { reference_token: string; token_id: string });
      const none = await introspect(world.app, token.reference_token, undefined);
      assert.equal(none.statusCode, 401);
      assert.equal(none.headers['www-authenticate'], 'Basic realm="token introspection", charset="UTF-8"');
      assert.equal((await introspect(world.app, token.reference_token, { name: 'artifact-proxy', secret: 'psc_wrong' })).statusCode, 401);
      assert.equal((await introspect(world.app, token.reference_token, { name: 'nobody', secret: service.secret })).statusCode, 401);
      const json = await world.app.inject({
        method: 'POST', url: '/oauth2/introspect', payload: { token: token.reference_token },
        headers: { authorization: `Basic ${Buffer.from(`${service.name}:${service.secret}`).toString('base64')}` },
      });
      assert.equal(json.statusCode, 400, 'RFC 7662 asks for a form-encoded body');

      for (const unknown of ['ptk_' + 'A'.repeat(43), 'not-a-token', '', 'ptk_' + 'x'.repeat(500)]) {
        assert.deepEqual((await introspect(world.app, unknown, service)).json(), { active: false }, unknown);
      }
      assert.equal(await active(token.reference_token), true);
      const revoked = await call(world.app, who('alice'), 'DELETE', `/tokens/${token.token_id}`);
      assert.equal(revoked.statusCode, 200);
      assert.deepEqual(revoked.json(), { ok: true });
      assert.deepEqual((await introspect(world.app, token.reference_token, service)).json(), { active: false });
      const listed = (await call(world.app, who('alice'), 'GET', '/tokens')).json() as { tokens: { token_id: string }[] };
      assert.ok(!listed.tokens.some((t) => t.token_id === token.token_id), 'a revoked token is gone from the list');
    });

    test('introspection asks the database in two rounds: the token beside the credential, then the groups beside the memberships', async () => {
      const token = (await create('alice', {})).json() as { reference_token: string };
      // Each query's round: one more than the highest round of those finished before it started.
      let finishedRound = 0;
      const rounds: { round: number; sql: string }[] = [];
      const counted: Queryable = {
        exec: (sql) => world.db.exec(sql),
        async query(sql, params, options) {
          const round = finishedRound + 1;
          rounds.push({ round, sql: sql.replace(/\s+/g, ' ').slice(0, 40) });
          const result = await world.db.query(sql, params, options);
          finishedRound = Math.max(finishedRound, round);
          return result as never;
        },
      };
      const basic = { name: service.name, secret: service.secret };
      const answer = await answerIntrospection(counted, basic, token.reference_token, new Date());
      assert.equal(typeof answer === 'object' && answer.active, true);
      assert.deepEqual(rounds.map((r) => r.round), [1, 1, 2, 2], JSON.stringify(rounds));

      // An unknown service costs the credential's and the token's lookups, none of the groups'.
      rounds.length = 0;
      finishedRound = 0;
      assert.equal(await answerIntrospection(counted, { name: 'nobody', secret: 'x' }, token.reference_token, new Date()), 'unauthenticated');
      assert.deepEqual(rounds.map((r) => r.round), [1, 1], JSON.stringify(rounds));
      rounds.length = 0;
      finishedRound = 0;
      assert.equal(await answerIntrospection(counted, basic, undefined, new Date()), 'no token');
      assert.deepEqual(rounds.map((r) => r.round), [1], JSON.stringify(rounds));
    });

    test('a rotated service secret replaces the old one at once', async () => {
      const token = ((await create('alice', {})).json() as { reference_token: string });
      const rotated = await rotateServiceSecret(world.db, 'artifact-proxy', new Date());
      assert.equal((await introspect(world.app, token.reference_token, service)).statusCode, 401);
      service = { name: 'artifact-proxy', secret: rotated };
      assert.equal(await active(token.reference_token), true);
    });

    test("revoking: another's token and an unknown one are 404; a token shorter than the threshold is refused with 409", async () => {
      const mine = ((await create('alice', {})).json() as { token_id: string });
      const other = await call(world.app, who('carol'), 'DELETE', `/tokens/${mine.token_id}`);
      assert.equal(other.statusCode, 404);
      assert.deepEqual(other.json(), { error: 'Token not found.', code: 404 });
      assert.equal((await call(world.app, who('alice'), 'DELETE', '/tokens/no-such-token')).statusCode, 404);

      const twoHours = (await create('carol', { groups: ['BETA-artifactsAdmin'], expiry: 2 * 3600 })).json() as { token_id: string; revocable: boolean };
      assert.equal(twoHours.revocable, true, 'two hours reach the threshold of 2 hours');
      const oneHour = (await create('carol', { groups: ['BETA-artifactsAdmin'], expiry: 3600 })).json() as { token_id: string; revocable: boolean };
      assert.equal(oneHour.revocable, false);
      const refused = await call(world.app, who('carol'), 'DELETE', `/tokens/${oneHour.token_id}`);
      assert.equal(refused.statusCode, 409);
      assert.deepEqual(refused.json(), {
        error: 'This token cannot be revoked: it was issued for less than 2 hours. It stops working when it expires.',
        code: 409,
      });
      const row = await world.db.query<{ revoked_at: Date | null }>('select revoked_at from access_tokens where id = $1', [oneHour.token_id]);
      assert.equal(row.rows[0]!.revoked_at, null);
      assert.equal((await call(world.app, who('carol'), 'DELETE', `/tokens/${twoHours.token_id}`)).statusCode, 200);
    });

    test('after an account is locked or closed, or no longer holds the rights, its tokens are inactive', async () => {
      const alice = people.alice!;
      const token = ((await create('alice', { groups: ['ALPHA-artifactsWrite', 'BETA-artifactsRead'] })).json() as { reference_token: string; token_id: string });
      // Leaving BETA drops that scope; holding only Read in ALPHA drops the Write one: nothing left.
      await world.db.query("delete from group_memberships where account_id = $1 and group_name = 'BETA-artifactsRead'", [alice.account.id]);
      assert.equal(((await introspect(world.app, token.reference_token, service)).json() as { scope: string }).scope, 'ALPHA-artifactsWrite');
      await world.db.query("update group_memberships set group_name = 'ALPHA-artifactsRead' where account_id = $1 and group_name = 'ALPHA-artifactsWrite'", [alice.account.id]);
      assert.equal(await active(token.reference_token), false);
      await world.db.query("update group_memberships set group_name = 'ALPHA-artifactsWrite' where account_id = $1 and group_name = 'ALPHA-artifactsRead'", [alice.account.id]);
      await member('alice', 'BETA-artifactsRead');
      assert.equal(await active(token.reference_token), true, 'given back, the rights make it active again');

      // Due for renewal: inactive until renewed.
      await world.db.query('update accounts set last_certified = $2 where id = $1', [alice.account.id, new Date(world.clock.now().getTime() - 400 * DAY)]);
      assert.equal(await active(token.reference_token), false);
      await world.db.query('update accounts set last_certified = $2 where id = $1', [alice.account.id, world.clock.now()]);
      assert.equal(await active(token.reference_token), true);

      // Expired.
      world.clock.advance(31 * DAY);
      assert.equal(await active(token.reference_token), false);
      world.clock.advance(-31 * DAY);
      assert.equal(await active(token.reference_token), true);
    });

    test("an administrator sees an account's tokens, revokes one whatever its lifetime, and the history says so", async () => {
      const carol = people.carol!;
      const token = ((await create('carol', { groups: ['BETA-artifactsRead'], expiry: 3600 })).json() as { token_id: string; reference_token: string });
      assert.equal((await call(world.app, who('alice'), 'GET', '/accounts/carol/tokens')).statusCode, 403);
      assert.deepEqual((await call(world.app, who('alice'), 'GET', '/accounts/carol/tokens')).json(), FORBIDDEN);
      const listed = await call(world.app, who('boss'), 'GET', '/accounts/carol/tokens');
      assert.equal(listed.statusCode, 200);
      const tokens = (listed.json() as { tokens: { token_id: string }[] }).tokens;
      assert.ok(tokens.some((t) => t.token_id === token.token_id));
      assert.ok(!listed.body.includes(token.reference_token.slice(4)));
      assert.equal((await call(world.app, who('boss'), 'GET', '/accounts/nobody/tokens')).statusCode, 404);
      assert.equal((await call(world.app, who('boss'), 'DELETE', `/accounts/alice/tokens/${token.token_id}`)).statusCode, 404, 'the token is not alice’s');

      const revoked = await call(world.app, who('boss'), 'DELETE', `/accounts/carol/tokens/${token.token_id}`);
      assert.equal(revoked.statusCode, 200);
      assert.equal(await active(token.reference_token), false);
      const history = await world.db.query<{ action: string; comment: string; username: string }>(
        'select action, comment, username from account_updates where account_id = $1 order by id desc limit 1', [carol.account.id],
      );
      assert.deepEqual(history.rows[0], { action: 'Token revoked', comment: "Token 'CI upload' revoked by an account administrator.", username: 'boss' });
      const everything = await world.db.query('select * from account_updates where account_id = $1', [carol.account.id]);
      assert.ok(!JSON.stringify(everything.rows).includes(token.reference_token.slice(4)), 'the secret is nowhere in the history');
      assert.ok(!logs.some((line) => line.includes(token.reference_token.slice(4))), 'nor in any log line');
    });

    test('locking an account revokes its tokens in the same change, and the history counts them', async () => {
      const bobToken = await (async () => {
        await member('bob', 'ALPHA-artifactsRead');
        return (await create('bob', { groups: ['ALPHA-artifactsRead'] })).json() as { reference_token: string; token_id: string };
      })();
      assert.equal(await active(bobToken.reference_token), true);
      const locked = await call(world.app, who('boss'), 'POST', '/accounts/bob/lock', { comment: 'Leaked credentials' });
      assert.equal(locked.statusCode, 200);
      const row = await world.db.query<{ revoked_by: string }>('select revoked_by from access_tokens where id = $1', [bobToken.token_id]);
      assert.equal(row.rows[0]!.revoked_by, 'account locked');
      const history = await world.db.query<{ action: string; comment: string }>(
        "select action, comment from account_updates where account_id = $1 and action = 'Token revoked'", [people.bob!.account.id],
      );
      assert.deepEqual(history.rows, [{ action: 'Token revoked', comment: '1 token revoked: the account was locked.' }]);
      await call(world.app, who('boss'), 'POST', '/accounts/bob/unlock', { comment: 'Rotated' });
      assert.equal(await active(bobToken.reference_token), false, 'unlocking does not bring a revoked token back');
    });

    test('locked by failed sign-ins, an account keeps its tokens but they are inactive until it is unlocked', async () => {
      const dave = await signedIn(world, 'dave');
      people.dave = dave;
      await member('dave', 'ALPHA-artifactsRead');
      const token = (await create('dave', { groups: ['ALPHA-artifactsRead'] })).json() as { reference_token: string; token_id: string };
      assert.equal(await active(token.reference_token), true);
      let answer = 0;
      for (let attempt = 0; attempt < 10 && answer !== 423; attempt += 1) answer = (await postSignIn(world.app, 'dave', 'not-the-token')).statusCode;
      assert.equal(answer, 423, 'the account is locked by the failures');
      const row = await world.db.query<{ revoked_at: Date | null }>('select revoked_at from access_tokens where id = $1', [token.token_id]);
      assert.equal(row.rows[0]!.revoked_at, null, 'a lock by failed sign-ins revokes nothing (server/docs/tokens.md)');
      assert.deepEqual((await introspect(world.app, token.reference_token, service)).json(), { active: false });
      assert.equal((await call(world.app, who('boss'), 'POST', '/accounts/dave/unlock', { comment: 'Forgot the token' })).statusCode, 200);
      assert.equal(await active(token.reference_token), true, "unlocked, the account's token works again");
    });

    test('the owner is mailed once, 7 days before a token expires', async () => {
      const token = ((await create('carol', { description: 'Release bot', groups: ['BETA-artifactsRead'], expiry: 10 * 86_400 })).json() as { token_id: string });
      assert.equal(await runTokenMaintenance(world.db, world.app.tokenIssuer, world.clock.now()), 0);
      world.clock.advance(3 * DAY + HOUR);
      assert.equal(await runTokenMaintenance(world.db, world.app.tokenIssuer, world.clock.now()), 1);
      assert.equal(await runTokenMaintenance(world.db, world.app.tokenIssuer, world.clock.now()), 0, 'once per token');
      world.clock.advance(-(3 * DAY + HOUR));
      const mails = await listMail(world.db, people.carol!.account.email);
      const notice = mails.find((mail) => mail.subject === "Your token 'Release bot' expires in 7 days");
      assert.ok(notice, `mails: ${mails.map((m) => m.subject).join(', ')}`);
      assert.match(notice.text, /Release bot/);
      await call(world.app, who('carol'), 'DELETE', `/tokens/${token.token_id}`);
    });

    test('closing an account revokes its tokens too, and introspection answers inactive', async () => {
      const token = (await create('carol', { groups: ['BETA-artifactsRead'] })).json() as { reference_token: string; token_id: string };
      assert.equal(await active(token.reference_token), true);
      const closed = await call(world.app, who('boss'), 'POST', '/requests/close', { username: 'carol', reason: 'Left the company' });
      assert.equal(closed.statusCode, 200, closed.body);
      assert.equal(await active(token.reference_token), false);
      const row = await world.db.query<{ revoked_by: string }>('select revoked_by from access_tokens where id = $1', [token.token_id]);
      assert.equal(row.rows[0]!.revoked_by, 'account closed');
    });
  });
}

describe('tokens without the artifact repository', () => {
  let world: World;
  before(async () => {
    world = await createWorld('pglite', fixture, { portal: { supported_services: 'jira' } });
  });
  after(() => world.close());

  test('every token call answers 404 as if it were not there', async () => {
    const { who } = await signedIn(world, 'dana');
    for (const [method, path] of [['GET', '/tokens'], ['GET', '/tokens/groups'], ['POST', '/tokens'], ['DELETE', '/tokens/x']] as const) {
      const response = await call(world.app, who, method, path, method === 'POST' ? { description: 'x', groups: [], expiry: 3600 } : undefined);
      assert.equal(response.statusCode, 404, `${method} ${path}`);
      assert.deepEqual(response.json(), { error: 'The artifact repository is not available on this platform.', code: 404 });
    }
  });
});
