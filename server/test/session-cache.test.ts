/**
 * The embedded database's session lookups kept in memory (services/session-cache.ts): what the
 * cache keeps and refuses, the embedded database's write generation that drops it, and through the
 * app on PGlite (and PostgreSQL, which keeps nothing) that a check reads the database only when
 * something was written, and that whatever is written is seen at the next request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import type { SessionRecord } from '../src/repositories/sessions.js';
import { MAX_SESSIONS, SessionCache } from '../src/services/session-cache.js';
import { API, MINUTE, TestClock, as, createAccount, signIn, type Principal } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

const SECOND = 1000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function record(idHash: string, lastSeenAt: Date, roles: string[] = ['user']): SessionRecord {
  const createdAt = new Date('2026-11-25T10:00:00Z');
  return {
    idHash,
    accountId: 7,
    createdAt,
    lastSeenAt,
    expiresAt: new Date(createdAt.getTime() + 12 * 3_600_000),
    account: { id: 7, username: 'user', active: true, closed: false, roles, lastCertified: null, createdAt },
  };
}

describe('SessionCache', () => {
  const at = (iso: string) => new Date(`2026-11-25T${iso}Z`);

  test('keeps a record read while nothing was written, until anything is', () => {
    let generation = 4;
    const cache = new SessionCache(() => generation);
    const kept = record('a', at('10:00:01'));
    cache.keep('a', cache.ticket(), kept);
    assert.equal(cache.get('a'), kept);
    assert.equal(cache.get('b'), undefined, 'another session: not kept');
    generation++;
    assert.equal(cache.get('a'), undefined, 'a write since: read again');
  });

  test('does not keep a record whose read began before a write', () => {
    let generation = 0;
    const cache = new SessionCache(() => generation);
    const ticket = cache.ticket();
    generation += 2; // a write was sent and ended while the read ran
    cache.keep('a', ticket, record('a', at('10:00:01')));
    assert.equal(cache.get('a'), undefined);
  });

  test("a session's own last-seen mark updates its record, also when the mark's write ended before a slower read", () => {
    const cache = new SessionCache(() => 0);
    cache.keep('a', cache.ticket(), record('a', at('10:00:01')));
    cache.marked('a', at('10:00:05'));
    assert.deepEqual(cache.get('a')?.lastSeenAt, at('10:00:05'));

    const ticket = cache.ticket();
    cache.marked('b', at('10:00:09')); // the mark's write ended first…
    cache.keep('b', ticket, record('b', at('10:00:02'))); // …then a read that began before it
    assert.deepEqual(cache.get('b')?.lastSeenAt, at('10:00:09'), 'never older than a mark written');
    cache.marked('b', at('10:00:03'));
    assert.deepEqual(cache.get('b')?.lastSeenAt, at('10:00:09'), 'marks only move forward');
  });

  test('forget drops a session; at most MAX_SESSIONS are held, the oldest kept going first', () => {
    const cache = new SessionCache(() => 0);
    for (let i = 0; i <= MAX_SESSIONS; i++) cache.keep(`s${i}`, cache.ticket(), record(`s${i}`, at('10:00:01')));
    assert.equal(cache.get('s0'), undefined, 'the oldest went');
    assert.ok(cache.get('s1'));
    assert.ok(cache.get(`s${MAX_SESSIONS}`));
    cache.forget('s1');
    assert.equal(cache.get('s1'), undefined);
  });
});

describe('the embedded database write generation', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase('pglite');
  });
  after(() => db.close());

  const generation = () => {
    assert.ok(db.writeGeneration, 'PGlite has a write generation');
    return db.writeGeneration();
  };

  test('reads leave it; writes, scripts and transactions move it (also when they fail); a write applied by its caller leaves it', async () => {
    let before = generation();
    await db.query('select count(*) from sessions');
    await db.query('select 1', [], { prepare: 'generation_test_select' });
    assert.equal(generation(), before, 'reads');

    for (const sql of [
      "insert into server_secrets (name, value) values ('generation-test', 'x')",
      "update server_secrets set value = 'y' where name = 'generation-test'",
      "with gone as (delete from server_secrets where name = 'generation-test' returning 1) select count(*) from gone",
      "select 1 from server_secrets for update",
    ]) {
      before = generation();
      await db.query(sql);
      assert.ok(generation() > before, sql);
    }
    before = generation();
    await assert.rejects(db.query('update no_such_table set x = 1'));
    assert.ok(generation() > before, 'a failed write');
    before = generation();
    await db.exec('select 1');
    assert.ok(generation() > before, 'a script');
    before = generation();
    await db.transaction(async (tx) => tx.query('select 1'));
    assert.ok(generation() > before, 'a transaction');

    before = generation();
    await db.query("update sessions set last_seen_at = now() where id_hash = 'none'", [], { appliedByCaller: true });
    assert.equal(generation(), before, 'applied by its caller');
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`session checks on ${kind}`, () => {
    let fixture: Fixture;
    let db: Database;
    let app: App;
    let clock: TestClock;
    /** How many times the session lookup has read the database. */
    let lookups = 0;
    let user: Principal;

    before(async () => {
      fixture = createFixture();
      const inner = await createTestDatabase(kind);
      db = {
        ...inner,
        query(sql, params, options) {
          if (options?.prepare === 'portal_find_session') lookups++;
          return inner.query(sql, params, options);
        },
      };
      clock = new TestClock();
      app = createTestApp({ db, fixture, clock });
      await app.ready();
      const account = await createAccount(db, { username: 'user', roles: ['user'] });
      await createAccount(db, { username: 'someone.else', roles: ['user'] });
      user = await signIn(app, 'user', account.token);
    });
    after(async () => {
      await app.close();
      await db.close();
      fixture.remove();
    });

    const current = () => app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(user) });
    const lastSeen = async () => {
      const cookie = user.cookie.slice(user.cookie.indexOf('=') + 1);
      const { rows } = await db.query<{ last_seen_at: Date | string }>('select last_seen_at from sessions where id_hash = $1', [sha256(cookie)]);
      return new Date(rows[0]?.last_seen_at ?? 0).getTime();
    };

    test(
      kind === 'pglite'
        ? 'while nothing else is written, a check does not read the session again; its last-seen mark is still written and counted'
        : 'every check reads the session (other servers write to the database too); its last-seen mark is written',
      async () => {
        assert.equal((await current()).statusCode, 200);
        lookups = 0;
        // Used every 29 minutes for two hours: the idle limit is 30 minutes, so the session lives
        // only if each use's mark, written once a second at most, is what the next check counts.
        for (let i = 0; i < 4; i++) {
          clock.advance(29 * MINUTE);
          const response = await current();
          assert.equal(response.statusCode, 200, `use ${i + 1}`);
          assert.equal(response.json<{ username: string }>().username, 'user');
          assert.equal(await lastSeen(), Math.ceil(clock.now().getTime() / SECOND) * SECOND, 'the mark is in the database');
        }
        assert.equal(lookups, kind === 'pglite' ? 0 : 4);
        clock.advance(30 * MINUTE + SECOND);
        assert.equal((await current()).statusCode, 401, 'idle for over 30 minutes: ended');
        user = await signIn(app, 'user', (await createAccount(db, { username: `user.${Date.now()}`, roles: ['user'] })).token);
      },
    );

    test('what is written anywhere is seen at the next check: a role taken away, a role given, the account locked', async () => {
      const permissions = async () => {
        const response = await current();
        return response.statusCode === 200 ? response.json<{ permissions: string[] }>().permissions : response.statusCode;
      };
      const userPermissions = await permissions();
      assert.ok(Array.isArray(userPermissions));
      const username = (await current()).json<{ username: string }>().username;

      await db.query(`insert into account_roles (account_id, role) select id, 'adjudicator' from accounts where username = $1`, [username]);
      const more = await permissions();
      assert.ok(Array.isArray(more) && more.length > userPermissions.length, 'a role given: its permissions at once');

      await db.query(`delete from account_roles where role = 'adjudicator' and account_id = (select id from accounts where username = $1)`, [username]);
      assert.deepEqual(await permissions(), userPermissions, 'the role taken away: its permissions gone at once');

      lookups = 0;
      await db.query(`update accounts set active = false where username = 'someone.else'`);
      assert.deepEqual(await permissions(), userPermissions);
      assert.equal(lookups, 1, 'any write, even of another account, reads the session again');

      await db.transaction((tx) => tx.query('update accounts set active = false where username = $1', [username]));
      assert.equal(await permissions(), 401, 'locked (in a transaction): not signed in at once');
    });
  });
}
