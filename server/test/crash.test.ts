/**
 * Crashes lose nothing acknowledged: a real server process (`src/main.ts`) takes a
 * stream of decisions (new account requests approved and denied), locks, unlocks and profile
 * changes from an administrator, four at a time, and is killed with SIGKILL at a random moment
 * of the stream; it is started again on the same database, and again killed, several times.
 * Then every change answered 200 must be in the database, whole, and every change that got no
 * answer must be either whole or absent: a decision with its update row, its account (approved)
 * and its mail; a lock or unlock with its history row and its mail; a profile change with its
 * history row. Nothing else may have answered: no 5xx on the way down.
 *
 * On the embedded PGlite (a data folder, as `npm start` runs it) and on PostgreSQL. The moments
 * come from a seeded generator: the seed is printed, and CRASH_SEED=<seed> replays a run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { profileUpdate } from '@portal/api';
import type { Database, Queryable } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { insertRequest, insertRequestUpdate } from '../src/repositories/requests.js';
import { SELF_SERVICE_COMMENTS } from '../src/self-service-messages.js';
import { createAccount, type TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { Browser, solvedChallenge } from './http-browser.js';
import { newRequestDetails } from './request-helpers.js';
import { portalEnv, processDatabase, type ProcessDatabase, runningUrl, startMain, type Running } from './process-helpers.js';

const ROUNDS = 4;
/** Of each kind, per round: approve, deny, lock, unlock, profile. */
const PER_KIND = 10;
const CONCURRENCY = 4;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

/** A small seeded generator (mulberry32): the same seed, the same kill moments and order. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Change =
  | { kind: 'approved' | 'denied'; requestId: number; username: string; email: string }
  | { kind: 'lock' | 'unlock'; account: TestAccount; comment: string }
  | { kind: 'profile'; account: TestAccount; company: string };

/** What became of a change sent: answered (with its status) or not answered (the server died). */
interface Sent {
  change: Change;
  round: number;
  answer: number | 'none';
  /** The body of an answer other than 200. */
  body?: unknown;
}

