/**
 * New account requests (POST /requests/new, /cert/requests/new) and the applicant's side of them
 * in the verification flow (POST /requests/new/status, /requests/new/pending), through
 * app.inject on PGlite (and PostgreSQL when DATABASE_URL is set): every rule of spec section 5
 * answered with `fields` and nothing stored, personal-provider addresses, names and addresses
 * taken (also by two submissions racing), the stored request and its mail, and the status check
 * and response with a simulated adjudicator.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database, Queryable, QueryResult } from '../src/db/database.js';
import { bindCertificate } from '../src/repositories/certificates.js';
import { allMails, findMailsTo } from '../src/repositories/mail.js';
import { isPersonalEmail } from '../src/services/account-requests.js';
import { API, TestClock, createAccount, solvedChallenge } from './auth-helpers.js';
import { createTestCa, dodSubject, proxyCertificateHeaders, TEST_PROXY, type TestCertificate } from './certificate-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';
import { codeFor, count, INVALID_CHALLENGE, INVALID_CODE, OK, otherCode, withCode } from './visitor-helpers.js';

const PERSONAL = 'Please use your work email address; personal email addresses are not accepted.';
const USERNAME_TAKEN = 'This username is already taken.';
const EMAIL_IN_USE = 'This email is already in use in the system.';
const NO_CERTIFICATE = { error: 'No verified client certificate was presented.', code: 400 };

type Body = Record<string, unknown> & { address: Record<string, string>; supervisor: Record<string, string> };

let counter = 0;
/** A valid request; each call gets its own username and email. */
function validBody(): Body {
  const n = ++counter;
  return {
    first_name: 'Jane',
    last_name: "O'Neil",
    username: `jane.oneil${n}`,
    email: `Jane.ONeil${n}@Agency.example`,
    phone: '(555) 010-1234',
    address: { street: '1 Main Street', city: 'Springfield', state: 'VA', zip: '22150', country: 'USA' },
    company: 'Example Agency',
    project: 'Portal',
    reason: 'I build the portal. [GOVT SPONSOR: sponsor@agency.example]',
    supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@agency.example', phone: '555-010-9999 x12' },
  };
}

