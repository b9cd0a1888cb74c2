/**
 * The requests a signed-in user submits about their own account: email changes (own and as a
 * surrogate, with mail to both addresses) and authentication changes both ways (the card
 * through a trusted proxy's headers, made here with @peculiar/x509), on PGlite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RULE_MESSAGES } from '@portal/api';
import { bindCertificate } from '../src/repositories/certificates.js';
import { isUniqueViolation } from '../src/repositories/unique-violation.js';
import { DEFAULT_CONFIGURATION } from '@portal/api';
import type { Database } from '../src/db/database.js';
import { httpStatusOf } from '../src/plugins/error-handler.js';
import { permissionsOf } from '../src/services/roles.js';
import { requestAuthChangeToToken, requestEmailChange, splitSponsor } from '../src/services/self-requests.js';
import { createAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { createTestCa, type TestCa } from './certificate-helpers.js';
import { DAY, FORBIDDEN, NOT_FOUND, call, count, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
let ca: TestCa;

/** A smart card (PEM) issued by the test CA. */
async function card(subject: string, validity?: { from: Date; to: Date }): Promise<string> {
  return (await ca.issue(subject, validity ? { validFrom: validity.from, validUntil: validity.to } : {})).pem;
}

before(async () => {
  fixture = createFixture();
  ca = await createTestCa('CN=DOD ID CA-99, OU=PKI, OU=DoD, O=U.S. Government, C=US');
});
after(() => fixture.remove());

const PROXY = '10.0.0.5';
const EMAIL_PENDING = { error: 'An email change request is already pending for this account.', code: 409 };
const AUTH_PENDING = { error: 'An authentication change request is already pending for this account.', code: 409 };
const NO_CERTIFICATE = { error: 'No verified client certificate was presented.', code: 400 };
const fieldsError = (fields: Record<string, string>, code = 400) => ({ error: Object.values(fields)[0], code, fields });

