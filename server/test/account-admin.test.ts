/**
 * The account administration (server/docs/adjudication.md, "Accounts"): the account search,
 * lock, unlock and close with their history, sessions, requests and mail, and the history CSV,
 * on PGlite (and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Queryable } from '../src/db/database.js';
import { escapeLikePattern } from '../src/repositories/account-admin.js';
import { addAccountUpdate, type PlatformRole } from '../src/repositories/accounts.js';
import { accountFailureKey } from '../src/repositories/login-failures.js';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { csvCell, historyCsv, historyFileName, searchWords } from '../src/services/account-admin.js';
import { createMailWorker, smtpTransport } from '../src/services/mail-worker.js';
import { API, MINUTE, as, createAccount, postSignIn, signIn, type Principal, type TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { startSmtpCatcher } from './mail-helpers.js';
import { FORBIDDEN, NOT_FOUND, call, count, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const NOT_SIGNED_IN = { error: 'Not signed in', code: 401 };
const OWN_ACCOUNT = { error: 'You cannot lock or close your own account.', code: 403 };
const SEARCH_TERM_REQUIRED = { error: 'Please enter a search term.', code: 400, fields: { term: 'Please enter a search term.' } };
const fieldsError = (fields: Record<string, string>, code = 400) => ({ error: Object.values(fields)[0], code, fields });
const conflict = (error: string) => ({ error, code: 409 });

describe('account administration helpers', () => {
  test('a search term: trimmed, split on white space, at most 4 words', () => {
    assert.deepEqual(searchWords('  Jane   Doe\tagency '), ['Jane', 'Doe', 'agency']);
    assert.deepEqual(searchWords('a b c d e f'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(searchWords('   '), []);
  });

  test('LIKE wildcards and the escape character are escaped', () => {
    assert.equal(escapeLikePattern('50%_off\\now'), '50\\%\\_off\\\\now');
    assert.equal(escapeLikePattern('plain.name@x'), 'plain.name@x');
  });

  test('CSV cells: RFC 4180 quoting and the formula guard', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(''), '');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-1'), "'-1");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tx'), "'\tx");
    assert.equal(csvCell('\rx'), '"\'\rx"');
    assert.equal(csvCell('=HYPERLINK("http://x.test","go")'), '"\'=HYPERLINK(""http://x.test"",""go"")"');
    assert.equal(csvCell('a=b'), 'a=b', 'only a leading character counts');
  });

  test('the history: header first, CRLF line ends, an entry without an action has its comment as what', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    assert.equal(
      historyCsv([
        { username: 'system', created: at, action: '', comment: 'Locked after 5 failed sign-in attempts.' },
        { username: 'helpdesk', created: at, action: 'Unlocked', comment: '' },
      ]),
      'who,when,what,why\r\n' +
        'system,2026-01-02T03:04:05.000Z,Locked after 5 failed sign-in attempts.,\r\n' +
        'helpdesk,2026-01-02T03:04:05.000Z,Unlocked,\r\n',
    );
    assert.equal(historyCsv([]), 'who,when,what,why\r\n');
    assert.equal(historyFileName('jane.doe'), 'jane.doe-history.csv');
    assert.equal(historyFileName('odd"name;x'), 'odd_name_x-history.csv');
  });
});

interface Person {
  username: string;
  first_name: string | null;
  last_name: string | null;
  email?: string;
  active?: boolean;
  closed?: boolean;
}

/** Accounts in one insert (no roles, no token); returns their ids in order. */
async function insertPeople(db: Queryable, people: readonly Person[]): Promise<number[]> {
  const params: unknown[] = [];
  const values = people.map((p) => {
    params.push(p.username, p.email ?? `${p.username}@example.test`, p.first_name, p.last_name, p.active ?? true, p.closed ?? false);
    const n = params.length;
    return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
  });
  const { rows } = await db.query<{ id: string | number }>(
    `insert into accounts (username, email, first_name, last_name, active, closed) values ${values.join(', ')} returning id`,
    params,
  );
  return rows.map((r) => Number(r.id));
}