/** One bad field: the change, the flat field name, the message of spec section 5. */
const RULE_CASES: [string, (body: Body) => void, string, string][] = [
  ['first name missing', (b) => delete b.first_name, 'first_name', 'Please enter your first name'],
  ['first name blank', (b) => (b.first_name = '  '), 'first_name', 'Please enter your first name'],
  ['first name with a digit', (b) => (b.first_name = 'J4ne'), 'first_name', 'Must have only alphabetical characters'],
  ['first name of one letter', (b) => (b.first_name = 'J'), 'first_name', 'Must be at least 2 characters'],
  ['first name too long', (b) => (b.first_name = 'a'.repeat(256)), 'first_name', 'Must be less than 255 characters (256/255)'],
  ['last name empty', (b) => (b.last_name = ''), 'last_name', 'Please enter your last name'],
  ['last name with a hyphen', (b) => (b.last_name = 'Smith-Jones'), 'last_name', 'Must have only alphabetical characters'],
  ['username empty', (b) => (b.username = ''), 'username', 'Please enter a username'],
  ['username an email', (b) => (b.username = 'jane@agency.example'), 'username', 'Please avoid using email as username'],
  ['username starting with a digit', (b) => (b.username = '1jane'), 'username', 'Username must not start with a number'],
  ['username with a space', (b) => (b.username = 'jane doe'), 'username', 'Must have only alphanumeric characters including . - and _'],
  ['username of one letter', (b) => (b.username = 'j'), 'username', 'Must be at least 2 characters'],
  ['username too long', (b) => (b.username = 'a'.repeat(21)), 'username', 'Must be less than 20 characters (21/20)'],
  ['email empty', (b) => (b.email = ''), 'email', 'Please enter an email address'],
  ['email invalid', (b) => (b.email = 'jane.agency.example'), 'email', 'Email address is invalid'],
  ['email with a second address', (b) => (b.email = 'jane@agency.example, boss@agency.example'), 'email', 'Email address is invalid'],
  ['phone empty', (b) => (b.phone = ''), 'phone', 'Please enter a phone number'],
  ['phone invalid', (b) => (b.phone = 'call me'), 'phone', 'Invalid phone'],
  ['street empty', (b) => (b.address.street = ''), 'street', 'Please enter a street address'],
  ['street too long', (b) => (b.address.street = 's'.repeat(126)), 'street', 'Must be less than 125 characters (126/125)'],
  ['street too short', (b) => (b.address.street = 's'), 'street', 'Must be at least 2 characters'],
  ['city empty', (b) => (b.address.city = ''), 'city', 'Please enter a city'],
  ['city too long', (b) => (b.address.city = 'c'.repeat(76)), 'city', 'Must be less than 75 characters (76/75)'],
  ['state empty', (b) => (b.address.state = ''), 'state', 'Please enter a state'],
  ['state too long', (b) => (b.address.state = 's'.repeat(16)), 'state', 'Must be less than 15 characters (16/15)'],
  ['postal code empty', (b) => (b.address.zip = ''), 'zip', 'Please enter a postal code'],
  ['postal code too long', (b) => (b.address.zip = '1'.repeat(11)), 'zip', 'Must be less than 10 characters (11/10)'],
  ['country empty', (b) => (b.address.country = ''), 'country', 'Please enter a country'],
  ['country too long', (b) => (b.address.country = 'c'.repeat(16)), 'country', 'Must be less than 15 characters (16/15)'],
  ['company empty', (b) => (b.company = ''), 'company', 'Please enter a company or government symbol'],
  ['company too long', (b) => (b.company = 'c'.repeat(256)), 'company', 'Must be less than 255 characters (256/255)'],
  ['project empty', (b) => (b.project = ''), 'project', 'Please enter a project'],
  ['reason empty', (b) => (b.reason = ''), 'reason', 'Please enter a reason'],
  // A reason box: 150 (spec section 9).
  ['reason too long', (b) => (b.reason = 'r'.repeat(151)), 'reason', 'Must be less than 150 characters (151/150)'],
  ['reason too long before a sponsor', (b) => (b.reason = `${'r'.repeat(151)} [GOVT SPONSOR: sponsor@agency.mil]`), 'reason', 'Must be less than 150 characters (151/150)'],
  ['supervisor first name empty', (b) => (b.supervisor.first_name = ''), 'supervisor_first_name', "Please enter your supervisor's first name"],
  ['supervisor last name empty', (b) => (b.supervisor.last_name = ''), 'supervisor_last_name', "Please enter your supervisor's last name"],
  ['supervisor last name with a digit', (b) => (b.supervisor.last_name = 'B0ss'), 'supervisor_last_name', 'Must have only alphabetical characters'],
  ['supervisor email empty', (b) => (b.supervisor.email = ''), 'supervisor_email', "Please enter your supervisor's email address"],
  ['supervisor email invalid', (b) => (b.supervisor.email = 'boss'), 'supervisor_email', 'Email address is invalid'],
  ['supervisor phone empty', (b) => (b.supervisor.phone = ''), 'supervisor_phone', "Please enter your supervisor's phone number"],
  ['supervisor phone invalid', (b) => (b.supervisor.phone = '12'), 'supervisor_phone', 'Invalid phone'],
  ['a personal-provider address', (b) => (b.email = 'jane.oneil@gmail.com'), 'email', PERSONAL],
  ['a personal-provider subdomain, any case', (b) => (b.email = 'jane.oneil@Mail.Yahoo.COM'), 'email', PERSONAL],
];

const REQUIRED_MESSAGES = {
  first_name: 'Please enter your first name',
  last_name: 'Please enter your last name',
  username: 'Please enter a username',
  email: 'Please enter an email address',
  phone: 'Please enter a phone number',
  street: 'Please enter a street address',
  city: 'Please enter a city',
  state: 'Please enter a state',
  zip: 'Please enter a postal code',
  country: 'Please enter a country',
  company: 'Please enter a company or government symbol',
  project: 'Please enter a project',
  supervisor_first_name: "Please enter your supervisor's first name",
  supervisor_last_name: "Please enter your supervisor's last name",
  supervisor_email: "Please enter your supervisor's email address",
  supervisor_phone: "Please enter your supervisor's phone number",
  reason: 'Please enter a reason',
};

