/** POST /accounts/rest/sessions: website-token sign-in, the bot challenge and brute-force protection. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { accountFailureKey } from '../src/repositories/login-failures.js';
import { unlockAccount } from '../src/services/sign-in.js';
import { permissionsOf } from '../src/services/roles.js';
import { API, MINUTE, TestClock, createAccount, postSignIn, sessionCookieOf, signIn, solvedChallenge } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const INVALID_CHALLENGE = { error: 'Invalid Security Challenge Response', code: 400 };
const INVALID_CREDENTIALS = { error: 'Invalid username or website token.', code: 401 };
const LOCKED = { error: 'This account is locked. Please request an unlock.', code: 423 };

for (const kind of DATABASE_KINDS) {
  describe(`sign-in on ${kind}`, () => {
    let db: Database;
    let app: App;
    let clock: TestClock;

    before(async () => {
      db = await createTestDatabase(kind);
      clock = new TestClock();
      app = createTestApp({ db, fixture, clock });
      await app.ready();
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    let counter = 0;
    /** A fresh account (unique name) for one test. */
    const freshAccount = (options: Parameters<typeof createAccount>[1] extends infer O ? Omit<O & object, 'username'> : never = {}) =>
      createAccount(db, { username: `person${++counter}`, ...options });

    async function failures(key: string): Promise<number | undefined> {
      const { rows } = await db.query<{ failures: number }>('select failures from login_failures where key = $1', [key]);
      return rows[0]?.failures;
    }

    async function accountRow(id: number) {
      const { rows } = await db.query<{ active: boolean; closed: boolean; last_authenticated: Date | null }>(
        'select active, closed, last_authenticated from accounts where id = $1',
        [id],
      );
      return rows[0];
    }

    async function updatesOf(id: number) {
      const { rows } = await db.query<{ comment: string; username: string; active: boolean }>(
        'select comment, username, active from account_updates where account_id = $1 order by id',
        [id],
      );
      return rows;
    }

    async function sessionCount(id: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from sessions where account_id = $1', [id]);
      return rows[0]?.n ?? 0;
    }

    describe('website token', () => {
      test('signs in by username or email in any letter case: the user and permissions, a new session, last_authenticated set', async () => {
        const person = await freshAccount({ roles: ['help-desk'] });
        for (const id of [person.username, person.username.toUpperCase(), `  ${person.email.toUpperCase()} `]) {
          clock.advance(MINUTE);
          const response = await postSignIn(app, id, person.token);
          assert.equal(response.statusCode, 200, id);
          assert.deepEqual(response.json(), { username: person.username, permissions: permissionsOf(['help-desk']) });
          assert.ok(sessionCookieOf(response));
          assert.deepEqual((await accountRow(person.id))?.last_authenticated, clock.now());
        }
        assert.equal(await sessionCount(person.id), 3, 'one session per sign-in');
      });

      test('a wrong token, an unknown id, a closed account and an account without a token: 401 with one and the same body', async () => {
        const person = await freshAccount();
        const closed = await freshAccount({ state: 'closed' });
        const tokenless = await freshAccount({ token: null });
        const attempts: [string, string][] = [
          [person.username, `${person.token}x`],
          ['nobody.here', person.token],
          [closed.username, closed.token],
          [tokenless.username, ''],
          [tokenless.username, person.token],
        ];
        for (const [id, token] of attempts) {
          const response = await postSignIn(app, id, token);
          assert.equal(response.statusCode, 401, id);
          assert.equal(response.body, JSON.stringify(INVALID_CREDENTIALS));
          assert.equal(sessionCookieOf(response), undefined, 'no session');
        }
        assert.equal((await accountRow(person.id))?.last_authenticated, null);
      });

      test('a locked account: 423, even with the right token', async () => {
        const locked = await freshAccount({ state: 'locked' });
        const response = await postSignIn(app, locked.username, locked.token);
        assert.equal(response.statusCode, 423);
        assert.deepEqual(response.json(), LOCKED);
      });

      test('the body is checked: unknown fields and over-long values → 400, nothing counted', async () => {
        const person = await freshAccount();
        const challenge = await solvedChallenge(app);
        // Told in words with the field they are about, never the validator's text.
        const cases: [Record<string, unknown>, string, Record<string, string> | undefined][] = [
          [{ id: person.username, token: 'x', botChallengeResponse: challenge, remember: true }, 'The field remember is not accepted.', undefined],
          [{ id: 'x'.repeat(256), token: 'x', botChallengeResponse: challenge }, 'Username or email: Must be less than 255 characters (256/255)', { id: 'Must be less than 255 characters (256/255)' }],
          [{ id: person.username, token: 'x'.repeat(513), botChallengeResponse: challenge }, 'Token: Must be less than 512 characters (513/512)', { token: 'Must be less than 512 characters (513/512)' }],
          [
            { id: person.username, token: 'x', botChallengeResponse: 'x'.repeat(8193) },
            'Security challenge: Must be less than 8192 characters (8193/8192)',
            { botChallengeResponse: 'Must be less than 8192 characters (8193/8192)' },
          ],
          [{ id: person.username, token: 'x' }, 'Security challenge: This field is required.', { botChallengeResponse: 'This field is required.' }],
          [{ id: { name: person.username }, token: 'x', botChallengeResponse: challenge }, 'Username or email: This value is not valid.', { id: 'This value is not valid.' }],
        ];
        for (const [payload, message, fields] of cases) {
          const response = await app.inject({ method: 'POST', url: `${API}/sessions`, payload });
          assert.equal(response.statusCode, 400, message);
          assert.deepEqual(response.json(), fields ? { error: message, code: 400, fields } : { error: message, code: 400 });
        }
        assert.equal(await failures(accountFailureKey(person.id)), undefined);
      });
    });

    describe('brute force', () => {
      test('the 5th failure locks the account (423), records why, and ends its sessions; the right token then → 423', async () => {
        const person = await freshAccount();
        await signIn(app, person.username, person.token);
        assert.equal(await sessionCount(person.id), 1);
        for (let i = 1; i <= 4; i++) {
          const response = await postSignIn(app, person.username, 'wrong');
          assert.equal(response.statusCode, 401, `attempt ${i}`);
          assert.deepEqual(response.json(), INVALID_CREDENTIALS);
          assert.equal(await failures(accountFailureKey(person.id)), i);
        }
        assert.equal((await accountRow(person.id))?.active, true);
        const fifth = await postSignIn(app, person.username, 'wrong');
        assert.equal(fifth.statusCode, 423);
        assert.deepEqual(fifth.json(), LOCKED);
        assert.equal((await accountRow(person.id))?.active, false);
        assert.deepEqual(await updatesOf(person.id), [{ comment: 'Locked after 5 failed sign-in attempts.', username: 'system', active: false }]);
        assert.equal(await sessionCount(person.id), 0, 'the lock ended its sessions');
        const right = await postSignIn(app, person.username, person.token);
        assert.equal(right.statusCode, 423);
        assert.deepEqual(right.json(), LOCKED);
        assert.equal(sessionCookieOf(right), undefined);
        assert.equal((await updatesOf(person.id)).length, 1, 'locked once');
      });

      test('username, email and letter-case variants count together', async () => {
        const person = await freshAccount({ email: `Mixed.Case${counter + 1}@Example.TEST` });
        const ids = [person.username, person.email, person.username.toUpperCase(), ` ${person.email.toLowerCase()} `];
        for (const id of ids) assert.equal((await postSignIn(app, id, 'wrong')).statusCode, 401, id);
        assert.equal(await failures(accountFailureKey(person.id)), 4);
        const fifth = await postSignIn(app, person.email.toUpperCase(), 'wrong');
        assert.equal(fifth.statusCode, 423);
        assert.equal((await accountRow(person.id))?.active, false);
      });

      test('50 parallel bad attempts count exactly 50, and lock once', async () => {
        const person = await freshAccount();
        const challenges = await Promise.all(Array.from({ length: 50 }, () => solvedChallenge(app)));
        const responses = await Promise.all(
          challenges.map((botChallengeResponse) =>
            app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: 'wrong', botChallengeResponse } }),
          ),
        );
        assert.equal(await failures(accountFailureKey(person.id)), 50);
        const statuses = responses.map((r) => r.statusCode);
        assert.equal(statuses.filter((s) => s === 401).length, 4);
        assert.equal(statuses.filter((s) => s === 423).length, 46);
        assert.deepEqual(await updatesOf(person.id), [{ comment: 'Locked after 5 failed sign-in attempts.', username: 'system', active: false }]);
      });

      test('an unknown identifier is answered exactly as a known one, attempt by attempt', async () => {
        const person = await freshAccount();
        const unknown = `  No.Such.Person${counter}@Example.test `;
        for (let i = 1; i <= 8; i++) {
          const known = await postSignIn(app, person.username, 'wrong');
          const other = await postSignIn(app, unknown, 'wrong');
          assert.equal(other.statusCode, known.statusCode, `attempt ${i}`);
          assert.equal(other.body, known.body, `attempt ${i}`);
          assert.equal(known.statusCode, i < 5 ? 401 : 423);
        }
        assert.equal(await failures(`id:${unknown.trim().toLowerCase()}`), 8);
      });

      test('a success resets the counter', async () => {
        const person = await freshAccount();
        for (let i = 0; i < 4; i++) await postSignIn(app, person.username, 'wrong');
        assert.equal(await failures(accountFailureKey(person.id)), 4);
        assert.equal((await postSignIn(app, person.username, person.token)).statusCode, 200);
        assert.equal(await failures(accountFailureKey(person.id)), undefined);
        for (let i = 0; i < 4; i++) assert.equal((await postSignIn(app, person.username, 'wrong')).statusCode, 401);
        assert.equal((await accountRow(person.id))?.active, true);
      });

      test('unlocking (repository) resets the counter, so the account can sign in and fail again', async () => {
        const person = await freshAccount();
        for (let i = 0; i < 5; i++) await postSignIn(app, person.username, 'wrong');
        assert.equal((await accountRow(person.id))?.active, false);
        assert.equal(await db.transaction((tx) => unlockAccount(tx, person.id, { comment: 'Unlocked after a call.', username: 'helpdesk' })), true);
        assert.equal(await failures(accountFailureKey(person.id)), undefined);
        assert.deepEqual((await updatesOf(person.id)).at(-1), { comment: 'Unlocked after a call.', username: 'helpdesk', active: true });
        assert.equal((await postSignIn(app, person.username, 'wrong')).statusCode, 401);
        assert.equal((await postSignIn(app, person.username, person.token)).statusCode, 200);
      });

      test('the maximum is a setting', async () => {
        const strict = createTestApp({ db, fixture, clock, server: { loginMaxFailures: 2 } });
        try {
          const person = await freshAccount();
          assert.equal((await postSignIn(strict, person.username, 'wrong')).statusCode, 401);
          assert.equal((await postSignIn(strict, person.username, 'wrong')).statusCode, 423);
          assert.deepEqual(await updatesOf(person.id), [{ comment: 'Locked after 2 failed sign-in attempts.', username: 'system', active: false }]);
        } finally {
          await strict.close();
        }
      });
    });

    describe('bot challenge', () => {
      test('GET /accounts/botchallengeendpoint: a signed PBKDF2 challenge that expires in 10 minutes', async () => {
        const response = await app.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint` });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['cache-control'], 'no-store');
        const body = response.json<{ code: number; ok: { parameters: Record<string, unknown>; signature: string } }>();
        assert.equal(body.code, 200);
        assert.deepEqual(Object.keys(body.ok.parameters).sort(), ['algorithm', 'cost', 'expiresAt', 'keyLength', 'keyPrefix', 'nonce', 'salt']);
        assert.equal(body.ok.parameters.algorithm, 'PBKDF2/SHA-256');
        assert.equal(body.ok.parameters.cost, 1);
        assert.equal(body.ok.parameters.expiresAt, Math.floor((clock.now().getTime() + 10 * MINUTE) / 1000));
        assert.match(body.ok.signature, /^[0-9a-f]{64}$/);
      });

      test('a solved challenge is accepted once; reused → 400 and nothing is counted', async () => {
        const person = await freshAccount();
        const botChallengeResponse = await solvedChallenge(app);
        const payload = { id: person.username, token: 'wrong', botChallengeResponse };
        assert.equal((await app.inject({ method: 'POST', url: `${API}/sessions`, payload })).statusCode, 401);
        assert.equal(await failures(accountFailureKey(person.id)), 1);
        const again = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { ...payload, token: person.token } });
        assert.equal(again.statusCode, 400);
        assert.deepEqual(again.json(), INVALID_CHALLENGE);
        assert.equal(await failures(accountFailureKey(person.id)), 1, 'not counted');
        assert.equal(sessionCookieOf(again), undefined);
      });

      test('used once means once across server processes sharing the database, which share the generated secret', async () => {
        // A second app on the same database: nothing of the first app's memory is shared.
        const other = createTestApp({ db, fixture, clock });
        try {
          const person = await freshAccount();
          const botChallengeResponse = await solvedChallenge(app);
          const first = await other.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse } });
          assert.equal(first.statusCode, 200, 'a challenge of one process is accepted by another');
          const second = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse } });
          assert.deepEqual(second.json(), INVALID_CHALLENGE);
          const { rows } = await db.query<{ n: number }>("select count(*)::int as n from server_secrets where name = 'challenge'");
          assert.deepEqual(rows, [{ n: 1 }]);
        } finally {
          await other.close();
        }
      });

      test('expired (after 10 minutes), tampered, wrongly solved or malformed → 400, nothing counted', async () => {
        const person = await freshAccount();
        const decode = (text: string) => JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
        const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

        const expired = await solvedChallenge(app);
        clock.advance(10 * MINUTE + 1000);

        const tamperedSignature = decode(await solvedChallenge(app));
        const last = tamperedSignature.challenge.signature.at(-1);
        tamperedSignature.challenge.signature = `${tamperedSignature.challenge.signature.slice(0, -1)}${last === '0' ? '1' : '0'}`;

        const cheaper = decode(await solvedChallenge(app));
        cheaper.challenge.parameters.expiresAt += 3600;

        const wrongKey = decode(await solvedChallenge(app));
        wrongKey.solution.derivedKey = `ff${wrongKey.solution.derivedKey.slice(2)}`;

        const wrongCounter = decode(await solvedChallenge(app));
        wrongCounter.solution.counter += 1;

        const unsigned = decode(await solvedChallenge(app));
        delete unsigned.challenge.signature;

        const cases: [string, string][] = [
          ['expired', expired],
          ['a tampered signature', encode(tamperedSignature)],
          ['tampered parameters', encode(cheaper)],
          ['a wrong derived key', encode(wrongKey)],
          ['a wrong counter', encode(wrongCounter)],
          ['no signature', encode(unsigned)],
          ["the widget's test payload", encode({ challenge: null, solution: null, test: true })],
          ['not base64', 'not base64!'],
          ['base64 of no JSON', Buffer.from('hello').toString('base64')],
          ['an empty string', ''],
          ['JSON of the wrong shape', encode({ challenge: 'x', solution: [] })],
        ];
        for (const [name, botChallengeResponse] of cases) {
          const response = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse } });
          assert.equal(response.statusCode, 400, name);
          assert.deepEqual(response.json(), INVALID_CHALLENGE, name);
        }
        assert.equal(await failures(accountFailureKey(person.id)), undefined);
        assert.equal((await accountRow(person.id))?.last_authenticated, null);
      });

      test('a challenge signed with another secret (PORTAL_CHALLENGE_SECRET) is refused', async () => {
        const configured = createTestApp({ db, fixture, clock, server: { challengeSecret: 'x'.repeat(40) } });
        try {
          const person = await freshAccount();
          const foreign = await solvedChallenge(configured);
          const response = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse: foreign } });
          assert.deepEqual(response.json(), INVALID_CHALLENGE);
          const own = await configured.inject({
            method: 'POST',
            url: `${API}/sessions`,
            payload: { id: person.username, token: person.token, botChallengeResponse: await solvedChallenge(configured) },
          });
          assert.equal(own.statusCode, 200);
        } finally {
          await configured.close();
        }
      });

      test('used challenges are kept until they expire, then purged', async () => {
        await db.query('delete from used_challenges');
        await db.query("insert into used_challenges (signature_hash, expires_at) values ('old', $1)", [new Date(clock.now().getTime() - 1000)]);
        const person = await freshAccount();
        const response = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse: await solvedChallenge(app) } });
        assert.equal(response.statusCode, 200);
        const { rows } = await db.query<{ signature_hash: string; expires_at: Date }>('select signature_hash, expires_at from used_challenges');
        assert.equal(rows.length, 1);
        assert.match(rows[0]?.signature_hash ?? '', /^[0-9a-f]{64}$/);
        assert.equal(rows[0]?.expires_at.getTime(), Math.floor((clock.now().getTime() + 10 * MINUTE) / 1000) * 1000);
      });

      test('the challenge a browser gets at the default cost asks for about 1.3 million PBKDF2 rounds, and its solution signs the person in', async () => {
        // The work is counted, not timed (a timed test fails on a busy machine; the widget's speed
        // is a matter for the benchmark): 5,000 rounds an attempt, and a key qualifies when its
        // first byte is 0, so 256 attempts on average (about 0.3 s on one thread of these machines).
        const real = createTestApp({ db, fixture, clock, server: { challengeCost: 5000 } });
        try {
          const response = await real.inject({ method: 'GET', url: `${API}/accounts/botchallengeendpoint` });
          const { ok: challenge } = response.json<{ ok: { parameters: { cost: number; keyPrefix: string }; signature: string } }>();
          assert.deepEqual([challenge.parameters.cost, challenge.parameters.keyPrefix], [5000, '00']);
          let attempts = 0;
          const counted: typeof deriveKey = (...args) => {
            attempts++;
            return deriveKey(...args);
          };
          const solution = await solveChallenge({ challenge: challenge as never, deriveKey: counted });
          assert.ok(solution);
          assert.equal(solution.counter, attempts - 1, 'one derivation an attempt, counting from 0');
          const person = await freshAccount();
          const botChallengeResponse = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
          const signIn = await real.inject({ method: 'POST', url: `${API}/sessions`, payload: { id: person.username, token: person.token, botChallengeResponse } });
          assert.equal(signIn.statusCode, 200, signIn.body);
        } finally {
          await real.close();
        }
      });
    });
  });
}
