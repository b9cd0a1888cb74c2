/**
 * The verification flow (server/docs/self-service.md): codes mailed through the outbox, their
 * lifetime, tries, single use and hourly limit, answers that say nothing about an address, and
 * the content calls that use them (unlock request, website-token reset, smart-card
 * registration), through app.inject on PGlite (and PostgreSQL when DATABASE_URL is set); plus
 * one code mail delivered end to end by the mail worker over SMTP after the server was down.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { allMails, findMailsTo } from '../src/repositories/mail.js';
import { createMailWorker, FIRST_RETRY_DELAY_MS, smtpTransport } from '../src/services/mail-worker.js';
import { CODE_LIFETIME_MS, generateVerificationCode } from '../src/services/verification.js';
import { API, HOUR, MINUTE, TestClock, as, createAccount, postSignIn, signIn, solvedChallenge } from './auth-helpers.js';
import { createTestCa, dodSubject, proxyCertificateHeaders, TEST_PROXY, type TestCertificate } from './certificate-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';
import { downSmtpPort, startSmtpCatcher } from './mail-helpers.js';
import { askForCode, codeFor, count, INVALID_CHALLENGE, INVALID_CODE, mailedCode, OK, otherCode, withCode } from './visitor-helpers.js';

const VALID_EMAIL = 'Please enter a valid email.';
const TOO_MANY = { error: 'Too many verification codes were requested for this address. Please try again in an hour.', code: 429 };
const LOCKED = { error: 'This account is locked. Please request an unlock.', code: 403 };
const CLOSED = { error: 'This account is closed.', code: 403 };
const UNLOCK_UNAVAILABLE = { error: 'Unlock request cannot be submitted at this time.', code: 401 };
const NOT_LOCKED = { error: 'This account is not locked.', code: 400 };
const UNLOCK_PENDING = { error: 'An unlock request for this account is already pending.', code: 400 };
const NO_CERTIFICATE = { error: 'No verified client certificate was presented.', code: 400 };
const CERTIFICATE_TAKEN = { error: 'This certificate is already registered to another account.', code: 409 };
const AUTH_CHANGE_PENDING = { error: 'An authentication change request is already pending for this account.', code: 409 };

let fixture: Fixture;
let cards: Record<'auto' | 'manual' | 'spare', TestCertificate>;
before(async () => {
  fixture = createFixture();
  const ca = await createTestCa();
  cards = {
    auto: await ca.issue(dodSubject('HOLDER.CARD.3333333333')),
    manual: await ca.issue(dodSubject('DOE.JANE.4444444444')),
    spare: await ca.issue(dodSubject('ROE.RICHARD.5555555555')),
  };
});
after(() => fixture.remove());

test('codes are six digits, leading zeros kept, and spread over the whole range', () => {
  const codes = Array.from({ length: 2000 }, generateVerificationCode);
  assert.ok(codes.every((c) => /^[0-9]{6}$/.test(c)));
  assert.ok(new Set(codes).size > 1990, 'codes do not repeat much');
  assert.ok(codes.some((c) => c.startsWith('0')), 'leading zeros are kept');
  assert.equal(CODE_LIFETIME_MS, 10 * MINUTE);
});

for (const kind of DATABASE_KINDS) {
  describe(`the verification flow on ${kind}`, () => {
    let db: Database;
    let app: App;
    let clock: TestClock;

    before(async () => {
      db = await createTestDatabase(kind);
      clock = new TestClock();
      app = createTestApp({ db, fixture, clock, server: { trustedProxies: [TEST_PROXY] } });
      await app.ready();
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    const verify = (email: string, code: string | undefined, headers: Record<string, string> = {}) =>
      withCode(app, '/accounts/verifyrequestisvalid', code, { email }, headers);
    const codeRows = async (email: string) =>
      (await db.query<{ code_hash: string; created_at: Date; expires_at: Date; tries: number; used_at: Date | null }>(
        'select code_hash, created_at, expires_at, tries, used_at from verification_codes where email = $1 order by id',
        [email],
      )).rows;

    describe('step 1: POST /mail/verifywithbotchallenge', () => {
      test('a known and an unknown address get the same answer; only the known one is mailed; the code is kept only as an HMAC', async () => {
        await createAccount(db, { username: 'known.one', email: 'Known.One@Example.test' });
        const known = await askForCode(app, ' known.one@EXAMPLE.test ');
        const unknown = await askForCode(app, 'nobody.here@example.test');
        assert.equal(known.statusCode, 200, known.body);
        assert.equal(unknown.statusCode, 200);
        assert.deepEqual(known.json(), OK);
        assert.equal(known.body, unknown.body);
        assert.equal(known.headers['content-type'], unknown.headers['content-type']);
        assert.equal(known.headers['cache-control'], 'no-store');

        const [mail, ...more] = await findMailsTo(db, 'known.one@example.test');
        assert.equal(more.length, 0);
        assert.ok(mail);
        assert.equal(mail.to, 'Known.One@Example.test', 'mailed to the address as the account has it');
        assert.equal(mail.subject, 'Your verification code');
        const code = await mailedCode(db, 'known.one@example.test');
        assert.ok(code);
        assert.match(mail.text, /valid for 10 minutes/);
        assert.deepEqual(await findMailsTo(db, 'nobody.here@example.test'), [], 'no mail to an unknown address');

        // A row for each, known or not; the code itself is nowhere.
        for (const email of ['known.one@example.test', 'nobody.here@example.test']) {
          const rows = await codeRows(email);
          assert.equal(rows.length, 1, email);
          const [row] = rows;
          assert.ok(row);
          assert.match(row.code_hash, /^[0-9a-f]{64}$/);
          assert.equal(row.tries, 0);
          assert.equal(row.used_at, null);
          assert.equal(row.expires_at.getTime() - row.created_at.getTime(), 10 * MINUTE);
        }
        const dump = JSON.stringify((await db.query('select * from verification_codes')).rows);
        assert.ok(!dump.includes(code), 'the code is not stored');
      });

      test('the address of a new account request (no account yet) is mailed too', async () => {
        await db.query(
          `insert into requests (kind, status, username, email, created_at, updated_at)
           values ('new', 'denied', 'applicant.one', 'Applicant.One@Example.test', now(), now())`,
        );
        const response = await askForCode(app, 'applicant.one@example.test');
        assert.deepEqual(response.json(), OK);
        assert.ok(await mailedCode(db, 'applicant.one@example.test'));
        assert.equal((await findMailsTo(db, 'applicant.one@example.test'))[0]?.to, 'Applicant.One@Example.test');
      });

      test('a bad address or a bad, missing or reused challenge: 400, nothing stored, nothing mailed', async () => {
        await createAccount(db, { username: 'bad.input' });
        const codes = await count(db, 'verification_codes');
        const mails = (await allMails(db)).length;
        for (const email of ['', '   ', 'not-an-address', 'bad.input@localhost', 'bad.input@example.test\r\nBcc: x@example.test', 'a b@example.test', `${'x'.repeat(250)}@example.test`]) {
          const response = await askForCode(app, email);
          assert.equal(response.statusCode, 400, JSON.stringify(email));
          assert.deepEqual(response.json(), { error: VALID_EMAIL, code: 400, fields: { email: VALID_EMAIL } });
        }
        for (const challenge of ['', 'garbage', Buffer.from('{"challenge":{},"solution":{}}').toString('base64')]) {
          const response = await askForCode(app, 'bad.input@example.test', challenge);
          assert.equal(response.statusCode, 400);
          assert.deepEqual(response.json(), INVALID_CHALLENGE);
        }
        const missing = await app.inject({ method: 'POST', url: `${API}/mail/verifywithbotchallenge`, payload: { email: 'bad.input@example.test' } });
        assert.equal(missing.statusCode, 400);
        assert.equal(await count(db, 'verification_codes'), codes);
        assert.equal((await allMails(db)).length, mails);

        const challenge = await solvedChallenge(app);
        assert.equal((await askForCode(app, 'bad.input@example.test', challenge)).statusCode, 200);
        const reused = await askForCode(app, 'bad.input@example.test', challenge);
        assert.deepEqual(reused.json(), INVALID_CHALLENGE, 'a challenge is accepted once');
        assert.equal(await count(db, 'verification_codes'), codes + 1);
      });

      test('more than 5 sends an hour for an address: 429, known or unknown alike; an hour later it works again', async () => {
        await createAccount(db, { username: 'many.codes' });
        for (const email of ['many.codes@example.test', 'many.unknown@example.test']) {
          for (let i = 1; i <= 5; i++) assert.deepEqual((await askForCode(app, email)).json(), OK, `${email} #${i}`);
          const refused = await askForCode(app, email.toUpperCase());
          assert.equal(refused.statusCode, 429);
          assert.deepEqual(refused.json(), TOO_MANY);
          assert.equal((await codeRows(email)).length, 5, 'a refused send writes no code');
          clock.advance(30 * MINUTE);
          assert.deepEqual((await askForCode(app, email)).json(), TOO_MANY, 'still within the hour');
          clock.advance(30 * MINUTE);
          assert.deepEqual((await askForCode(app, email)).json(), OK, 'an hour after the first sends');
        }
        assert.equal((await findMailsTo(db, 'many.codes@example.test')).length, 6);
        assert.equal((await findMailsTo(db, 'many.unknown@example.test')).length, 0);
        // Another address is not affected.
        assert.deepEqual((await askForCode(app, 'someone.else@example.test')).json(), OK);
      });
    });

    describe('step 2: POST /accounts/verifyrequestisvalid', () => {
      test('the code is good for its address for 10 minutes, and a read does not use it up', async () => {
        const account = await createAccount(db, { username: 'ten.minutes' });
        const code = await codeFor(app, db, account.email);
        for (let i = 0; i < 3; i++) {
          const response = await verify(account.email, code);
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), OK);
        }
        assert.deepEqual((await verify(' TEN.MINUTES@example.test ', code, {})).json(), OK, 'any letter case');
        const withChallenge = await withCode(app, '/accounts/verifyrequestisvalid', code, { email: account.email, botChallengeResponse: 'already used' });
        assert.deepEqual(withChallenge.json(), OK, 'a challenge response is accepted and ignored');
        assert.deepEqual((await verify('somebody.else@example.test', code)).json(), INVALID_CODE, 'not for another address');
        clock.advance(CODE_LIFETIME_MS - 1);
        assert.deepEqual((await verify(account.email, code)).json(), OK);
        clock.advance(1);
        const expired = await verify(account.email, code);
        assert.equal(expired.statusCode, 401);
        assert.deepEqual(expired.json(), INVALID_CODE);
      });

      test('wrong tries are counted: four do not hurt, the fifth kills the code; malformed ones are refused without a try', async () => {
        const account = await createAccount(db, { username: 'five.tries' });
        const code = await codeFor(app, db, account.email);
        for (let i = 0; i < 4; i++) assert.deepEqual((await verify(account.email, otherCode(code))).json(), INVALID_CODE);
        for (const header of ['', 'Bearer', `Bearer ${code.slice(1)}`, `Bearer ${code}0`, `Basic ${code}`, `Bearer x${code.slice(1)}`]) {
          const response = await app.inject({ method: 'POST', url: `${API}/accounts/verifyrequestisvalid`, headers: header ? { authorization: header } : {}, payload: { email: account.email } });
          assert.equal(response.statusCode, 401, header);
          assert.deepEqual(response.json(), INVALID_CODE);
        }
        assert.equal((await codeRows(account.email))[0]?.tries, 4);
        assert.deepEqual((await verify(account.email, code)).json(), OK, 'the right code after four wrong ones');

        const next = await codeFor(app, db, account.email);
        for (let i = 0; i < 5; i++) assert.deepEqual((await verify(account.email, otherCode(next))).json(), INVALID_CODE);
        assert.equal((await codeRows(account.email))[1]?.tries, 5);
        assert.deepEqual((await verify(account.email, next)).json(), INVALID_CODE, 'dead after the fifth wrong try');
      });

      test('a new code replaces the earlier one', async () => {
        const account = await createAccount(db, { username: 'replaced' });
        const first = await codeFor(app, db, account.email);
        const second = await codeFor(app, db, account.email);
        if (first !== second) assert.deepEqual((await verify(account.email, first)).json(), INVALID_CODE);
        assert.deepEqual((await verify(account.email, second)).json(), OK);
      });

      test('a locked account: 403 with the text the unlock flow looks for; a closed one: 403; a wrong code is 401 first', async () => {
        const locked = await createAccount(db, { username: 'step2.locked', state: 'locked' });
        const code = await codeFor(app, db, locked.email);
        const response = await verify(locked.email, code);
        assert.equal(response.statusCode, 403);
        assert.deepEqual(response.json(), LOCKED);
        assert.match(response.json<{ error: string }>().error, /locked/);
        assert.deepEqual((await verify(locked.email, otherCode(code))).json(), INVALID_CODE);
        const closed = await createAccount(db, { username: 'step2.closed', state: 'closed' });
        assert.deepEqual((await verify(closed.email, await codeFor(app, db, closed.email))).json(), CLOSED);
      });

      test('without a body: 400 from validation (public, no anti-forgery token needed)', async () => {
        const response = await app.inject({ method: 'POST', url: `${API}/accounts/verifyrequestisvalid`, headers: { authorization: 'Bearer 123456' } });
        assert.equal(response.statusCode, 400);
      });
    });

    describe('POST /requests/unlock', () => {
      const unlock = (email: string, code: string | undefined, reason: string) => withCode(app, '/requests/unlock', code, { email, reason });

      test('a locked account: 400 for a bad reason, 200 with a pending request, then 400 while it is pending; the code is used up', async () => {
        const locked = await createAccount(db, { username: 'unlock.me', state: 'locked' });
        const code = await codeFor(app, db, locked.email);
        const requests = () => count(db, 'requests', "kind = 'unlock' and account_id = $1", [locked.id]);

        const blank = await unlock(locked.email, code, '  ');
        assert.equal(blank.statusCode, 400);
        assert.deepEqual(blank.json(), { error: 'Reason is required', code: 400, fields: { reason: 'Reason is required' } });
        const long = await unlock(locked.email, code, 'x'.repeat(151));
        assert.deepEqual(long.json(), { error: 'Must be less than 150 characters (151/150)', code: 400, fields: { reason: 'Must be less than 150 characters (151/150)' } });
        assert.deepEqual((await unlock(locked.email, otherCode(code), 'Forgot my token.')).json(), INVALID_CODE);
        assert.equal(await requests(), 0);

        const response = await unlock(locked.email, code, ' Forgot my token. ');
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), OK);
        const { rows } = await db.query<{ id: string; status: string; username: string; email: string; reason: string; created_at: Date }>(
          "select id, status, username, email, reason, created_at from requests where kind = 'unlock' and account_id = $1",
          [locked.id],
        );
        assert.deepEqual(rows.map((r) => ({ ...r, id: undefined })), [
          { id: undefined, status: 'pending', username: 'unlock.me', email: 'unlock.me@example.test', reason: 'Forgot my token.', created_at: clock.now() },
        ]);
        const updates = await db.query('select status, username, comment from request_updates where request_id = $1', [rows[0]?.id]);
        assert.deepEqual(updates.rows, [{ status: 'pending', username: 'unlock.me', comment: 'Request submitted.' }]);
        assert.deepEqual((await unlock(locked.email, code, 'Again.')).json(), INVALID_CODE, 'the code was used up');

        const next = await codeFor(app, db, locked.email);
        assert.deepEqual((await unlock(locked.email, next, 'Again.')).json(), UNLOCK_PENDING);
        assert.deepEqual((await unlock(locked.email, next, 'Again.')).json(), UNLOCK_PENDING, 'a refused request does not use the code up');
        assert.equal(await requests(), 1);
      });

      test('an active account: 400; a closed one, or an address without an account: 401; nothing stored', async () => {
        const active = await createAccount(db, { username: 'not.locked' });
        assert.deepEqual((await unlock(active.email, await codeFor(app, db, active.email), 'Why not.')).json(), NOT_LOCKED);
        const closed = await createAccount(db, { username: 'unlock.closed', state: 'closed' });
        const refused = await unlock(closed.email, await codeFor(app, db, closed.email), 'Please.');
        assert.equal(refused.statusCode, 401);
        assert.deepEqual(refused.json(), UNLOCK_UNAVAILABLE);
        await db.query(
          "insert into requests (kind, status, username, email, created_at, updated_at) values ('new', 'pending', 'no.account', 'no.account@example.test', now(), now())",
        );
        assert.deepEqual((await unlock('no.account@example.test', await codeFor(app, db, 'no.account@example.test'), 'Please.')).json(), UNLOCK_UNAVAILABLE);
        assert.equal(await count(db, 'requests', "kind = 'unlock' and username in ('not.locked', 'unlock.closed', 'no.account')"), 0);
      });
    });

    describe('POST /accounts/credentials/reset', () => {
      const reset = (email: string, code: string | undefined) => withCode(app, '/accounts/credentials/reset', code, { email });

      test('a new token that signs in; the old token, the sessions and the code stop working; a notice without the token', async () => {
        const account = await createAccount(db, { username: 'reset.me', token: 'the-old-website-token-of-reset-me' });
        const session = await signIn(app, 'reset.me', account.token);
        await db.query("insert into login_failures (key, failures, last_failure_at) values ($1, 3, now())", [`account:${account.id}`]);
        const code = await codeFor(app, db, account.email);
        const response = await reset(account.email, code);
        assert.equal(response.statusCode, 200, response.body);
        const { ok: token } = response.json<{ ok: string }>();
        assert.match(token, /^[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(Object.keys(response.json()), ['ok']);

        assert.equal((await postSignIn(app, 'reset.me', account.token)).statusCode, 401, 'the old token is refused');
        const signedIn = await postSignIn(app, 'reset.me', token);
        assert.equal(signedIn.statusCode, 200, signedIn.body);
        const old = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(session) });
        assert.equal(old.statusCode, 401, 'the sessions of the account ended');
        assert.equal(await count(db, 'login_failures', 'key = $1', [`account:${account.id}`]), 0, 'the failed sign-in count is reset');
        assert.deepEqual((await reset(account.email, code)).json(), INVALID_CODE, 'the code was used up');

        const [notice] = await findMailsTo(db, account.email);
        assert.ok(notice);
        assert.equal(notice.subject, 'Your website token was replaced');
        assert.ok(!notice.text.includes(token), 'the token is never mailed');
        const update = await db.query('select comment, username, active from account_updates where account_id = $1', [account.id]);
        assert.deepEqual(update.rows, [{ comment: 'Website token regenerated after email verification.', username: 'reset.me', active: true }]);
      });

      test('a locked or closed account: 403; a smart-card-only account: 403; nothing changes', async () => {
        const locked = await createAccount(db, { username: 'reset.locked', state: 'locked' });
        assert.deepEqual((await reset(locked.email, await codeFor(app, db, locked.email))).json(), LOCKED);
        const closed = await createAccount(db, { username: 'reset.closed', state: 'closed' });
        assert.deepEqual((await reset(closed.email, await codeFor(app, db, closed.email))).json(), CLOSED);
        const card = await createAccount(db, { username: 'card.only' });
        await db.query("update accounts set authentication = '{certificate}' where id = $1", [card.id]);
        const code = await codeFor(app, db, card.email);
        assert.deepEqual((await reset(card.email, code)).json(), { error: 'This account does not sign in with a website token.', code: 403 });
        assert.equal((await postSignIn(app, 'reset.locked', locked.token)).statusCode, 423);
        assert.equal(await count(db, 'account_updates', 'account_id in ($1, $2, $3) and comment like $4', [locked.id, closed.id, card.id, 'Website token%']), 0);
        assert.deepEqual((await verify(card.email, code)).json(), OK, 'the code was not used up');
      });

      test('a wrong code: 401', async () => {
        const account = await createAccount(db, { username: 'reset.wrong' });
        const code = await codeFor(app, db, account.email);
        assert.deepEqual((await reset(account.email, otherCode(code))).json(), INVALID_CODE);
        assert.deepEqual((await reset(account.email, undefined)).json(), INVALID_CODE);
      });
    });

    describe('POST /cert/requests/authchange/token', () => {
      const register = (target: App, email: string, code: string, card: TestCertificate | undefined, reason?: string) =>
        target.inject({
          method: 'POST',
          url: `${API}/cert/requests/authchange/token`,
          remoteAddress: TEST_PROXY,
          headers: { authorization: `Bearer ${code}`, ...(card ? proxyCertificateHeaders(card) : {}) },
          payload: { email, ...(reason === undefined ? {} : { reason }) },
        });

      test('with automatic approval the card is bound at once and signs in; a card bound to another account is refused', async () => {
        const account = await createAccount(db, { username: 'card.holder' });
        const code = await codeFor(app, db, account.email);
        const without = await register(app, account.email, code, undefined);
        assert.equal(without.statusCode, 400);
        assert.deepEqual(without.json(), NO_CERTIFICATE);
        const untrusted = await app.inject({
          method: 'POST',
          url: `${API}/cert/requests/authchange/token`,
          remoteAddress: '10.0.0.99',
          headers: { authorization: `Bearer ${code}`, ...proxyCertificateHeaders(cards.auto) },
          payload: { email: account.email },
        });
        assert.deepEqual(untrusted.json(), NO_CERTIFICATE, 'certificate headers from an untrusted address are ignored');

        const response = await register(app, account.email, code, cards.auto, 'My new card.');
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { ok: true, code: 200, approved: true });
        const bound = await db.query<{ account_id: string; fingerprint: string }>("select account_id, fingerprint from account_certificates where identity = '3333333333'");
        assert.deepEqual(bound.rows.map((r) => [Number(r.account_id), r.fingerprint]), [[account.id, cards.auto.fingerprint]]);
        const auth = await db.query<{ authentication: string[] }>('select authentication from accounts where id = $1', [account.id]);
        assert.deepEqual(auth.rows[0]?.authentication, ['token', 'certificate']);
        const cardSignIn = await app.inject({ method: 'POST', url: `${API}/cert/sessions`, remoteAddress: TEST_PROXY, headers: proxyCertificateHeaders(cards.auto) });
        assert.equal(cardSignIn.statusCode, 200, cardSignIn.body);
        assert.equal(cardSignIn.json<{ username: string }>().username, 'card.holder');
        assert.equal((await findMailsTo(db, account.email))[0]?.subject, 'A smart card was registered to your account');
        assert.deepEqual((await register(app, account.email, code, cards.auto)).json(), INVALID_CODE, 'the code was used up');

        const other = await createAccount(db, { username: 'card.thief' });
        const otherCodeValue = await codeFor(app, db, other.email);
        const taken = await register(app, other.email, otherCodeValue, cards.auto);
        assert.equal(taken.statusCode, 409);
        assert.deepEqual(taken.json(), CERTIFICATE_TAKEN);
        assert.equal(await count(db, 'account_certificates', 'account_id = $1', [other.id]), 0);
        assert.deepEqual((await verify(other.email, otherCodeValue)).json(), OK, 'a refused registration does not use the code up');
      });

      test('without automatic approval a pending authentication change request holds the card', async () => {
        const manual = createTestApp({ db, fixture, clock, portal: { auto_cert_registration_approval: false }, server: { trustedProxies: [TEST_PROXY] } });
        await manual.ready();
        try {
          const account = await createAccount(db, { username: 'card.waiting' });
          const code = await codeFor(app, db, account.email);
          const long = await register(manual, account.email, code, cards.manual, 'x'.repeat(151));
          assert.deepEqual(long.json(), { error: 'Must be less than 150 characters (151/150)', code: 400, fields: { reason: 'Must be less than 150 characters (151/150)' } });
          const response = await register(manual, account.email, code, cards.manual);
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), { ok: true, code: 200, approved: false });
          assert.equal(await count(db, 'account_certificates', "identity = '4444444444'"), 0, 'not bound yet');
          const { rows } = await db.query<{ id: string; status: string; username: string; reason: string; details: Record<string, unknown> }>(
            "select id, status, username, reason, details from requests where kind = 'authchange' and account_id = $1",
            [account.id],
          );
          assert.equal(rows.length, 1);
          const [request] = rows;
          assert.ok(request);
          assert.equal(request.status, 'pending');
          assert.equal(request.username, 'card.waiting');
          assert.equal(request.reason, 'Reason optional');
          assert.deepEqual(request.details.authentication, ['certificate']);
          const certificate = request.details.certificate as Record<string, unknown>;
          assert.equal(certificate.identity, '4444444444');
          assert.equal(certificate.fingerprint, cards.manual.fingerprint);
          assert.deepEqual(certificate.issued_to, { common_name: 'DOE.JANE.4444444444', organization: 'U.S. Government', organizational_unit: ['CONTRACTOR', 'PKI', 'DoD'], country: 'US' });
          assert.equal((certificate.issued_by as { common_name: string }).common_name, 'Test DoD Root CA 3');
          assert.equal(typeof certificate.valid_from, 'string');
          assert.equal(certificate.country_of_citizenship, null);
          const updates = await db.query('select status, username, comment from request_updates where request_id = $1', [request.id]);
          assert.deepEqual(updates.rows, [{ status: 'pending', username: 'card.waiting', comment: 'Request submitted.' }]);

          const again = await register(manual, account.email, await codeFor(app, db, account.email), cards.spare, 'Another card.');
          assert.equal(again.statusCode, 409);
          assert.deepEqual(again.json(), AUTH_CHANGE_PENDING);
        } finally {
          await manual.close();
        }
      });

      test('a locked account: 403', async () => {
        const locked = await createAccount(db, { username: 'card.locked', state: 'locked' });
        assert.deepEqual((await register(app, locked.email, await codeFor(app, db, locked.email), cards.spare)).json(), LOCKED);
        assert.equal(await count(db, 'account_certificates', "identity = '5555555555'"), 0);
      });
    });

    test('the code mail waits in the outbox while the SMTP server is down and is delivered when it is back', async () => {
      const account = await createAccount(db, { username: 'mail.later', email: 'Mail.Later@Example.test' });
      await db.query('update mail_outbox set sent_at = now() where sent_at is null'); // earlier tests' mail is not this test's
      assert.deepEqual((await askForCode(app, account.email)).json(), OK);
      const from = 'web@example.test';
      const down = createMailWorker({ db, transport: smtpTransport(`smtp://127.0.0.1:${await downSmtpPort()}`), from, clock, pollMs: 60_000 });
      try {
        assert.deepEqual(await down.runOnce(), { sent: 0, failed: 1 });
      } finally {
        await down.stop();
      }
      const [queued] = await findMailsTo(db, account.email);
      assert.ok(queued);
      assert.equal(queued.sentAt, null);
      assert.equal(queued.attempts, 1);

      const smtp = await startSmtpCatcher();
      const worker = createMailWorker({ db, transport: smtpTransport(smtp.url), from, clock, pollMs: 60_000 });
      try {
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 0 }, 'not due yet');
        clock.advance(FIRST_RETRY_DELAY_MS);
        assert.deepEqual(await worker.runOnce(), { sent: 1, failed: 0 });
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 0 }, 'delivered once');
      } finally {
        await worker.stop();
        await smtp.close();
      }
      assert.equal(smtp.received.length, 1);
      const [mail] = smtp.received;
      assert.ok(mail);
      assert.deepEqual(mail.rcptTo, ['Mail.Later@example.test']);
      assert.equal(mail.headers.subject, 'Your verification code');
      const code = /Your verification code is ([0-9]{6})\./.exec(mail.text)?.[1];
      assert.ok(code, mail.text);
      assert.deepEqual((await verify(account.email, code)).json(), OK, 'the code as delivered works');
      clock.advance(HOUR);
    });
  });
}