describe('taking a sponsor out of a reason', () => {
  test("' [GOVT SPONSOR: {email}]' at the end", () => {
    assert.deepEqual(splitSponsor('Lost my card [GOVT SPONSOR: boss@agency.test]'), { reason: 'Lost my card', sponsor: 'boss@agency.test' });
    assert.deepEqual(splitSponsor('Lost my card [GOVT SPONSOR: ]'), { reason: 'Lost my card', sponsor: '' });
    assert.deepEqual(splitSponsor(' [GOVT SPONSOR: boss@agency.test]'), { reason: '', sponsor: 'boss@agency.test' });
    assert.deepEqual(splitSponsor('Lost my card'), { reason: 'Lost my card', sponsor: undefined });
    assert.deepEqual(splitSponsor('[GOVT SPONSOR: a@b.test] then more'), { reason: '[GOVT SPONSOR: a@b.test] then more', sponsor: undefined });
  });

  test('a unique violation is recognised by its code and index', () => {
    assert.equal(isUniqueViolation({ code: '23505', constraint: 'requests_pending_per_account_key' }, 'requests_pending_per_account_key'), true);
    assert.equal(isUniqueViolation({ code: '23505', constraint: 'other' }, 'requests_pending_per_account_key'), false);
    assert.equal(isUniqueViolation({ code: '23503' }), false);
    assert.equal(isUniqueViolation(new Error('23505')), false);
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`self-service requests on ${kind}`, () => {
    let world: World;
    before(async () => {
      world = await createWorld(kind, fixture, { portal: { email_domain: 'portal.test' }, server: { trustedProxies: [PROXY] } });
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    interface RequestRow {
      kind: string;
      status: string;
      username: string;
      email: string;
      reason: string;
      details: Record<string, unknown>;
      submitted_by: string | null;
      updates: { status: string; username: string; comment: string }[];
    }
    async function requestsOf(accountId: number): Promise<RequestRow[]> {
      const { rows } = await world.db.query<Omit<RequestRow, 'updates'> & { id: string | number }>(
        'select id, kind, status, username, email, reason, details, submitted_by from requests where account_id = $1 order by id',
        [accountId],
      );
      const result: RequestRow[] = [];
      for (const { id, ...row } of rows) {
        const updates = await world.db.query<{ status: string; username: string; comment: string }>(
          'select status, username, comment from request_updates where request_id = $1 order by id',
          [id],
        );
        result.push({ ...row, updates: updates.rows });
      }
      return result;
    }
    const mailsTo = async (address: string) =>
      (await world.db.query<{ subject: string; body: string }>('select subject, body from mail_outbox where lower(to_address) = lower($1) order by id', [address])).rows;

    describe('GET /requests/profilechange/email-exists', () => {
      test('200 when an account or an open request uses the address (any case), else 404 Not found', async () => {
        const { app, db } = world;
        const { who } = await signedIn(world, unique('asker'));
        const taken = await createAccount(db, { username: unique('taken') });
        const closed = await createAccount(db, { username: unique('closed'), state: 'closed' });
        const at = new Date();
        await db.query(
          `insert into requests (kind, status, username, email, created_at, updated_at) values
             ('new', 'pending', 'applicant1', 'applicant1@example.test', $1, $1),
             ('new', 'incomplete', 'applicant2', 'applicant2@example.test', $1, $1),
             ('new', 'denied', 'applicant3', 'applicant3@example.test', $1, $1),
             ('profilechange', 'pending', $2, 'moving@example.test', $1, $1),
             ('profilechange', 'denied', $2, 'stayed@example.test', $1, $1)`,
          [at, taken.username],
        );
        const exists = (email: string) => call(app, who, 'GET', `/requests/profilechange/email-exists?email=${encodeURIComponent(email)}`);
        for (const email of [taken.email, ` ${taken.email.toUpperCase()} `, closed.email, 'applicant1@example.test', 'Applicant2@Example.test', 'moving@example.test']) {
          const response = await exists(email);
          assert.equal(response.statusCode, 200, email);
          assert.deepEqual(response.json(), { ok: true });
        }
        for (const email of ['applicant3@example.test', 'stayed@example.test', 'nobody@example.test', '']) {
          const response = await exists(email);
          assert.equal(response.statusCode, 404, email);
          assert.deepEqual(response.json(), { error: 'Not found', code: 404 });
        }
        const missing = await call(app, who, 'GET', '/requests/profilechange/email-exists');
        assert.equal(missing.statusCode, 400);
      });

      test('needs CHANGE_EMAIL or SUBMIT_SURROGATE_REQUEST', async () => {
        const { who } = await signedIn(world, unique('norole'), { roles: [] });
        const response = await call(world.app, who, 'GET', '/requests/profilechange/email-exists?email=a%40b.test');
        assert.equal(response.statusCode, 403);
        assert.deepEqual(response.json(), FORBIDDEN);
      });
    });

    describe('POST /requests/profilechange', () => {
      test('own: a pending request, its first update, mail to both addresses, the account shows it pending', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('mover'));
        const newEmail = `${account.username}.new@example.test`;
        const response = await call(app, who, 'POST', '/requests/profilechange', { username: account.username, email: ` ${newEmail} `, reason: ' New job ' });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { ok: true, code: 200 });
        assert.deepEqual(await requestsOf(account.id), [
          {
            kind: 'profilechange',
            status: 'pending',
            username: account.username,
            email: newEmail,
            reason: 'New job',
            details: { previous_email: account.email },
            submitted_by: null,
            updates: [{ status: 'pending', username: account.username, comment: 'Request submitted.' }],
          },
        ]);
        const [toOld] = await mailsTo(account.email);
        const [toNew] = await mailsTo(newEmail);
        assert.ok(toOld && toNew);
        assert.equal(toOld.subject, 'Email change requested');
        assert.equal(
          toOld.body,
          `A request was submitted to change the email address of the account ${account.username} from ${account.email} to ${newEmail}.\n` +
            'An adjudicator will review it; the address changes only if it is approved.\n' +
            'If you did not ask for this change, contact web@portal.test.\n',
        );
        assert.equal(toNew.subject, 'Email change requested');
        assert.match(toNew.body, new RegExp(`to this address \\(${newEmail.replace(/\./g, '\\.')}\\)`));

        const view = await call(app, who, 'GET', `/accounts/${account.username}`);
        assert.equal(view.json<{ email_change_pending: boolean }>().email_change_pending, true);
        assert.equal(view.json<{ email: string }>().email, account.email, 'the address changes only when approved');

        // A second one: 409, nothing more stored or mailed (even for another address).
        for (const email of [newEmail, `${account.username}.other@example.test`]) {
          const again = await call(app, who, 'POST', '/requests/profilechange', { username: account.username, email, reason: 'Again' });
          assert.equal(again.statusCode, 409);
          assert.deepEqual(again.json(), EMAIL_PENDING);
        }
        assert.equal((await requestsOf(account.id)).length, 1);
        assert.equal((await mailsTo(account.email)).length, 1);
      });

      test('an address in use by an account or an open request: 409 under the email field, nothing stored', async () => {
        const { app, db } = world;
        const { account, who } = await signedIn(world, unique('wanter'));
        const holder = await createAccount(db, { username: unique('holder') });
        await db.query(
          "insert into requests (kind, status, username, email, created_at, updated_at) values ('new', 'pending', 'applicant', 'applicant.x@example.test', now(), now())",
        );
        for (const email of [holder.email.toUpperCase(), 'applicant.x@example.test']) {
          const response = await call(app, who, 'POST', '/requests/profilechange', { username: account.username, email, reason: 'Mine now' });
          assert.equal(response.statusCode, 409, email);
          assert.deepEqual(response.json(), fieldsError({ email: RULE_MESSAGES.emailInUse }, 409));
        }
        assert.deepEqual(await requestsOf(account.id), []);
        assert.deepEqual(await mailsTo(account.email), []);
      });

      test('the rules of section 5: 400 with fields, nothing stored', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('ruled'));
        const cases: [Record<string, unknown>, Record<string, string>][] = [
          [{ email: '', reason: 'Why' }, { email: RULE_MESSAGES.validEmailAddress }],
          [{ reason: 'Why' }, { email: RULE_MESSAGES.validEmailAddress }],
          [{ email: 'not an address', reason: 'Why' }, { email: RULE_MESSAGES.validEmailAddress }],
          [{ email: 'Jane <jane@example.test>', reason: 'Why' }, { email: RULE_MESSAGES.validEmailAddress }],
          [{ email: account.email.toUpperCase(), reason: 'Why' }, { email: RULE_MESSAGES.sameEmail }],
          [{ email: 'fresh@example.test', reason: '  ' }, { reason: RULE_MESSAGES.changeEmailReason }],
          [{ email: 'fresh@example.test' }, { reason: RULE_MESSAGES.changeEmailReason }],
          [{ email: 'fresh@example.test', reason: 'r'.repeat(151) }, { reason: 'Must be less than 150 characters (151/150)' }],
          [{ email: '', reason: '' }, { email: RULE_MESSAGES.validEmailAddress, reason: RULE_MESSAGES.changeEmailReason }],
        ];
        for (const [body, fields] of cases) {
          const response = await call(app, who, 'POST', '/requests/profilechange', { username: account.username, ...body });
          assert.equal(response.statusCode, 400, JSON.stringify(body));
          assert.deepEqual(response.json(), fieldsError(fields), JSON.stringify(body));
        }
        const ok150 = await call(app, who, 'POST', '/requests/profilechange', { username: account.username, email: 'fresh150@example.test', reason: 'r'.repeat(150) });
        assert.equal(ok150.statusCode, 200, 'a reason of 150 is accepted');
        assert.equal((await requestsOf(account.id)).length, 1);
      });

      test("a surrogate (SUBMIT_SURROGATE_REQUEST) for another's account; without it 403; 404 only to a surrogate", async () => {
        const { app } = world;
        const target = await signedIn(world, unique('target'));
        const newEmail = `${target.account.username}.moved@example.test`;
        const body = { username: target.account.username.toUpperCase(), email: newEmail, reason: 'Asked by phone' };

        for (const role of ['user', 'adjudicator'] as const) {
          const other = await signedIn(world, unique(role), { roles: [role] });
          const refused = await call(app, other.who, 'POST', '/requests/profilechange', body);
          assert.equal(refused.statusCode, 403, role);
          assert.deepEqual(refused.json(), FORBIDDEN);
          assert.deepEqual((await call(app, other.who, 'POST', '/requests/profilechange', { ...body, username: 'nobody.here' })).json(), FORBIDDEN);
        }
        assert.deepEqual(await requestsOf(target.account.id), []);

        const helpdesk = await signedIn(world, unique('helpdesk'), { roles: ['help-desk'] });
        const unknown = await call(app, helpdesk.who, 'POST', '/requests/profilechange', { ...body, username: 'nobody.here' });
        assert.equal(unknown.statusCode, 404);
        assert.deepEqual(unknown.json(), NOT_FOUND);
        const response = await call(app, helpdesk.who, 'POST', '/requests/profilechange', body);
        assert.equal(response.statusCode, 200, response.body);
        const [request] = await requestsOf(target.account.id);
        assert.equal(request?.username, target.account.username);
        assert.equal(request?.submitted_by, helpdesk.account.username);
        assert.deepEqual(request?.updates, [{ status: 'pending', username: helpdesk.account.username, comment: 'Request submitted.' }]);
        for (const address of [target.account.email, newEmail]) {
          const [mail] = await mailsTo(address);
          assert.match(mail?.body ?? '', new RegExp(`It was submitted on your behalf by ${helpdesk.account.username}\\.`), address);
        }
        // The owner sees it pending; their own one now: 409.
        const own = await call(app, target.who, 'POST', '/requests/profilechange', { ...body, email: 'another@example.test' });
        assert.deepEqual(own.json(), EMAIL_PENDING);

        // An owner without CHANGE_EMAIL may not.
        const norole = await signedIn(world, unique('norole'), { roles: [] });
        assert.deepEqual(
          (await call(app, norole.who, 'POST', '/requests/profilechange', { username: norole.account.username, email: 'x.y@example.test', reason: 'Why' })).json(),
          FORBIDDEN,
        );
      });

      test('a pending one the check did not see (it arrived in between): the unique index answers the same 409', async () => {
        const { db, clock } = world;
        const { account } = await signedIn(world, unique('between'));
        await call(world.app, (await signedIn(world, unique('helper'), { roles: ['help-desk'] })).who, 'POST', '/requests/profilechange', {
          username: account.username,
          email: `first.${account.username}@example.test`,
          reason: 'First',
        });
        // A database on which the pending check sees nothing, as when the other request commits just after it.
        const blind: Database = {
          ...db,
          query: (async (sql: string, params?: readonly unknown[]) =>
            sql.includes("status = 'pending') as pending") ? { rows: [{ pending: false }] } : db.query(sql, params)) as Database['query'],
          transaction: (fn) => db.transaction(fn),
        };
        const actor = { id: account.id, username: account.username, permissions: permissionsOf(['user']) };
        await assert.rejects(
          requestEmailChange({ db: blind, clock, config: DEFAULT_CONFIGURATION }, actor, { username: account.username, email: `second.${account.username}@example.test`, reason: 'Second' }),
          (error: Error) => httpStatusOf(error) === 409 && error.message === EMAIL_PENDING.error,
        );
        await db.query("update accounts set authentication = '{certificate,token}' where id = $1", [account.id]);
        await requestAuthChangeToToken({ db, clock, config: DEFAULT_CONFIGURATION }, actor, { reason: 'One [GOVT SPONSOR: a@agency.test]' });
        await assert.rejects(
          requestAuthChangeToToken({ db: blind, clock, config: DEFAULT_CONFIGURATION }, actor, { reason: 'Two [GOVT SPONSOR: a@agency.test]' }),
          (error: Error) => httpStatusOf(error) === 409 && error.message === AUTH_PENDING.error,
        );
        assert.equal((await requestsOf(account.id)).length, 2);
        assert.equal((await mailsTo(`second.${account.username}@example.test`)).length, 0, 'the rolled-back request mailed nothing');
      });

      test('requests at the same moment: one is stored, the others 409 (the partial unique index)', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('racer'));
        const responses = await Promise.all(
          [1, 2, 3, 4, 5].map((i) => call(app, who, 'POST', '/requests/profilechange', { username: account.username, email: `race${i}.${account.username}@example.test`, reason: 'Race' })),
        );
        assert.deepEqual(responses.map((r) => r.statusCode).sort(), [200, 409, 409, 409, 409]);
        for (const r of responses.filter((r) => r.statusCode === 409)) assert.deepEqual(r.json(), EMAIL_PENDING);
        assert.equal((await requestsOf(account.id)).length, 1);
        assert.equal((await mailsTo(account.email)).length, 1, 'only the stored request mailed');
      });
    });

    describe('POST /requests/authchange (smart card → website token)', () => {
      async function cardHolder() {
        const signed = await signedIn(world, unique('carded'));
        await world.db.query("update accounts set authentication = '{certificate,token}' where id = $1", [signed.account.id]);
        return signed;
      }
      const toToken = (reason: string) => ({ reason, authentication: ['token'] });

      test('a pending request with the sponsor; the account shows it pending; a second one 409', async () => {
        const { app } = world;
        const { account, who } = await cardHolder();
        const reason = 'Card expired [GOVT SPONSOR: boss@agency.test]';
        const response = await call(app, who, 'POST', '/requests/authchange', toToken(reason));
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { ok: true, code: 200 });
        assert.deepEqual(await requestsOf(account.id), [
          {
            kind: 'authchange',
            status: 'pending',
            username: account.username,
            email: account.email,
            reason,
            details: { authentication: ['token'], sponsor_email: 'boss@agency.test' },
            submitted_by: null,
            updates: [{ status: 'pending', username: account.username, comment: 'Request submitted.' }],
          },
        ]);
        const view = await call(app, who, 'GET', `/accounts/${account.username}`);
        assert.equal(view.json<{ auth_change_pending: boolean }>().auth_change_pending, true);
        assert.equal(view.json<{ email_change_pending: boolean }>().email_change_pending, false);

        const again = await call(app, who, 'POST', '/requests/authchange', toToken(reason));
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), AUTH_PENDING);
        assert.equal((await requestsOf(account.id)).length, 1);
      });

      test('the sponsor and the reason: 400 with fields, nothing stored', async () => {
        const { app } = world;
        const { account, who } = await cardHolder();
        const cases: [string, Record<string, string>][] = [
          ['Card expired', { sponsor_email: 'Please enter a valid email' }],
          ['Card expired [GOVT SPONSOR: boss]', { sponsor_email: 'Please enter a valid email' }],
          ['Card expired [GOVT SPONSOR: ]', { sponsor_email: RULE_MESSAGES.fieldRequired }],
          [' [GOVT SPONSOR: boss@agency.test]', { reason: RULE_MESSAGES.reasonRequired }],
          [`${'r'.repeat(151)} [GOVT SPONSOR: boss@agency.test]`, { reason: 'Must be less than 150 characters (151/150)' }],
          ['', { reason: RULE_MESSAGES.reasonRequired, sponsor_email: 'Please enter a valid email' }],
        ];
        for (const [reason, fields] of cases) {
          const response = await call(app, who, 'POST', '/requests/authchange', toToken(reason));
          assert.equal(response.statusCode, 400, reason);
          assert.deepEqual(response.json(), fieldsError(fields), reason);
        }
        const wrongKind = await call(app, who, 'POST', '/requests/authchange', { reason: 'x [GOVT SPONSOR: a@b.test]', authentication: ['certificate'] });
        assert.equal(wrongKind.statusCode, 400);
        assert.deepEqual(await requestsOf(account.id), []);
      });

      test('an account that does not sign in with a certificate: 409; without allow-authchange: 403', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('tokenonly'));
        const response = await call(app, who, 'POST', '/requests/authchange', toToken('Why [GOVT SPONSOR: boss@agency.test]'));
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), { error: 'This account does not sign in with a certificate.', code: 409 });
        assert.deepEqual(await requestsOf(account.id), []);
        const norole = await signedIn(world, unique('norole'), { roles: [] });
        const refused = await call(app, norole.who, 'POST', '/requests/authchange', toToken('Why [GOVT SPONSOR: boss@agency.test]'));
        assert.equal(refused.statusCode, 403);
        assert.deepEqual(refused.json(), FORBIDDEN);
      });
    });

    describe('POST /cert/requests/authchange (website token → the card presented)', () => {
      const toCertificate = (reason: string) => ({ reason, authentication: ['certificate'] });
      const withCard = (pem: string, verify = 'SUCCESS') => ({
        remoteAddress: PROXY,
        headers: { 'x-client-cert': encodeURIComponent(pem), 'x-client-verify': verify },
      });

      test('the card is kept with a pending request; the account shows it pending; a second one 409', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('newcard'));
        const identity = `${String(1000000000 + serial).slice(0, 10)}`;
        const pem = await card(`CN=DOE.JANE.${identity}, OU=CONTRACTOR, OU=PKI, OU=DoD, O=U.S. Government, C=US`);
        const response = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate('Reason optional'), withCard(pem));
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { ok: true, code: 200 });
        const [request] = await requestsOf(account.id);
        assert.ok(request);
        const certificate = request.details.certificate as Record<string, unknown>;
        assert.deepEqual(request.details.authentication, ['certificate']);
        assert.equal(certificate.identity, identity);
        assert.match(String(certificate.fingerprint), /^[0-9a-f]{64}$/);
        assert.equal(certificate.subject, `CN=DOE.JANE.${identity}\nOU=CONTRACTOR\nOU=PKI\nOU=DoD\nO=U.S. Government\nC=US`);
        assert.equal(certificate.issuer, 'CN=DOD ID CA-99\nOU=PKI\nOU=DoD\nO=U.S. Government\nC=US');
        assert.match(String(certificate.valid_from), /^\d{4}-\d\d-\d\dT/);
        assert.match(String(certificate.valid_until), /^\d{4}-\d\d-\d\dT/);
        assert.equal(request.reason, 'Reason optional');
        assert.equal(request.email, account.email);
        assert.equal(request.status, 'pending');
        assert.equal((await call(app, who, 'GET', `/accounts/${account.username}`)).json<{ auth_change_pending: boolean }>().auth_change_pending, true);
        // Not bound yet: the adjudicator binds it.
        assert.equal(await count(world.db, 'select 1 from account_certificates where identity = $1', [identity]), 0);

        const again = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate('Reason optional'), withCard(pem));
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), AUTH_PENDING);
      });

      test('no verified, valid certificate: 400, nothing stored', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('nocard'));
        const pem = await card('CN=ROE.RICHARD.5555555555, O=U.S. Government, C=US');
        const expired = await card('CN=OLD.CARD.6666666666, O=U.S. Government, C=US', { from: new Date(Date.now() - 400 * DAY), to: new Date(Date.now() - DAY) });
        const attempts = [
          {},
          { headers: withCard(pem).headers }, // not from the trusted proxy
          withCard(pem, 'FAILED'),
          withCard(expired),
          { remoteAddress: PROXY, headers: { 'x-client-cert': 'garbage', 'x-client-verify': 'SUCCESS' } },
        ];
        for (const [i, extra] of attempts.entries()) {
          const response = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate(''), extra);
          assert.equal(response.statusCode, 400, `attempt ${i}`);
          assert.deepEqual(response.json(), NO_CERTIFICATE, `attempt ${i}`);
        }
        assert.deepEqual(await requestsOf(account.id), []);
      });

      test('a card bound to another account, or to this one already: 409; a long reason 400; an empty one is fine', async () => {
        const { app, db } = world;
        const { account, who } = await signedIn(world, unique('claimer'));
        const other = await createAccount(db, { username: unique('owner') });
        const theirs = await card('CN=ROE.RICHARD.7777777777, O=U.S. Government, C=US');
        const mine = await card('CN=DOE.JOHN.8888888888, O=U.S. Government, C=US');
        await bindCertificate(db, other.id, { identity: '7777777777', fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
        await bindCertificate(db, account.id, { identity: '8888888888', fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
        const taken = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate(''), withCard(theirs));
        assert.equal(taken.statusCode, 409);
        assert.deepEqual(taken.json(), { error: 'This certificate is already registered to another account.', code: 409 });
        const already = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate(''), withCard(mine));
        assert.equal(already.statusCode, 409);
        assert.deepEqual(already.json(), { error: 'This certificate is already registered to this account.', code: 409 });

        const fresh = await card('CN=DOE.JOHN.9999999999, O=U.S. Government, C=US');
        const long = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate('r'.repeat(151)), withCard(fresh));
        assert.equal(long.statusCode, 400);
        assert.deepEqual(long.json(), fieldsError({ reason: 'Must be less than 150 characters (151/150)' }));
        assert.deepEqual(await requestsOf(account.id), []);
        const empty = await call(app, who, 'POST', '/cert/requests/authchange', toCertificate(''), withCard(fresh));
        assert.equal(empty.statusCode, 200, empty.body);
        assert.equal((await requestsOf(account.id))[0]?.reason, '');
      });
    });
  });
}