const PROFILE = {
  phone: '555-0100',
  street: '1 Main Street',
  city: 'Springfield',
  state: 'VA',
  zip: '22150',
  country: 'USA',
  project: 'Portal',
  supervisor_first_name: 'Sam',
  supervisor_last_name: 'Boss',
  supervisor_email: 'sam.boss@example.test',
  supervisor_phone: '555-0199',
  reason: 'Crash test.',
};

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** The changes of one round, on rows of their own (a change never waits on another's outcome). */
async function seedRound(db: Queryable, round: number): Promise<Change[]> {
  const changes: Change[] = [];
  const at = new Date();
  for (let i = 0; i < PER_KIND; i++) {
    for (const kind of ['approved', 'denied'] as const) {
      const username = `crash.${kind}.${round}.${i}`;
      const email = `${username}@agency.example`;
      const details = newRequestDetails('Jane', 'Doe');
      const requestId = await insertRequest(db, { kind: 'new', status: 'pending', accountId: null, username, email, reason: 'Works on the portal.', details, createdAt: at });
      await insertRequestUpdate(db, { requestId, status: 'pending', username, comment: 'Request submitted.', createdAt: at });
      changes.push({ kind, requestId, username, email });
    }
    const toLock = await createAccount(db, { username: `crash.lock.${round}.${i}` });
    changes.push({ kind: 'lock', account: toLock, comment: `Crash test lock ${round}.${i}.` });
    const toUnlock = await createAccount(db, { username: `crash.unlock.${round}.${i}`, state: 'locked' });
    changes.push({ kind: 'unlock', account: toUnlock, comment: `Crash test unlock ${round}.${i}.` });
    const toEdit = await createAccount(db, { username: `crash.profile.${round}.${i}` });
    changes.push({ kind: 'profile', account: toEdit, company: `Crash Corp ${round}.${i}` });
  }
  return changes;
}

function send(browser: Browser, base: string, change: Change): Promise<{ status: number; body: unknown }> {
  switch (change.kind) {
    case 'approved':
    case 'denied':
      return browser.post(base, `/requests/new/${change.requestId}/${change.kind}`, { comment: `Crash test ${change.kind}.` });
    case 'lock':
    case 'unlock':
      return browser.post(base, `/accounts/${change.account.username}/${change.kind}`, { comment: change.comment });
    case 'profile':
      return browser.post(base, `/accounts/${change.account.username}`, profileUpdate({ ...PROFILE, company: change.company }));
  }
}

/** 'whole' when every row the change writes is there, 'absent' when none is, else what is half there. */
async function stateOf(db: Queryable, change: Change): Promise<'whole' | 'absent' | string> {
  const one = async (sql: string, params: unknown[]) => Number((await db.query<{ n: number }>(sql, params)).rows[0]?.n);
  const mails = (to: string) => one('select count(*)::int as n from mail_outbox where to_address = $1', [to]);
  const updates = (accountId: number, comment: string) =>
    one('select count(*)::int as n from account_updates where account_id = $1 and comment = $2', [accountId, comment]);
  let parts: Record<string, boolean>;
  switch (change.kind) {
    case 'approved':
    case 'denied': {
      const { rows } = await db.query<{ status: string; updates: number }>(
        'select status, (select count(*)::int from request_updates u where u.request_id = r.id) as updates from requests r where id = $1',
        [change.requestId],
      );
      const accounts = await one('select count(*)::int as n from accounts where username = $1', [change.username]);
      parts = {
        status: rows[0]?.status === change.kind,
        'update row': rows[0]?.updates === 2,
        mail: (await mails(change.email)) === 1,
        ...(change.kind === 'approved' ? { account: accounts === 1 } : {}),
      };
      if (change.kind === 'denied' && accounts !== 0) return 'an account for a denied request';
      if (!parts.status && rows[0]?.status !== 'pending') return `status ${rows[0]?.status}`;
      break;
    }
    case 'lock':
    case 'unlock': {
      const active = (await db.query<{ active: boolean }>('select active from accounts where id = $1', [change.account.id])).rows[0]?.active;
      parts = {
        active: active === (change.kind === 'unlock'),
        'history row': (await updates(change.account.id, change.comment)) === 1,
        mail: (await mails(change.account.email)) === 1,
      };
      break;
    }
    case 'profile': {
      const company = (await db.query<{ company: string | null }>('select company from accounts where id = $1', [change.account.id])).rows[0]?.company;
      parts = { company: company === change.company, 'history row': (await updates(change.account.id, SELF_SERVICE_COMMENTS.profileUpdated)) === 1 };
      break;
    }
  }
  const values = Object.values(parts);
  if (values.every(Boolean)) return 'whole';
  if (!values.some(Boolean)) return 'absent';
  return `half: ${Object.entries(parts).map(([part, there]) => `${part} ${there ? 'there' : 'missing'}`).join(', ')}`;
}

for (const kind of DATABASE_KINDS) {
  describe(`a server killed mid-stream on ${kind}`, () => {
    let fixture: Fixture;
    let dir: string;
    let database: ProcessDatabase | undefined;
    let env: Record<string, string>;
    /** The database as the test reads it between runs (PGlite: only while no server holds the folder). */
    let openDb: () => Promise<Database>;
    let running: Running | undefined;
    let admin: TestAccount;

    before(async () => {
      fixture = createFixture();
      dir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
      const configFile = join(dir, 'portal.json');
      writeFileSync(configFile, JSON.stringify({ brand: 'Shared Platform', email_domain: 'example.test', wiki_url: 'https://wiki.example.test/' }));
      const dataDir = join(dir, 'data');
      env = { ...portalEnv(fixture, dataDir), PORTAL_CONFIG_FILE: configFile, PORTAL_CHALLENGE_COST: '1' };
      database = await processDatabase(kind, dataDir);
      if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
      openDb = database.open;
      const db = await openDb();
      await migrate(db);
      admin = await createAccount(db, { username: 'crash.admin', roles: ['site-admin'] });
      await db.close();
    });

    after(async () => {
      running?.child.kill('SIGKILL');
      await running?.exit;
      await database?.drop();
      fixture?.remove();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test(`${ROUNDS} kills with SIGKILL: every change answered 200 is whole, every change unanswered is whole or absent`, async (t: TestContext) => {
      t.diagnostic(`seed ${SEED} (CRASH_SEED=${SEED} replays it)`);
      const random = generator(SEED);
      const sent: Sent[] = [];
      const seeded: Change[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const db = await openDb();
        const changes = shuffle(await seedRound(db, round), random);
        seeded.push(...changes);
        await db.close();

        // Started again on what the last kill left: it must come up.
        running = startMain(env);
        const base = await runningUrl(running);
        const browser = new Browser();
        const signIn = await browser.post(base, '/sessions', { id: admin.username, token: admin.token, botChallengeResponse: await solvedChallenge(base) });
        assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
        assert.equal((await browser.get(base, '/xsrf')).status, 200);

        // The kill comes when a random number of answers (between a tenth and nine tenths of the
        // stream) have arrived, plus up to 15 ms: always in the middle of the stream.
        const killAfter = Math.floor(changes.length * (0.1 + 0.8 * random()));
        const killDelayMs = Math.floor(random() * 15);
        let answered = 0;
        let killed = false;
        const victim = running;
        const kill = () => {
          if (killed) return;
          killed = true;
          setTimeout(() => victim.child.kill('SIGKILL'), killDelayMs);
        };
        const queue = [...changes];
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            for (let change = queue.shift(); change !== undefined; change = queue.shift()) {
              const record: Sent = { change, round, answer: 'none' };
              sent.push(record);
              try {
                const { status, body } = await send(browser, base, change);
                record.answer = status;
                if (status !== 200) record.body = body;
                if (++answered >= killAfter) kill();
              } catch {
                // No answer: the server is gone; what is left of the queue is never sent.
                queue.length = 0;
              }
            }
          }),
        );
        kill();
        const exit = await victim.exit;
        assert.equal(exit.signal, 'SIGKILL', `round ${round}: the server was killed, not stopped: ${victim.output()}`);
        t.diagnostic(`round ${round}: ${answered} of ${changes.length} answered, then killed after ${killAfter} + ${killDelayMs} ms`);
        running = undefined;
      }

      const db = await openDb();
      try {
        const wrong: string[] = [];
        let unanswered = 0;
        let unansweredWhole = 0;
        for (const { change, round, answer, body } of sent) {
          const state = await stateOf(db, change);
          const what = `round ${round}, ${change.kind} ${'requestId' in change ? `request ${change.requestId}` : change.account.username}`;
          if (answer === 'none') {
            unanswered++;
            if (state === 'whole') unansweredWhole++;
            else if (state !== 'absent') wrong.push(`${what}, unanswered: ${state}`);
          } else if (answer !== 200) wrong.push(`${what}: answered ${answer} ${JSON.stringify(body)}`);
          else if (state !== 'whole') wrong.push(`${what}, answered 200: ${state}`);
        }
        t.diagnostic(`${sent.length} changes sent: ${sent.length - unanswered} answered 200, ${unanswered} unanswered (${unansweredWhole} of them whole)`);
        assert.deepEqual(wrong, []);
        assert.ok(unanswered >= ROUNDS, 'each kill left at least one change in flight');
        // The changes never sent (the rest of a killed round's queue) left nothing.
        for (const change of seeded.filter((c) => !sent.some((s) => s.change === c))) {
          assert.equal(await stateOf(db, change), 'absent', `never sent: ${change.kind}`);
        }
      } finally {
        await db.close();
      }

    });
  });
}