/** A database whose open-request check sees nothing, as when two submissions race between the check and the insert. */
function withoutOpenRequestCheck(db: Database): Database {
  const blind = (target: Queryable): Queryable => ({
    query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      if (/exists\(select 1 from requests where kind = 'new' and status in/.test(sql)) {
        return Promise.resolve({ rows: [{ username: false, email: false } as T] });
      }
      return target.query<T>(sql, params);
    },
    exec: (sql) => target.exec(sql),
  });
  return { kind: db.kind, ...blind(db), transaction: (fn) => db.transaction((tx) => fn(blind(tx))), close: () => Promise.resolve() };
}

test('personal-provider addresses: the domain or a subdomain of one, any letter case', () => {
  const list = ['gmail.com', 'yahoo.com'];
  assert.equal(isPersonalEmail('a@gmail.com', list), true);
  assert.equal(isPersonalEmail('a@GMAIL.com ', list), true);
  assert.equal(isPersonalEmail('a@mail.yahoo.com', list), true);
  assert.equal(isPersonalEmail('a@notgmail.com', list), false);
  assert.equal(isPersonalEmail('gmail.com@agency.example', list), false);
  assert.equal(isPersonalEmail('a@gmail.com', []), false);
});

let fixture: Fixture;
let cards: Record<'applicant' | 'bound', TestCertificate>;
before(async () => {
  fixture = createFixture();
  const ca = await createTestCa();
  cards = { applicant: await ca.issue(dodSubject('NEW.APPLICANT.6666666666')), bound: await ca.issue(dodSubject('ALREADY.BOUND.7777777777')) };
});
after(() => fixture.remove());

