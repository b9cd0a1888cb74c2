/**
 * The scheduled purge (services/retention.ts): each table keeps its rows exactly as long as its
 * retention says and no longer; an unknown identifier at the failure limit keeps answering 423
 * like a locked account however long it waits and however often the purge runs; and a stream of
 * failed sign-ins with random identifiers (plus the challenges, anonymous sessions, codes and mail
 * such traffic leaves) never makes the tables grow past a bound that does not depend on the
 * number of attempts: once the longest retention (a day) has filled, two more days of the same
 * traffic leave every table at or under its bound after each of the 48 hourly purges.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database, Queryable } from '../src/db/database.js';
import { accountFailureKey, countFailure, unknownIdentifierKey } from '../src/repositories/login-failures.js';
import { purgeExpiredRows, type RetentionSettings } from '../src/services/retention.js';
import { API, HOUR, MINUTE, TestClock, createAccount, postSignIn } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

const DAY = 24 * HOUR;

const SETTINGS: RetentionSettings = {
  loginMaxFailures: 5,
  sessionIdleMinutes: 30,
  loginFailureRetentionHours: 24,
  lockedIdentifierRetentionDays: 0,
  verificationCodeRetentionHours: 24,
  sentMailRetentionDays: 30,
  provisioningHistoryDays: 30,
};

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

async function count(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return Number(rows[0]?.n ?? 0);
}

async function keysOf(db: Queryable, sql: string): Promise<string[]> {
  const { rows } = await db.query<{ k: string }>(sql);
  return rows.map((row) => String(row.k)).sort();
}

for (const kind of DATABASE_KINDS) {
  describe(`retention on ${kind}`, () => {
    let db: Database;
    before(async () => {
      db = await createTestDatabase(kind);
    });
    after(async () => {
      await db.close();
    });

    test('each table keeps its rows as long as its retention says, and no longer', async () => {
      const now = new Date('2026-06-01T12:00:00.000Z');
      const ago = (ms: number) => new Date(now.getTime() - ms);
      const later = (ms: number) => new Date(now.getTime() + ms);
      // Sessions: absolute expiry and idle expiry (30 minutes).
      for (const [id, lastSeen, expires] of [
        ['live', ago(29 * MINUTE), later(HOUR)],
        ['idle', ago(30 * MINUTE), later(HOUR)],
        ['expired', ago(MINUTE), now],
      ] as const) {
        await db.query('insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at) values ($1, null, $2, $2, $3)', [id, lastSeen, expires]);
      }
      await db.query("insert into used_challenges (signature_hash, expires_at) values ('valid', $1), ('expired', $2)", [later(MINUTE), ago(1)]);
      // Failed sign-in counts: below the limit forgotten after 24 hours; at the limit kept (an account's, and an unknown identifier's).
      for (const [key, failures, last] of [
        ['id:recent', 4, ago(24 * HOUR - MINUTE)],
        ['id:old', 4, ago(24 * HOUR + MINUTE)],
        ['account:1', 4, ago(24 * HOUR + MINUTE)],
        ['id:locked', 5, ago(3650 * DAY)],
        ['account:2', 7, ago(3650 * DAY)],
      ] as const) {
        await db.query('insert into login_failures (key, failures, last_failure_at) values ($1, $2, $3)', [key, failures, last]);
      }
      for (const [email, created] of [
        ['recent@example.test', ago(24 * HOUR - MINUTE)],
        ['old@example.test', ago(24 * HOUR + MINUTE)],
      ] as const) {
        await db.query("insert into verification_codes (email, code_hash, created_at, expires_at) values ($1, 'h', $2, $2)", [email, created]);
      }
      for (const [to, sentAt] of [
        ['recent@example.test', ago(30 * DAY - MINUTE)],
        ['old@example.test', ago(30 * DAY + MINUTE)],
        ['unsent@example.test', null],
      ] as const) {
        await db.query("insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at, sent_at) values ($1, 's', 'b', $2, $2, $3)", [
          to,
          ago(3650 * DAY),
          sentAt,
        ]);
      }

      // Rate-limit counts: kept while their window lasts.
      for (const [key, expires] of [
        ['sign-in 192.0.2.1 current', later(MINUTE)],
        ['sign-in 192.0.2.1 ended', now],
        ['unlock 2001:db8::/64 ended', ago(HOUR)],
      ] as const) {
        await db.query('insert into rate_limit_hits (key, hits, expires_at) values ($1, 3, $2)', [key, expires]);
      }

      // The provisioning history: kept PORTAL_PROVISIONING_HISTORY_DAYS.
      for (const [detail, at] of [
        ['recent', ago(29 * DAY)],
        ['old', ago(31 * DAY)],
      ] as const) {
        await db.query("insert into provisioning_events (target, at, kind, detail) values ('ldap', $1, 'reconciled', $2)", [at, detail]);
      }

      // The OpenID provider's records: kept until they expire (a grant of a session may have none).
      for (const [id, expires] of [
        ['live', later(MINUTE)],
        ['expired', now],
        ['long-expired', ago(DAY)],
        ['endless', null],
      ] as const) {
        await db.query("insert into oidc_models (model, id, payload, expires_at) values ('AccessToken', $1, '{}', $2)", [id, expires]);
      }

      const deleted = await purgeExpiredRows(db, SETTINGS, now, 2);
      assert.deepEqual(deleted, {
        sessions: 2,
        usedChallenges: 1,
        loginFailures: 2,
        lockedIdentifiers: 0,
        verificationCodes: 1,
        sentMail: 1,
        rateLimitHits: 2,
        provisioningEvents: 1,
        oidcRecords: 2,
      });
      assert.deepEqual(await keysOf(db, 'select id as k from oidc_models'), ['endless', 'live']);
      assert.deepEqual(await keysOf(db, 'select detail as k from provisioning_events'), ['recent']);
      assert.deepEqual(await keysOf(db, 'select key as k from rate_limit_hits'), ['sign-in 192.0.2.1 current']);
      assert.deepEqual(await keysOf(db, 'select id_hash as k from sessions'), ['live']);
      assert.deepEqual(await keysOf(db, 'select signature_hash as k from used_challenges'), ['valid']);
      assert.deepEqual(await keysOf(db, 'select key as k from login_failures'), ['account:2', 'id:locked', 'id:recent']);
      assert.deepEqual(await keysOf(db, 'select email as k from verification_codes'), ['recent@example.test']);
      assert.deepEqual(await keysOf(db, 'select to_address as k from mail_outbox'), ['recent@example.test', 'unsent@example.test']);

      // PORTAL_LOCKED_IDENTIFIER_RETENTION_DAYS: an unknown identifier at the limit goes after that many days; an account's row stays.
      const withLockRetention = { ...SETTINGS, lockedIdentifierRetentionDays: 3649 };
      assert.equal((await purgeExpiredRows(db, withLockRetention, now)).lockedIdentifiers, 1);
      assert.deepEqual(await keysOf(db, 'select key as k from login_failures'), ['account:2', 'id:recent']);
      for (const table of ['sessions', 'used_challenges', 'login_failures', 'verification_codes', 'mail_outbox']) await db.query(`delete from ${table}`);
    });

    test('30,000 failed sign-ins with random identifiers over 3 days: the tables stay under a bound that does not grow with the attempts', async () => {
      // Simulated traffic: 30,000 attempts over 3 days (one every 8.64 s), each with a new random
      // identifier, its used challenge and an anonymous session; every 10th also asks for a code
      // and sends a mail. The purge runs every simulated hour, as a server would (PORTAL_PURGE_INTERVAL_MS).
      // The longest retention is a day: after the 25th hour every table is full to its bound, and
      // the two days after it show that more attempts do not raise it.
      const ATTEMPTS = 30_000;
      const STEP_MS = (3 * DAY) / ATTEMPTS;
      const PER_HOUR = Math.ceil(HOUR / STEP_MS);
      const start = new Date('2026-03-01T00:00:00.000Z').getTime();
      // What a retention keeps at most: the attempts of its window plus one purge interval.
      const bound = {
        login_failures: PER_HOUR * (SETTINGS.loginFailureRetentionHours + 1),
        used_challenges: PER_HOUR,
        sessions: PER_HOUR,
        verification_codes: Math.ceil((PER_HOUR * (SETTINGS.verificationCodeRetentionHours + 1)) / 10),
      };
      const maxima: Record<string, number> = {};
      let sentAfterLastPurge = 0;
      const began = Date.now();
      for (let hour = 0; hour * PER_HOUR < ATTEMPTS; hour++) {
        const first = hour * PER_HOUR;
        const last = Math.min(ATTEMPTS, first + PER_HOUR);
        // The failure-recording function itself, as a sign-in with an unknown identifier calls it
        // (on PostgreSQL several at once, as several requests would; PGlite runs one at a time).
        const parallel = kind === 'postgres' ? 8 : 1;
        for (let i = first; i < last; i += parallel) {
          const batch = Array.from({ length: Math.min(parallel, last - i) }, (_, j) =>
            countFailure(db, unknownIdentifierKey(`  ${randomBytes(9).toString('base64url')}@Example.test `), new Date(start + (i + j) * STEP_MS)),
          );
          for (const failures of await Promise.all(batch)) assert.equal(failures, 1);
        }
        // What the same traffic leaves elsewhere, an hour at a time: each attempt's used challenge;
        // every 10th an anonymous session, a verification code and a sent mail.
        const values: string[] = [];
        const params: unknown[] = [];
        const tenths: number[] = [];
        for (let i = first; i < last; i++) {
          const at = new Date(start + i * STEP_MS);
          values.push(`($${params.length + 1}, $${params.length + 2})`);
          params.push(randomBytes(16).toString('hex'), new Date(at.getTime() + 10 * MINUTE));
          if (i % 10 === 0) tenths.push(i);
        }
        const at = (i: number) => new Date(start + i * STEP_MS).toISOString();
        await db.query(
          `insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
           select h, null, t, t, t + interval '12 hours' from unnest($1::text[], $2::timestamptz[]) as u(h, t)`,
          [tenths.map(() => randomBytes(16).toString('hex')), tenths.map(at)],
        );
        await db.query(
          `insert into verification_codes (email, code_hash, created_at, expires_at)
           select i || '@example.test', 'h', t, t + interval '10 minutes' from unnest($1::int[], $2::timestamptz[]) as u(i, t)`,
          [tenths, tenths.map(at)],
        );
        await db.query(
          `insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at, sent_at)
           select i || '@example.test', 's', 'b', t, t, t from unnest($1::int[], $2::timestamptz[]) as u(i, t)`,
          [tenths, tenths.map(at)],
        );
        await db.query(`insert into used_challenges (signature_hash, expires_at) values ${values.join(', ')}`, params);
        const now = new Date(start + last * STEP_MS);
        await purgeExpiredRows(db, { ...SETTINGS, sentMailRetentionDays: 1 }, now);
        for (const table of Object.keys(bound) as (keyof typeof bound)[]) {
          const rows = await count(db, table);
          maxima[table] = Math.max(maxima[table] ?? 0, rows);
          assert.ok(rows <= bound[table], `${table}: ${rows} rows after the purge at attempt ${last}, more than ${bound[table]}`);
        }
        sentAfterLastPurge = await count(db, 'mail_outbox');
        assert.ok(sentAfterLastPurge <= Math.ceil((PER_HOUR * 25) / 10), `mail_outbox: ${sentAfterLastPurge} rows`);
      }
      // The bounds were reached (the purge did the work, not a short test): a day's failures are kept, no more.
      assert.ok((maxima.login_failures ?? 0) >= (SETTINGS.loginFailureRetentionHours * HOUR) / STEP_MS - 1, JSON.stringify(maxima));
      assert.ok(sentAfterLastPurge >= PER_HOUR * 2, 'a day of sent mail is kept');
      console.log(`${kind}: ${ATTEMPTS} attempts and ${Math.ceil(ATTEMPTS / PER_HOUR)} purges in ${Date.now() - began} ms; most rows after a purge: ${JSON.stringify(maxima)}`);
      for (const table of ['sessions', 'used_challenges', 'login_failures', 'verification_codes', 'mail_outbox']) await db.query(`delete from ${table}`);
    });

    describe('an unknown identifier at the failure limit answers like a locked account for as long as that stays locked', () => {
      let app: App;
      let clock: TestClock;
      before(async () => {
        clock = new TestClock();
        app = createTestApp({ db, fixture, clock });
        await app.ready();
      });
      after(async () => {
        await app.close();
      });

      test('after the 5th failure both answer 423, and still after a year of purges; below the limit both are forgotten alike', async () => {
        const account = await createAccount(db, { username: 'kept.locked' });
        const unknown = 'nobody.at.all';
        const answers = async (id: string) => (await postSignIn(app, id, 'wrong-token-wrong-token-wrong-token-wrong-t')).statusCode;

        for (let i = 1; i <= 5; i++) {
          assert.equal(await answers(account.username), i < 5 ? 401 : 423, `the account, attempt ${i}`);
          assert.equal(await answers(unknown), i < 5 ? 401 : 423, `the unknown identifier, attempt ${i}`);
        }
        for (let day = 0; day < 365; day += 30) {
          clock.advance(30 * DAY);
          await purgeExpiredRows(db, SETTINGS, clock.now());
          assert.equal(await answers(account.username), 423, `the account after ${day + 30} days`);
          assert.equal(await answers(unknown), 423, `the unknown identifier after ${day + 30} days`);
        }
        const { rows } = await db.query('select key from login_failures where key = $1 or key = $2', [accountFailureKey(account.id), unknownIdentifierKey(unknown)]);
        assert.equal(rows.length, 2);

        // Four failures, a quiet day and the purge: both counts are forgotten, so the 5th failure locks neither.
        const other = await createAccount(db, { username: 'forgotten.count' });
        const stranger = 'someone.else';
        for (let i = 1; i <= 4; i++) {
          assert.equal(await answers(other.username), 401);
          assert.equal(await answers(stranger), 401);
        }
        clock.advance(SETTINGS.loginFailureRetentionHours * HOUR + MINUTE);
        await purgeExpiredRows(db, SETTINGS, clock.now());
        assert.equal(await answers(other.username), 401, 'the account: its count started again');
        assert.equal(await answers(stranger), 401, 'the unknown identifier: its count started again');
        // Within the retention the counts go on: three more failures reach the limit for both.
        for (let i = 2; i <= 5; i++) {
          assert.equal(await answers(other.username), i < 5 ? 401 : 423);
          assert.equal(await answers(stranger), i < 5 ? 401 : 423);
        }
        assert.equal((await app.inject({ method: 'GET', url: `${API}/health` })).statusCode, 200);
      });
    });
  });
}