for (const kind of DATABASE_KINDS) {
  describe(`POST /accounts/search on ${kind}`, () => {
    let world: World;
    let searcher: Principal;
    before(async () => {
      world = await createWorld(kind, fixture);
      // The searcher's own account: 'Test Person', searcher@example.test; the terms below avoid those words.
      searcher = (await signedIn(world, 'searcher', { roles: ['help-desk'] })).who;
    });
    after(async () => world.close());

    interface Row {
      username: string;
      first_name: string;
      last_name: string;
      email: string;
      active: boolean;
      closed: boolean;
    }
    async function search(body: Record<string, unknown>, who: Principal = searcher): Promise<{ rows: Row[]; has_more_results: boolean }> {
      const response = await call(world.app, who, 'POST', '/accounts/search', body);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }
    const usernames = async (body: Record<string, unknown>) => (await search(body)).rows.map((r) => r.username);

    test('each field matches at its start (starts_with true, also when absent) or anywhere (false)', async () => {
      await insertPeople(world.db, [
        { username: 'quxun.start', first_name: 'Ann', last_name: 'Alpha' },
        { username: 'mid.quxun', first_name: 'Ann', last_name: 'Beta' },
        { username: 'fn1', first_name: 'Quxfnstart', last_name: 'Alpha' },
        { username: 'fn2', first_name: 'Midquxfn', last_name: 'Beta' },
        { username: 'ln1', first_name: 'Ann', last_name: 'Quxlnstart' },
        { username: 'ln2', first_name: 'Ann', last_name: 'Midquxln' },
        { username: 'em1', first_name: 'Ann', last_name: 'Alpha', email: 'quxem.start@agency.test' },
        { username: 'em2', first_name: 'Ann', last_name: 'Beta', email: 'mid.quxem@agency.test' },
      ]);
      const cases: [string, string[], string[]][] = [
        ['quxun', ['quxun.start'], ['quxun.start', 'mid.quxun']],
        ['quxfn', ['fn1'], ['fn1', 'fn2']],
        ['quxln', ['ln1'], ['ln2', 'ln1']],
        ['quxem', ['em1'], ['em1', 'em2']],
      ];
      for (const [term, prefix, anywhere] of cases) {
        assert.deepEqual(await usernames({ term, starts_with: true }), prefix, `${term} at the start`);
        assert.deepEqual(await usernames({ term }), prefix, `${term}, starts_with absent`);
        assert.deepEqual(await usernames({ term, starts_with: false }), anywhere, `${term} anywhere`);
      }
      // The whole row, as the table shows it.
      assert.deepEqual(await search({ term: 'quxem.start@agency.test' }), {
        rows: [{ username: 'em1', first_name: 'Ann', last_name: 'Alpha', email: 'quxem.start@agency.test', active: true, closed: false }],
        has_more_results: false,
      });
    });

    test('every word must match some field; any letter case; spaces around and between words; a 5th word is ignored', async () => {
      await insertPeople(world.db, [
        { username: 'alice.smith', first_name: 'Alice', last_name: 'Smith', email: 'Alice.Smith@Agency.TEST' },
        { username: 'alice.jones', first_name: 'Alice', last_name: 'Jones' },
        { username: 'bob.smith', first_name: 'Bob', last_name: 'Smith', active: false },
        { username: 'zed.closed', first_name: 'Zed', last_name: 'Smith', active: false, closed: true },
      ]);
      assert.deepEqual(await usernames({ term: 'alice smith' }), ['alice.smith']);
      assert.deepEqual(await usernames({ term: '  ALICE   smi  ' }), ['alice.smith']);
      assert.deepEqual(await usernames({ term: 'ali' }), ['alice.jones', 'alice.smith']);
      assert.deepEqual(await usernames({ term: 'alice bob' }), []);
      assert.deepEqual(await usernames({ term: 'alice.smith@agency.test' }), ['alice.smith']);
      assert.deepEqual(await usernames({ term: 'SMITH' }), ['alice.smith', 'bob.smith', 'zed.closed']);
      assert.deepEqual(await usernames({ term: 'smith alice smith alice nobody' }), ['alice.smith'], 'only the first 4 words count');
      const { rows } = await search({ term: 'smith' });
      assert.deepEqual(
        rows.map((r) => [r.username, r.active, r.closed]),
        [
          ['alice.smith', true, false],
          ['bob.smith', false, false],
          ['zed.closed', false, true],
        ],
      );
    });

    test('%, _ and \\ in a term match themselves only', async () => {
      await insertPeople(world.db, [
        { username: 'under_score', first_name: 'Uma', last_name: 'Wild' },
        { username: 'underxscore', first_name: 'Uma', last_name: 'Wild' },
      ]);
      for (const starts_with of [true, false]) {
        assert.deepEqual(await usernames({ term: '%', starts_with }), [], 'no value has a %');
        assert.deepEqual(await usernames({ term: '\\', starts_with }), [], 'no value has a \\');
      }
      assert.deepEqual(await usernames({ term: 'under_' }), ['under_score']);
      assert.deepEqual(await usernames({ term: 'r_s', starts_with: false }), ['under_score']);
      assert.deepEqual(await usernames({ term: 'under%score' }), []);

      await insertPeople(world.db, [{ username: 'percent', first_name: '50%off', last_name: 'Back\\slash' }]);
      assert.deepEqual(await usernames({ term: '%', starts_with: false }), ['percent']);
      assert.deepEqual(await usernames({ term: '%' }), [], 'no value starts with %');
      assert.deepEqual(await usernames({ term: '50%' }), ['percent']);
      assert.deepEqual(await usernames({ term: '\\', starts_with: false }), ['percent']);
      assert.deepEqual(await usernames({ term: 'back\\s' }), ['percent']);
    });

    test('pages of 30 by default (max_results 1 to 100) from start_index, with has_more_results', async () => {
      await insertPeople(
        world.db,
        Array.from({ length: 65 }, (_, i) => ({ username: `page${String(i).padStart(2, '0')}`, first_name: `P${String(i).padStart(2, '0')}`, last_name: 'Pagetest' })),
      );
      const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `page${String(from + i).padStart(2, '0')}`);
      const first = await search({ term: 'pagetest' });
      assert.deepEqual(first.rows.map((r) => r.username), names(0, 30));
      assert.equal(first.has_more_results, true);
      const second = await search({ term: 'pagetest', start_index: 30 });
      assert.deepEqual(second.rows.map((r) => r.username), names(30, 60));
      assert.equal(second.has_more_results, true);
      const last = await search({ term: 'pagetest', start_index: 60 });
      assert.deepEqual(last.rows.map((r) => r.username), names(60, 65));
      assert.equal(last.has_more_results, false);
      const exact = await search({ term: 'pagetest', start_index: 35, max_results: 30 });
      assert.deepEqual(exact.rows.map((r) => r.username), names(35, 65));
      assert.equal(exact.has_more_results, false, 'the page ends exactly at the last row');
      const all = await search({ term: 'pagetest', max_results: 100 });
      assert.equal(all.rows.length, 65);
      assert.equal(all.has_more_results, false);
      const one = await search({ term: 'pagetest', max_results: 1, start_index: 64 });
      assert.deepEqual(one, { rows: [{ username: 'page64', first_name: 'P64', last_name: 'Pagetest', email: 'page64@example.test', active: true, closed: false }], has_more_results: false });
      assert.deepEqual(await search({ term: 'pagetest', start_index: 65 }), { rows: [], has_more_results: false });

      for (const body of [
        { term: 'pagetest', max_results: 0 },
        { term: 'pagetest', max_results: 101 },
        { term: 'pagetest', start_index: -1 },
        { term: 'pagetest', start_index: 1.5 },
        { term: 'pagetest', unknown: true },
      ]) {
        const response = await call(world.app, searcher, 'POST', '/accounts/search', body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
      }
    });

    test('ordered by last name, first name, username, in any letter case', async () => {
      await insertPeople(world.db, [
        { username: 'ord.z', first_name: 'Zed', last_name: 'baker', email: 'z@ordertest.test' },
        { username: 'ord.a', first_name: 'Amy', last_name: 'Adams', email: 'a@ordertest.test' },
        { username: 'ORD.C', first_name: 'amy', last_name: 'Baker', email: 'c@ordertest.test' },
        { username: 'ord.b', first_name: 'Amy', last_name: 'BAKER', email: 'b@ordertest.test' },
        { username: 'ord.n', first_name: null, last_name: null, email: 'n@ordertest.test' },
      ]);
      assert.deepEqual(await usernames({ term: 'ordertest', starts_with: false }), ['ord.a', 'ord.b', 'ORD.C', 'ord.z', 'ord.n']);
      const { rows } = await search({ term: 'ord.n' });
      assert.deepEqual(rows, [{ username: 'ord.n', first_name: '', last_name: '', email: 'n@ordertest.test', active: true, closed: false }]);
    });

    test('group_id: only members of that user group (any letter case); blank is no filter', async () => {
      const [inA, inB, outside] = await insertPeople(world.db, [
        { username: 'grp.one', first_name: 'Gina', last_name: 'Grpmember' },
        { username: 'grp.two', first_name: 'Gus', last_name: 'Grpmember' },
        { username: 'grp.out', first_name: 'Gil', last_name: 'Grpmember' },
      ]);
      assert.ok(inA && inB && outside);
      for (const id of ['SRCH', 'OTHER']) {
        await insertUserGroup(world.db, { id, name: id, description: id, open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [] });
      }
      await addMembership(world.db, 'SRCH', inA, 'SRCH-user');
      await addMembership(world.db, 'SRCH', inA, 'SRCH-notification-low');
      await addMembership(world.db, 'SRCH', inB, 'SRCH-admin');
      await addMembership(world.db, 'OTHER', outside, 'OTHER-user');
      assert.deepEqual(await usernames({ term: 'grpmember', group_id: 'SRCH' }), ['grp.one', 'grp.two'], 'one row per account');
      assert.deepEqual(await usernames({ term: 'grpmember', group_id: 'srch' }), ['grp.one', 'grp.two']);
      assert.deepEqual(await usernames({ term: 'gus', group_id: 'SRCH' }), ['grp.two']);
      assert.deepEqual(await usernames({ term: 'grpmember', group_id: 'OTHER' }), ['grp.out']);
      assert.deepEqual(await usernames({ term: 'grpmember', group_id: 'NOPE' }), []);
      assert.deepEqual(await usernames({ term: 'grpmember', group_id: ' ' }), ['grp.out', 'grp.one', 'grp.two']);
    });

    test('an empty term: 400 with the field; a term of spaces is empty', async () => {
      for (const body of [{ term: '' }, { term: '   ' }, {}, { starts_with: false, group_id: 'SRCH' }]) {
        const response = await call(world.app, searcher, 'POST', '/accounts/search', body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.deepEqual(response.json(), SEARCH_TERM_REQUIRED);
      }
    });

    test('a term over 255 characters: 400 in words, with the field, not the schema text', async () => {
      const response = await call(world.app, searcher, 'POST', '/accounts/search', { term: 'a'.repeat(300), starts_with: true });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), {
        error: 'Search term: Must be less than 255 characters (300/255)',
        code: 400,
        fields: { term: 'Must be less than 255 characters (300/255)' },
      });
    });

    test('needs SEARCH_ACCOUNTS: a user is refused, an adjudicator may search', async () => {
      const { who: user } = await signedIn(world, 'plain.searcher');
      const refused = await call(world.app, user, 'POST', '/accounts/search', { term: 'alice' });
      assert.equal(refused.statusCode, 403);
      assert.deepEqual(refused.json(), FORBIDDEN);
      const { who: adjudicator } = await signedIn(world, 'adj.searcher', { roles: ['adjudicator'] });
      const allowed = await search({ term: 'alice smith' }, adjudicator);
      assert.deepEqual(allowed.rows.map((r) => r.username), ['alice.smith']);
    });
  });

  describe(`lock, unlock and close on ${kind}`, () => {
    let world: World;
    let helpdesk: { account: TestAccount; who: Principal };
    before(async () => {
      world = await createWorld(kind, fixture, { portal: { email_domain: 'portal.test' } });
      helpdesk = await signedIn(world, 'helpdesk', { roles: ['help-desk'] });
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    /** An account of role user, signed in (its session is one the change must end). */
    async function target(options: { roles?: PlatformRole[] } = {}): Promise<{ account: TestAccount; who: Principal }> {
      return signedIn(world, unique('target'), options);
    }
    const post = (path: string, body: unknown, who: Principal = helpdesk.who) => call(world.app, who, 'POST', path, body);
    const current = (who: Principal) => world.app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(who) });

    interface StateRow {
      active: boolean;
      closed: boolean;
    }
    async function stateOf(accountId: number): Promise<StateRow> {
      const { rows } = await world.db.query<StateRow>('select active, closed from accounts where id = $1', [accountId]);
      assert.ok(rows[0]);
      return rows[0];
    }
    interface HistoryRow {
      action: string;
      comment: string;
      username: string;
      active: boolean;
      created: string;
    }
    async function historyOf(accountId: number): Promise<HistoryRow[]> {
      const { rows } = await world.db.query<{ action: string; comment: string; username: string; active: boolean; created_at: Date | string }>(
        'select action, comment, username, active, created_at from account_updates where account_id = $1 order by created_at, id',
        [accountId],
      );
      return rows.map((r) => ({ action: r.action, comment: r.comment, username: r.username, active: r.active, created: new Date(r.created_at).toISOString() }));
    }
    const mailsTo = async (address: string) =>
      (await world.db.query<{ subject: string; body: string }>('select subject, body from mail_outbox where lower(to_address) = lower($1) order by id', [address])).rows;
    const sessionsOf = (accountId: number) => count(world.db, 'select 1 from sessions where account_id = $1', [accountId]);
    /** What the account administration screen reads (GET /accounts/{username} with VIEW_ACCOUNT). */
    async function accountAsAdmin(username: string): Promise<Record<string, unknown>> {
      const response = await call(world.app, helpdesk.who, 'GET', `/accounts/${username}`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    interface RequestRow {
      kind: string;
      status: string;
      adjudicator: string | null;
      updated: string;
      updates: { status: string; username: string; comment: string }[];
    }
    async function insertPending(accountId: number, username: string, kind: string, status = 'pending'): Promise<number> {
      const at = new Date(world.clock.now().getTime() - 60 * MINUTE);
      const { rows } = await world.db.query<{ id: string | number }>(
        `insert into requests (kind, status, account_id, username, email, reason, created_at, updated_at)
         values ($1, $2, $3, $4, $5, 'Please', $6, $6) returning id`,
        [kind, status, accountId, username, `${username}@example.test`, at],
      );
      const id = Number(rows[0]?.id);
      await world.db.query("insert into request_updates (request_id, status, username, comment, created_at) values ($1, $2, $3, 'Request submitted.', $4)", [
        id,
        status,
        username,
        at,
      ]);
      return id;
    }
    async function requestRow(id: number): Promise<RequestRow> {
      const { rows } = await world.db.query<{ kind: string; status: string; adjudicator: string | null; updated_at: Date | string }>(
        'select kind, status, adjudicator, updated_at from requests where id = $1',
        [id],
      );
      const row = rows[0];
      assert.ok(row);
      const updates = await world.db.query<{ status: string; username: string; comment: string }>(
        'select status, username, comment from request_updates where request_id = $1 order by created_at, id',
        [id],
      );
      return { kind: row.kind, status: row.status, adjudicator: row.adjudicator, updated: new Date(row.updated_at).toISOString(), updates: updates.rows };
    }

    describe('POST /accounts/{username}/lock', () => {
      test('an active account: inactive, its session ended, the history and a mail; the answer is the Account', async () => {
        world.clock.advance(MINUTE);
        const now = world.clock.now().toISOString();
        const { account, who } = await target();
        assert.equal((await current(who)).statusCode, 200, 'signed in before');

        const response = await post(`/accounts/${account.username}/lock`, { comment: '  Suspicious activity  ' });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json<Record<string, unknown>>();
        assert.equal(body.username, account.username);
        assert.equal(body.email, account.email);
        assert.equal(body.active, false);
        assert.equal(body.closed, false);
        assert.deepEqual(body.updates, [{ action: 'Locked', comment: 'Suspicious activity', created: now, username: 'helpdesk', active: false }]);
        assert.deepEqual(body, await accountAsAdmin(account.username), 'the Account as GET /accounts/{username} answers it');

        assert.deepEqual(await stateOf(account.id), { active: false, closed: false });
        assert.deepEqual(await historyOf(account.id), [{ action: 'Locked', comment: 'Suspicious activity', username: 'helpdesk', active: false, created: now }]);
        assert.equal(await sessionsOf(account.id), 0);
        const after = await current(who);
        assert.equal(after.statusCode, 401);
        assert.deepEqual(after.json(), NOT_SIGNED_IN);
        assert.equal((await postSignIn(world.app, account.username, account.token)).statusCode, 423, 'a locked account cannot sign in');

        assert.deepEqual(await mailsTo(account.email), [
          {
            subject: 'Your account was locked',
            body:
              `The account ${account.username} was locked by an account administrator.\n` +
              'Reason: Suspicious activity\n' +
              '\n' +
              'You cannot sign in until it is unlocked. You may ask for that on the Request Unlock page.\n' +
              'If you have a question about this, contact web@portal.test.\n',
          },
        ]);
      });

      test('the mail reaches the owner through the outbox', async () => {
        const { account } = await target();
        assert.equal((await post(`/accounts/${account.username}/lock`, { comment: 'Delivered' })).statusCode, 200);
        const smtp = await startSmtpCatcher();
        const worker = createMailWorker({ db: world.db, transport: smtpTransport(smtp.url), from: 'portal@portal.test', clock: world.clock, pollMs: 60_000 });
        try {
          await worker.runOnce();
        } finally {
          await worker.stop();
          await smtp.close();
        }
        const mail = smtp.received.find((m) => m.rcptTo.includes(account.email));
        assert.ok(mail, 'delivered to the owner');
        assert.equal(mail.headers.subject, 'Your account was locked');
        assert.match(mail.text, /^Reason: Delivered$/m);
      });

      test('the reason: required, at most 150 characters; nothing changes when refused', async () => {
        const { account, who } = await target();
        const cases: [unknown, Record<string, string>][] = [
          [{}, { comment: 'Please enter a reason' }],
          [{ comment: '' }, { comment: 'Please enter a reason' }],
          [{ comment: '   ' }, { comment: 'Please enter a reason' }],
          [{ comment: 'x'.repeat(151) }, { comment: 'Must be less than 150 characters (151/150)' }],
        ];
        for (const [payload, fields] of cases) {
          const response = await post(`/accounts/${account.username}/lock`, payload);
          assert.equal(response.statusCode, 400, JSON.stringify(payload));
          assert.deepEqual(response.json(), fieldsError(fields));
        }
        const schema = await post(`/accounts/${account.username}/lock`, { comment: 'ok', extra: 1 });
        assert.equal(schema.statusCode, 400);
        assert.deepEqual(await stateOf(account.id), { active: true, closed: false });
        assert.deepEqual(await historyOf(account.id), []);
        assert.deepEqual(await mailsTo(account.email), []);
        assert.equal((await current(who)).statusCode, 200, 'still signed in');

        const longest = await post(`/accounts/${account.username}/lock`, { comment: 'y'.repeat(150) });
        assert.equal(longest.statusCode, 200, '150 characters are allowed');
      });

      test('twice: 409 and nothing changes (the username in any letter case)', async () => {
        const { account } = await target();
        assert.equal((await post(`/accounts/${account.username}/lock`, { comment: 'First' })).statusCode, 200);
        const before = { history: await historyOf(account.id), mails: await mailsTo(account.email) };
        world.clock.advance(MINUTE);
        const again = await post(`/accounts/${account.username.toUpperCase()}/lock`, { comment: 'Second' });
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), conflict(`The account for ${account.username} is already locked.`));
        assert.deepEqual(await historyOf(account.id), before.history);
        assert.deepEqual(await mailsTo(account.email), before.mails);
        assert.deepEqual(await stateOf(account.id), { active: false, closed: false });
      });

      test('two at once: one locks, the other gets the 409', async () => {
        const { account } = await target();
        const responses = await Promise.all([
          post(`/accounts/${account.username}/lock`, { comment: 'One' }),
          post(`/accounts/${account.username}/lock`, { comment: 'Two' }),
        ]);
        assert.deepEqual(responses.map((r) => r.statusCode).sort(), [200, 409]);
        assert.equal((await historyOf(account.id)).length, 1);
        assert.equal((await mailsTo(account.email)).length, 1);
      });

      test('a closed account: 409', async () => {
        const closed = await createAccount(world.db, { username: unique('closed'), state: 'closed' });
        const response = await post(`/accounts/${closed.username}/lock`, { comment: 'Too late' });
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), conflict(`The account for ${closed.username} is closed.`));
        assert.deepEqual(await historyOf(closed.id), []);
      });

      test('one\'s own account: 403 (any letter case), before the reason is looked at', async () => {
        for (const [username, payload] of [
          ['helpdesk', { comment: 'Me' }],
          ['HelpDesk', { comment: 'Me' }],
          ['helpdesk', {}],
        ] as const) {
          const response = await post(`/accounts/${username}/lock`, payload);
          assert.equal(response.statusCode, 403, username);
          assert.deepEqual(response.json(), OWN_ACCOUNT);
        }
        assert.deepEqual(await stateOf(helpdesk.account.id), { active: true, closed: false });
        assert.equal((await current(helpdesk.who)).statusCode, 200);
      });

      test('needs LOCK_ACCOUNT: an adjudicator and a user are refused', async () => {
        const { account } = await target();
        for (const role of ['adjudicator', 'user'] as const) {
          const { who } = await signedIn(world, unique(role), { roles: [role] });
          const response = await post(`/accounts/${account.username}/lock`, { comment: 'No' }, who);
          assert.equal(response.statusCode, 403, role);
          assert.deepEqual(response.json(), FORBIDDEN);
        }
        assert.deepEqual(await stateOf(account.id), { active: true, closed: false });
      });

      test('an unknown account: 404', async () => {
        const response = await post('/accounts/nobody.here/lock', { comment: 'Who?' });
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), NOT_FOUND);
      });
    });

    describe('POST /accounts/{username}/unlock', () => {
      test('after a lock: active again, the history and a mail; the owner signs in again', async () => {
        const { account } = await target();
        assert.equal((await post(`/accounts/${account.username}/lock`, { comment: 'Lost laptop' })).statusCode, 200);
        const lockedAt = world.clock.now().toISOString();
        world.clock.advance(MINUTE);
        const now = world.clock.now().toISOString();
        const response = await post(`/accounts/${account.username}/unlock`, { comment: ' Laptop found ' });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json<Record<string, unknown>>();
        assert.equal(body.active, true);
        assert.equal(body.closed, false);
        assert.deepEqual(body.updates, [
          { action: 'Unlocked', comment: 'Laptop found', created: now, username: 'helpdesk', active: true },
          { action: 'Locked', comment: 'Lost laptop', created: lockedAt, username: 'helpdesk', active: false },
        ]);
        assert.deepEqual(body, await accountAsAdmin(account.username));
        assert.deepEqual(await stateOf(account.id), { active: true, closed: false });
        assert.deepEqual(await historyOf(account.id), [
          { action: 'Locked', comment: 'Lost laptop', username: 'helpdesk', active: false, created: lockedAt },
          { action: 'Unlocked', comment: 'Laptop found', username: 'helpdesk', active: true, created: now },
        ]);
        const mails = await mailsTo(account.email);
        assert.deepEqual(mails.at(-1), {
          subject: 'Your account was unlocked',
          body:
            `The account ${account.username} was unlocked by an account administrator.\n` +
            'Comment: Laptop found\n' +
            '\n' +
            'You can sign in again.\n' +
            'If you have a question about this, contact web@portal.test.\n',
        });
        const who = await signIn(world.app, account.username, account.token);
        assert.equal((await current(who)).statusCode, 200);
      });

      test('after too many failed sign-ins: the failure count is reset, so the account signs in and is not locked by the next failure', async () => {
        const { account } = await target();
        for (let i = 0; i < 5; i++) await postSignIn(world.app, account.username, 'wrong');
        assert.deepEqual(await stateOf(account.id), { active: false, closed: false });
        assert.equal(await count(world.db, 'select 1 from login_failures where key = $1', [accountFailureKey(account.id)]), 1);

        world.clock.advance(MINUTE); // after the lock, which the database's clock dated
        const response = await post(`/accounts/${account.username}/unlock`, {});
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(await count(world.db, 'select 1 from login_failures where key = $1', [accountFailureKey(account.id)]), 0);
        assert.deepEqual((await historyOf(account.id)).map((h) => [h.action, h.comment, h.username, h.active]), [
          ['', 'Locked after 5 failed sign-in attempts.', 'system', false],
          ['Unlocked', '', 'helpdesk', true],
        ]);
        assert.equal((await postSignIn(world.app, account.username, 'wrong')).statusCode, 401, 'one failure does not lock it again');
        assert.equal((await postSignIn(world.app, account.username, account.token)).statusCode, 200);
        assert.deepEqual((await mailsTo(account.email)).at(-1)?.body.split('\n')[0], `The account ${account.username} was unlocked by an account administrator.`);
      });

      test('a pending unlock request is approved with the same comment; other requests stay pending', async () => {
        const account = await createAccount(world.db, { username: unique('asker'), state: 'locked' });
        const unlockRequest = await insertPending(account.id, account.username, 'unlock');
        const emailChange = await insertPending(account.id, account.username, 'profilechange');
        world.clock.advance(MINUTE);
        const now = world.clock.now().toISOString();
        const response = await post(`/accounts/${account.username}/unlock`, { comment: 'Verified by phone' });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(await requestRow(unlockRequest), {
          kind: 'unlock',
          status: 'approved',
          adjudicator: 'helpdesk',
          updated: now,
          updates: [
            { status: 'pending', username: account.username, comment: 'Request submitted.' },
            { status: 'approved', username: 'helpdesk', comment: 'Verified by phone' },
          ],
        });
        assert.equal((await requestRow(emailChange)).status, 'pending');
        assert.equal(response.json<{ email_change_pending: boolean }>().email_change_pending, true);
        assert.equal(
          (await mailsTo(account.email)).at(-1)?.body.split('\n')[0],
          `The account ${account.username} was unlocked by an account administrator, approving your unlock request.`,
        );
      });

      test('the reason is optional, at most 150 characters', async () => {
        const account = await createAccount(world.db, { username: unique('quiet'), state: 'locked' });
        const tooLong = await post(`/accounts/${account.username}/unlock`, { comment: 'z'.repeat(151) });
        assert.equal(tooLong.statusCode, 400);
        assert.deepEqual(tooLong.json(), fieldsError({ comment: 'Must be less than 150 characters (151/150)' }));
        assert.deepEqual(await stateOf(account.id), { active: false, closed: false });
        world.clock.advance(MINUTE); // after the lock, which the database's clock dated
        const empty = await post(`/accounts/${account.username}/unlock`, { comment: '   ' });
        assert.equal(empty.statusCode, 200, empty.body);
        assert.deepEqual((await historyOf(account.id)).at(-1)?.comment, '');
      });

      test('an account that is not locked, or closed: 409 and nothing changes', async () => {
        const { account } = await target();
        const response = await post(`/accounts/${account.username}/unlock`, { comment: 'Why?' });
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), conflict(`The account for ${account.username} is not locked.`));
        const closed = await createAccount(world.db, { username: unique('gone'), state: 'closed' });
        await world.db.query('update accounts set active = false where id = $1', [closed.id]);
        const onClosed = await post(`/accounts/${closed.username}/unlock`, { comment: 'Why?' });
        assert.equal(onClosed.statusCode, 409);
        assert.deepEqual(onClosed.json(), conflict(`The account for ${closed.username} is closed.`));
        assert.deepEqual(await stateOf(closed.id), { active: false, closed: true });
        assert.deepEqual(await historyOf(account.id), []);
        assert.deepEqual(await historyOf(closed.id), []);
      });

      test('needs UNLOCK_ACCOUNT; an unknown account: 404', async () => {
        const account = await createAccount(world.db, { username: unique('stuck'), state: 'locked' });
        const { who } = await signedIn(world, unique('adjudicator'), { roles: ['adjudicator'] });
        const refused = await post(`/accounts/${account.username}/unlock`, { comment: 'No' }, who);
        assert.equal(refused.statusCode, 403);
        assert.deepEqual(refused.json(), FORBIDDEN);
        const unknown = await post('/accounts/nobody.here/unlock', {});
        assert.equal(unknown.statusCode, 404);
        assert.deepEqual(unknown.json(), NOT_FOUND);
      });
    });

    describe('POST /requests/close', () => {
      test('closed and inactive, sessions ended, pending requests denied, the history and a mail', async () => {
        const { account, who } = await target();
        const other = await createAccount(world.db, { username: unique('bystander') });
        const emailChange = await insertPending(account.id, account.username, 'profilechange');
        const authChange = await insertPending(account.id, account.username, 'authchange');
        const decided = await insertPending(account.id, account.username, 'unlock', 'denied');
        const othersRequest = await insertPending(other.id, other.username, 'profilechange');
        world.clock.advance(MINUTE);
        const now = world.clock.now().toISOString();

        const response = await post('/requests/close', { username: account.username, reason: ' Left the company ' });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json<Record<string, unknown>>();
        assert.equal(body.username, account.username);
        assert.equal(body.active, false);
        assert.equal(body.closed, true);
        assert.equal(body.email_change_pending, false);
        assert.equal(body.auth_change_pending, false);
        assert.deepEqual(body.updates, [{ action: 'Closed', comment: 'Left the company', created: now, username: 'helpdesk', active: false }]);
        assert.deepEqual(body, await accountAsAdmin(account.username));

        assert.deepEqual(await stateOf(account.id), { active: false, closed: true });
        assert.deepEqual(await historyOf(account.id), [{ action: 'Closed', comment: 'Left the company', username: 'helpdesk', active: false, created: now }]);
        assert.equal(await sessionsOf(account.id), 0);
        assert.deepEqual((await current(who)).json(), NOT_SIGNED_IN);
        for (const [id, kindOf] of [
          [emailChange, 'profilechange'],
          [authChange, 'authchange'],
        ] as const) {
          assert.deepEqual(await requestRow(id), {
            kind: kindOf,
            status: 'denied',
            adjudicator: 'helpdesk',
            updated: now,
            updates: [
              { status: 'pending', username: account.username, comment: 'Request submitted.' },
              { status: 'denied', username: 'helpdesk', comment: 'Account closed.' },
            ],
          });
        }
        assert.equal((await requestRow(decided)).updates.length, 1, 'a decided request is left alone');
        assert.equal((await requestRow(decided)).adjudicator, null);
        assert.equal((await requestRow(othersRequest)).status, 'pending', "another account's request is left alone");

        assert.deepEqual(await mailsTo(account.email), [
          {
            subject: 'Your account was closed',
            body:
              `The account ${account.username} was closed by an account administrator.\n` +
              'Reason: Left the company\n' +
              'Its pending requests (2) were denied.\n' +
              '\n' +
              'You can no longer sign in with it.\n' +
              'If you have a question about this, contact web@portal.test.\n',
          },
        ]);

        const signInAgain = await postSignIn(world.app, account.username, account.token);
        assert.equal(signInAgain.statusCode, 401, 'a closed account cannot sign in');
      });

      test('a locked account can be closed; closing twice: 409 and nothing changes', async () => {
        const account = await createAccount(world.db, { username: unique('locked'), state: 'locked' });
        const response = await post('/requests/close', { username: account.username.toUpperCase(), reason: 'Done' });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(await stateOf(account.id), { active: false, closed: true });
        const before = { history: await historyOf(account.id), mails: await mailsTo(account.email) };
        const again = await post('/requests/close', { username: account.username, reason: 'Again' });
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), conflict(`The account for ${account.username} is already closed.`));
        assert.deepEqual(await historyOf(account.id), before.history);
        assert.deepEqual(await mailsTo(account.email), before.mails);
        // Unlocking a closed account is refused as well.
        const unlock = await post(`/accounts/${account.username}/unlock`, {});
        assert.deepEqual(unlock.json(), conflict(`The account for ${account.username} is closed.`));
      });

      test('the reason: required, at most 150 (field reason); one\'s own account: 403', async () => {
        const { account } = await target();
        for (const [payload, fields] of [
          [{ username: account.username }, { reason: 'Please enter a reason' }],
          [{ username: account.username, reason: ' ' }, { reason: 'Please enter a reason' }],
          [{ username: account.username, reason: 'r'.repeat(151) }, { reason: 'Must be less than 150 characters (151/150)' }],
        ] as const) {
          const response = await post('/requests/close', payload);
          assert.equal(response.statusCode, 400, JSON.stringify(payload));
          assert.deepEqual(response.json(), fieldsError(fields));
        }
        assert.equal((await post('/requests/close', { reason: 'No username' })).statusCode, 400);
        assert.deepEqual(await stateOf(account.id), { active: true, closed: false });

        for (const username of ['helpdesk', 'HELPDESK']) {
          const own = await post('/requests/close', { username, reason: 'Leaving' });
          assert.equal(own.statusCode, 403);
          assert.deepEqual(own.json(), OWN_ACCOUNT);
        }
        assert.deepEqual(await stateOf(helpdesk.account.id), { active: true, closed: false });
      });

      test('needs SUBMIT_SURROGATE_REQUEST; an unknown account: 404', async () => {
        const { account } = await target();
        const { who } = await signedIn(world, unique('adjudicator'), { roles: ['adjudicator'] });
        const refused = await post('/requests/close', { username: account.username, reason: 'No' }, who);
        assert.equal(refused.statusCode, 403);
        assert.deepEqual(refused.json(), FORBIDDEN);
        assert.deepEqual(await stateOf(account.id), { active: true, closed: false });
        const unknown = await post('/requests/close', { username: 'nobody.here', reason: 'Who?' });
        assert.equal(unknown.statusCode, 404);
        assert.deepEqual(unknown.json(), NOT_FOUND);
      });
    });

    describe('GET /accounts/{username}/history.csv', () => {
      test('the history as CSV, oldest first, quoted and guarded, with its headers', async () => {
        const account = await createAccount(world.db, { username: unique('Hist.Ory') });
        const t = (minutes: number) => new Date(Date.UTC(2026, 0, 2, 3, minutes, 5));
        // Written out of order: the export sorts by time.
        await addAccountUpdate(world.db, { accountId: account.id, action: 'Unlocked', comment: '=HYPERLINK("http://evil.test","click")', username: 'helpdesk', active: true, at: t(30) });
        await addAccountUpdate(world.db, { accountId: account.id, comment: 'Profile updated.', username: account.username, active: true, at: t(0) });
        await addAccountUpdate(world.db, { accountId: account.id, action: 'Locked', comment: 'Said "stop", then\nleft, fast', username: 'helpdesk', active: false, at: t(10) });
        await addAccountUpdate(world.db, { accountId: account.id, action: 'Closed', comment: '@once, -then +more', username: '-odd', active: false, at: t(40) });

        const response = await call(world.app, helpdesk.who, 'GET', `/accounts/${account.username.toLowerCase()}/history.csv`);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
        assert.equal(response.headers['content-disposition'], `attachment; filename="${account.username}-history.csv"`);
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.equal(
          response.body,
          'who,when,what,why\r\n' +
            `${account.username},2026-01-02T03:00:05.000Z,Profile updated.,\r\n` +
            'helpdesk,2026-01-02T03:10:05.000Z,Locked,"Said ""stop"", then\nleft, fast"\r\n' +
            'helpdesk,2026-01-02T03:30:05.000Z,Unlocked,"\'=HYPERLINK(""http://evil.test"",""click"")"\r\n' +
            "'-odd,2026-01-02T03:40:05.000Z,Closed,\"'@once, -then +more\"\r\n",
        );
      });

      test('what lock and unlock wrote', async () => {
        const { account } = await target();
        world.clock.advance(MINUTE);
        const lockedAt = world.clock.now().toISOString();
        await post(`/accounts/${account.username}/lock`, { comment: 'Checking, please wait' });
        world.clock.advance(MINUTE);
        const unlockedAt = world.clock.now().toISOString();
        await post(`/accounts/${account.username}/unlock`, {});
        const response = await call(world.app, helpdesk.who, 'GET', `/accounts/${account.username}/history.csv`);
        assert.equal(
          response.body,
          `who,when,what,why\r\nhelpdesk,${lockedAt},Locked,"Checking, please wait"\r\nhelpdesk,${unlockedAt},Unlocked,\r\n`,
        );
      });

      test('a plain link opens it: the session cookie alone, without the anti-forgery header; signed out: 401', async () => {
        const { account } = await target();
        const link = await world.app.inject({ method: 'GET', url: `${API}/accounts/${account.username}/history.csv`, headers: { cookie: helpdesk.who.cookie } });
        assert.equal(link.statusCode, 200, link.body);
        assert.match(link.body, /^who,when,what,why\r\n/);
        const signedOut = await world.app.inject({ method: 'GET', url: `${API}/accounts/${account.username}/history.csv` });
        assert.equal(signedOut.statusCode, 401);
      });

      test('needs VIEW_ACCOUNT (even for one\'s own); an unknown account: 404', async () => {
        const { account, who } = await target();
        const own = await call(world.app, who, 'GET', `/accounts/${account.username}/history.csv`);
        assert.equal(own.statusCode, 403);
        assert.deepEqual(own.json(), FORBIDDEN);
        const unknown = await call(world.app, helpdesk.who, 'GET', '/accounts/nobody.here/history.csv');
        assert.equal(unknown.statusCode, 404);
        assert.match(String(unknown.headers['content-type']), /^application\/json/);
        assert.deepEqual(unknown.json(), NOT_FOUND);
        const empty = await call(world.app, helpdesk.who, 'GET', `/accounts/${account.username}/history.csv`);
        assert.equal(empty.body, 'who,when,what,why\r\n');
      });
    });
  });
}