for (const kind of DATABASE_KINDS) {
  describe(`account requests on ${kind}`, () => {
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

    const submit = async (body: Record<string, unknown>, options: { path?: string; challenge?: string; headers?: Record<string, string>; target?: App } = {}) => {
      const target = options.target ?? app;
      return target.inject({
        method: 'POST',
        url: `${API}${options.path ?? '/requests/new'}`,
        remoteAddress: TEST_PROXY,
        headers: options.headers ?? {},
        payload: { ...body, botChallengeResponse: options.challenge ?? (await solvedChallenge(target)) },
      });
    };
    const stored = () => count(db, 'requests', "kind = 'new'");

    describe('POST /requests/new', () => {
      test('a valid request is stored pending, with its details and first update, and the applicant is mailed the status link', async () => {
        const body = validBody();
        body.first_name = '  Jane ';
        const response = await submit(body);
        assert.equal(response.statusCode, 200, response.body);
        const { id, ...rest } = response.json<{ ok: true; code: 200; id: number }>();
        assert.deepEqual(rest, OK);
        assert.ok(Number.isInteger(id) && id > 0);
        const { rows } = await db.query<Record<string, unknown>>(
          'select kind, status, account_id, username, email, reason, details, submitted_by, adjudicator, created_at, updated_at from requests where id = $1',
          [id],
        );
        assert.deepEqual(rows, [
          {
            kind: 'new',
            status: 'pending',
            account_id: null,
            username: body.username,
            email: body.email,
            reason: body.reason,
            details: {
              first_name: 'Jane',
              last_name: "O'Neil",
              phone: '(555) 010-1234',
              address: body.address,
              company: 'Example Agency',
              project: 'Portal',
              supervisor: body.supervisor,
              cac_eligible: false,
              certificate: null,
            },
            submitted_by: null,
            adjudicator: null,
            created_at: clock.now(),
            updated_at: clock.now(),
          },
        ]);
        const updates = await db.query('select status, username, comment, created_at from request_updates where request_id = $1', [id]);
        assert.deepEqual(updates.rows, [{ status: 'pending', username: body.username, comment: 'Request submitted.', created_at: clock.now() }]);
        const mails = await findMailsTo(db, String(body.email));
        assert.equal(mails.length, 1);
        const [mail] = mails;
        assert.ok(mail);
        assert.equal(mail.to, body.email);
        assert.equal(mail.subject, 'Your account request was received');
        assert.match(mail.text, /^Hello Jane O'Neil,/);
        assert.ok(mail.text.includes(`'${String(body.username)}'`));
        assert.ok(mail.text.includes('\nhttp://localhost:80/check-account-request-status\n'), mail.text);
      });

      test('the link in the mail: the Host of the request (https from a trusted proxy), or PORTAL_PUBLIC_URL', async () => {
        const linkOf = async (headers: Record<string, string>, target: App = app) => {
          const body = validBody();
          const response = await submit(body, { headers, target });
          assert.equal(response.statusCode, 200, response.body);
          return /^(\S*\/check-account-request-status)$/m.exec((await findMailsTo(db, String(body.email)))[0]?.text ?? '')?.[1];
        };
        assert.equal(await linkOf({ host: 'Portal.Example.test' }), 'http://portal.example.test/check-account-request-status');
        assert.equal(await linkOf({ host: 'portal.example.test:8443', 'x-forwarded-proto': 'https' }), 'https://portal.example.test:8443/check-account-request-status');
        assert.equal(await linkOf({ host: 'evil.example.test/phish?x=' }), '/check-account-request-status', 'a Host that is not a host name is not used');
        const configured = createTestApp({ db, fixture, clock, server: { trustedProxies: [TEST_PROXY], publicUrl: 'https://accounts.example.test/portal' } });
        try {
          assert.equal(await linkOf({ host: 'other.example.test' }, configured), 'https://accounts.example.test/portal/check-account-request-status');
        } finally {
          await configured.close();
        }
      });

      test('every rule of spec section 5: 400 with the field and its message, nothing stored, the challenge not used up', async () => {
        const mails = (await allMails(db)).length;
        const before = await stored();
        const challenge = await solvedChallenge(app);
        for (const [name, change, field, message] of RULE_CASES) {
          const body = validBody();
          change(body);
          const response = await submit(body, { challenge });
          assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
          assert.deepEqual(response.json(), { error: message, code: 400, fields: { [field]: message } }, name);
        }
        assert.equal(await stored(), before);
        assert.equal((await allMails(db)).length, mails);
        assert.equal((await submit(validBody(), { challenge })).statusCode, 200, 'the challenge was not used by the refused submissions');
      });

      test('the reason for the account: 150 typed characters, a CAC exception\'s sponsor suffix not counted', async () => {
        const body = validBody();
        body.reason = `${'r'.repeat(150)} [GOVT SPONSOR: sponsor@agency.example]`;
        const response = await submit(body);
        assert.equal(response.statusCode, 200, response.body);
      });

      test('an empty body: every required field named at once', async () => {
        const response = await app.inject({ method: 'POST', url: `${API}/requests/new`, payload: {} });
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { error: 'Please enter your first name', code: 400, fields: REQUIRED_MESSAGES });
        const empty = await app.inject({ method: 'POST', url: `${API}/requests/new`, payload: { address: {}, supervisor: {} } });
        assert.deepEqual(empty.json<{ fields: unknown }>().fields, REQUIRED_MESSAGES);
      });

      test('a malformed body: 400 from the schema (unknown field, wrong type, no body)', async () => {
        // Told in words, never the validator's text.
        const cases: [Record<string, unknown>, Record<string, unknown>][] = [
          [{ ...validBody(), admin: true }, { error: 'The field admin is not accepted.', code: 400 }],
          [{ ...validBody(), address: 'somewhere' }, { error: 'Address: This value is not valid.', code: 400, fields: { address: 'This value is not valid.' } }],
          [{ ...validBody(), supervisor: { ...validBody().supervisor, title: 'Dr' } }, { error: 'The field supervisor_title is not accepted.', code: 400 }],
        ];
        for (const [payload, answer] of cases) {
          const response = await app.inject({ method: 'POST', url: `${API}/requests/new`, payload });
          assert.equal(response.statusCode, 400);
          assert.deepEqual(response.json(), answer);
        }
        assert.equal((await app.inject({ method: 'POST', url: `${API}/requests/new` })).statusCode, 400);
      });

      test('a bad, missing or reused bot challenge: 400 after the rules, nothing stored', async () => {
        const before = await stored();
        assert.deepEqual((await submit(validBody(), { challenge: 'garbage' })).json(), INVALID_CHALLENGE);
        const missing = await app.inject({ method: 'POST', url: `${API}/requests/new`, payload: validBody() });
        assert.deepEqual(missing.json(), INVALID_CHALLENGE);
        const challenge = await solvedChallenge(app);
        assert.equal((await submit(validBody(), { challenge })).statusCode, 200);
        assert.deepEqual((await submit(validBody(), { challenge })).json(), INVALID_CHALLENGE);
        assert.equal(await stored(), before + 1);
      });

      test('the personal-provider list is a setting; none turns it off', async () => {
        const custom = createTestApp({ db, fixture, clock, server: { personalEmailDomains: ['agency.example'] } });
        const none = createTestApp({ db, fixture, clock, server: { personalEmailDomains: [] } });
        try {
          const refused = await submit(validBody(), { target: custom });
          assert.deepEqual(refused.json(), { error: PERSONAL, code: 400, fields: { email: PERSONAL } });
          const gmail = validBody();
          gmail.email = `${String(gmail.username)}@gmail.com`;
          assert.equal((await submit(gmail, { target: none })).statusCode, 200);
        } finally {
          await custom.close();
          await none.close();
        }
      });

      test('a username or email taken by an account or an open request (any letter case): 409 with the field', async () => {
        await createAccount(db, { username: 'taken.user', email: 'Taken.User@Agency.example' });
        const conflict = async (change: (body: Body) => void, fields: Record<string, string>) => {
          const body = validBody();
          change(body);
          const response = await submit(body);
          assert.equal(response.statusCode, 409, response.body);
          assert.deepEqual(response.json(), { error: Object.values(fields)[0], code: 409, fields });
        };
        const before = await stored();
        await conflict((b) => (b.username = 'TAKEN.user'), { username: USERNAME_TAKEN });
        await conflict((b) => (b.email = 'taken.user@agency.EXAMPLE'), { email: EMAIL_IN_USE });
        await conflict((b) => ((b.username = 'Taken.User'), (b.email = 'taken.user@agency.example')), { username: USERNAME_TAKEN, email: EMAIL_IN_USE });
        assert.equal(await stored(), before);

        const first = validBody();
        assert.equal((await submit(first)).statusCode, 200);
        await conflict((b) => (b.username = String(first.username).toUpperCase()), { username: USERNAME_TAKEN });
        await conflict((b) => (b.email = String(first.email).toLowerCase()), { email: EMAIL_IN_USE });
        // Asked for more information: still open.
        await db.query("update requests set status = 'incomplete' where lower(username) = lower($1)", [first.username]);
        await conflict((b) => (b.username = String(first.username)), { username: USERNAME_TAKEN });
        // Denied: the name and the address are free again.
        await db.query("update requests set status = 'denied' where lower(username) = lower($1)", [first.username]);
        const again = validBody();
        again.username = first.username;
        again.email = first.email;
        assert.equal((await submit(again)).statusCode, 200);
        // A pending email change to an address: in use.
        const mover = await createAccount(db, { username: 'email.mover' });
        await db.query(
          "insert into requests (kind, status, account_id, username, email, created_at, updated_at) values ('profilechange', 'pending', $1, 'email.mover', 'New.Address@Agency.example', now(), now())",
          [mover.id],
        );
        await conflict((b) => (b.email = 'new.address@agency.example'), { email: EMAIL_IN_USE });
      });

      test('two submissions racing for one username or email: one is stored, the other answers 409 (the unique index decides)', async () => {
        const blind = createTestApp({ db: withoutOpenRequestCheck(db), fixture, clock });
        try {
          const first = validBody();
          assert.equal((await submit(first, { target: blind })).statusCode, 200);
          const sameName = validBody();
          sameName.username = String(first.username).toUpperCase();
          const name = await submit(sameName, { target: blind });
          assert.equal(name.statusCode, 409, name.body);
          assert.deepEqual(name.json(), { error: USERNAME_TAKEN, code: 409, fields: { username: USERNAME_TAKEN } });
          const sameEmail = validBody();
          sameEmail.email = String(first.email).toLowerCase();
          const email = await submit(sameEmail, { target: blind });
          assert.deepEqual(email.json(), { error: EMAIL_IN_USE, code: 409, fields: { email: EMAIL_IN_USE } });
          assert.equal(await count(db, 'requests', 'lower(username) = lower($1)', [first.username]), 1);
          assert.equal((await findMailsTo(db, String(sameEmail.email))).length, 1, 'only the stored one was mailed');
        } finally {
          await blind.close();
        }
        // And truly in parallel.
        const bodies = [validBody(), validBody(), validBody(), validBody()];
        for (const body of bodies) body.username = 'racing.name';
        const challenges = await Promise.all(bodies.map(() => solvedChallenge(app)));
        const responses = await Promise.all(bodies.map((body, i) => submit(body, { challenge: challenges[i] ?? '' })));
        assert.deepEqual(responses.map((r) => r.statusCode).sort(), [200, 409, 409, 409]);
        for (const response of responses.filter((r) => r.statusCode === 409)) {
          assert.deepEqual(response.json(), { error: USERNAME_TAKEN, code: 409, fields: { username: USERNAME_TAKEN } });
        }
      });
    });

    describe('POST /cert/requests/new', () => {
      test('needs a verified client certificate, kept with the request (cac_eligible)', async () => {
        const without = await submit(validBody(), { path: '/cert/requests/new' });
        assert.equal(without.statusCode, 400);
        assert.deepEqual(without.json(), NO_CERTIFICATE);
        const body = validBody();
        const response = await submit(body, { path: '/cert/requests/new', headers: proxyCertificateHeaders(cards.applicant) });
        assert.equal(response.statusCode, 200, response.body);
        const { rows } = await db.query<{ details: { cac_eligible: boolean; certificate: Record<string, unknown> } }>('select details from requests where id = $1', [
          response.json<{ id: number }>().id,
        ]);
        const details = rows[0]?.details;
        assert.ok(details);
        assert.equal(details.cac_eligible, true);
        assert.equal(details.certificate.identity, '6666666666');
        assert.equal(details.certificate.fingerprint, cards.applicant.fingerprint);
        assert.equal((details.certificate.issued_to as { common_name: string }).common_name, 'NEW.APPLICANT.6666666666');
        // The rules come first.
        const bad = validBody();
        bad.first_name = '';
        const refused = await submit(bad, { path: '/cert/requests/new' });
        assert.deepEqual(refused.json(), { error: 'Please enter your first name', code: 400, fields: { first_name: 'Please enter your first name' } }, 'before the certificate');
      });

      test('a certificate already bound to an account: 409', async () => {
        const holder = await createAccount(db, { username: 'bound.holder' });
        await bindCertificate(db, holder.id, { identity: '7777777777', fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
        const before = await stored();
        const response = await submit(validBody(), { path: '/cert/requests/new', headers: proxyCertificateHeaders(cards.bound) });
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), { error: 'This certificate is already registered to another account.', code: 409 });
        assert.equal(await stored(), before);
      });
    });

    describe('the applicant: POST /requests/new/status and /requests/new/pending', () => {
      const status = (email: string, code: string | undefined) => withCode(app, '/requests/new/status', code, { email });
      const respond = (email: string, code: string | undefined, username: string, comment: string) =>
        withCode(app, '/requests/new/pending', code, { email, username, comment });

      test('status, a request for more information, the response, and the request pending again', async () => {
        const body = validBody();
        assert.equal((await submit(body)).statusCode, 200);
        const email = String(body.email);
        const username = String(body.username);
        const code = await codeFor(app, db, email.toLowerCase());

        const pending = await status(email, code);
        assert.equal(pending.statusCode, 200, pending.body);
        assert.deepEqual(pending.json(), { status: 'pending', comment: '', username, awaiting_response: false });
        assert.deepEqual((await respond(email, code, username, 'Nothing was asked.')).json(), { error: 'This request is not waiting for a response.', code: 409 });

        // The adjudicator asks for more information.
        const id = (await db.query<{ id: string }>('select id from requests where username = $1', [username])).rows[0]?.id;
        await db.query("update requests set status = 'incomplete', adjudicator = 'adjudicator' where id = $1", [id]);
        await db.query("insert into request_updates (request_id, status, username, comment, created_at) values ($1, 'incomplete', 'adjudicator', 'Which project code?', now())", [id]);
        const incomplete = await status(email, code);
        assert.deepEqual(incomplete.json(), { status: 'incomplete', comment: 'Which project code?', username, awaiting_response: true });
        assert.deepEqual((await status(email, code)).json(), incomplete.json(), 'reading does not use the code up');

        const blank = await respond(email, code, username, ' ');
        assert.deepEqual(blank.json(), { error: 'A response is required.', code: 400, fields: { comment: 'A response is required.' } });
        const long = await respond(email, code, username, 'x'.repeat(1001));
        assert.deepEqual(long.json(), { error: 'Must be less than 1000 characters (1001/1000)', code: 400, fields: { comment: 'Must be less than 1000 characters (1001/1000)' } });
        assert.deepEqual((await respond(email, code, 'someone.else', 'Project 42.')).json(), { error: 'This request is not waiting for a response.', code: 409 });
        assert.deepEqual((await respond(email, otherCode(code), username, 'Project 42.')).json(), INVALID_CODE);

        clock.advance(1000);
        const answered = await respond(email.toUpperCase(), code, username.toUpperCase(), ' Project 42. ');
        assert.equal(answered.statusCode, 200, answered.body);
        assert.deepEqual(answered.json(), OK);
        const request = await db.query('select status, updated_at from requests where id = $1', [id]);
        assert.deepEqual(request.rows, [{ status: 'pending', updated_at: clock.now() }]);
        const updates = await db.query('select status, username, comment from request_updates where request_id = $1 order by id', [id]);
        assert.deepEqual(updates.rows, [
          { status: 'pending', username, comment: 'Request submitted.' },
          { status: 'incomplete', username: 'adjudicator', comment: 'Which project code?' },
          { status: 'pending', username, comment: 'Project 42.' },
        ]);
        assert.deepEqual((await status(email, code)).json(), INVALID_CODE, 'the response used the code up');

        const next = await codeFor(app, db, email);
        assert.deepEqual((await status(email, next)).json(), { status: 'pending', comment: 'Which project code?', username, awaiting_response: false });
        assert.deepEqual((await respond(email, next, username, 'Again.')).json(), { error: 'This request is not waiting for a response.', code: 409 });
      });

      test('the latest request of the address is the one shown; none: 404', async () => {
        const account = await createAccount(db, { username: 'no.request' });
        const missing = await status(account.email, await codeFor(app, db, account.email));
        assert.equal(missing.statusCode, 404);
        assert.deepEqual(missing.json(), { error: 'No account request was found for this email address.', code: 404 });

        const body = validBody();
        assert.equal((await submit(body)).statusCode, 200);
        const email = String(body.email);
        await db.query("update requests set status = 'denied' where email = $1", [email]);
        await db.query("insert into request_updates (request_id, status, username, comment, created_at) select id, 'denied', 'adjudicator', 'Not eligible.', now() from requests where email = $1", [email]);
        const code = await codeFor(app, db, email);
        assert.deepEqual((await status(email, code)).json(), { status: 'denied', comment: 'Not eligible.', username: body.username, awaiting_response: false });
        clock.advance(1000);
        const second = validBody();
        second.email = email;
        assert.equal((await submit(second)).statusCode, 200);
        assert.deepEqual((await status(email, code)).json(), { status: 'pending', comment: '', username: second.username, awaiting_response: false });
      });
    });
  });
}
