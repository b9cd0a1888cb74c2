/**
 * The request queues and decisions (server/docs/adjudication.md) on PGlite and PostgreSQL:
 * every decision from every status of every kind, each kind's effect on the account and its
 * mail, concurrent decisions on one request, one's own request, comment limits, the lists, the
 * summary counts, the denied search and the permissions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Queryable } from '../src/db/database.js';
import { addAccountUpdate } from '../src/repositories/accounts.js';
import { bindCertificate } from '../src/repositories/certificates.js';
import { insertUserGroup } from '../src/repositories/groups.js';
import { insertRequest, insertRequestUpdate } from '../src/repositories/requests.js';
import { registeredKinds, requestKind, REQUEST_STATUSES, type Decision, type RequestKind, type RequestStatus } from '../src/services/adjudication.js';
import { listMail } from '../src/services/mail.js';
import { anonymous, createAccount, postSignIn, signIn, type Principal } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { newRequestDetails } from './request-helpers.js';
import { FORBIDDEN, call, count, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const NOT_FOUND = { error: 'Request not found.', code: 404 };
const OWN = { error: 'You cannot decide your own request.', code: 403 };
const already = (status: string) => ({ error: `This request is already ${status}.`, code: 409 });
const undecidable = (status: string) => ({ error: `This request is ${status} and can no longer be decided.`, code: 409 });

const DECISIONS: readonly Decision[] = ['approved', 'denied', 'incomplete'];
/** The kinds this server registered (each kind's module with its declaration). */
const REQUEST_KINDS = registeredKinds().map(({ kind }) => kind);

for (const databaseKind of DATABASE_KINDS) {
  describe(`adjudication on ${databaseKind}`, () => {
    let world: World;
    let adjudicator: Principal;
    let helpdesk: Principal;
    let user: Principal;
    let admin: Principal;
    let adjudicatorId: number;

    before(async () => {
      world = await createWorld(databaseKind, fixture);
      const a = await signedIn(world, 'judge', { roles: ['adjudicator'] });
      adjudicator = a.who;
      adjudicatorId = a.account.id;
      helpdesk = (await signedIn(world, 'desk', { roles: ['help-desk'] })).who;
      user = (await signedIn(world, 'plain', { roles: ['user'] })).who;
      admin = (await signedIn(world, 'boss', { roles: ['site-admin'] })).who;
      // The group the membership and mailing list requests below name.
      await insertUserGroup(world.db, { id: 'PORTAL', name: 'Portal', description: 'Portal team', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [] });
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    /** Closes every open request, so that a test's list and counts hold only its own. */
    async function clearQueues(): Promise<void> {
      await world.db.query("update requests set status = 'approved' where status in ('pending', 'incomplete')");
    }

    /** A request of `kind` in `status`, with what its effect needs (a locked account for unlock …). */
    async function makeRequest(kind: RequestKind, status: RequestStatus, options: { details?: Record<string, unknown>; db?: Queryable } = {}) {
      const db = options.db ?? world.db;
      const at = world.clock.now();
      if (kind === 'new') {
        const username = unique('jane.doe');
        const id = await insertRequest(db, {
          kind,
          status,
          accountId: null,
          username,
          email: `${username}@agency.example`,
          reason: 'Works on the portal.',
          details: options.details ?? newRequestDetails('Jane', 'Doe'),
          createdAt: at,
        });
        await insertRequestUpdate(db, { requestId: id, status: 'pending', username, comment: 'Request submitted.', createdAt: at });
        return { id, username, email: `${username}@agency.example`, accountId: null as number | null };
      }
      const account = await createAccount(db, { username: unique(`${kind}.owner`), state: kind === 'unlock' ? 'locked' : 'active' });
      const email = kind === 'profilechange' ? `${account.username}.new@example.test` : account.email;
      const details: Record<string, unknown> =
        options.details ??
        {
          profilechange: { previous_email: account.email },
          authchange: { authentication: ['token'], sponsor_email: 'sponsor@agency.example' },
          unlock: {},
          usergroup: { user_group: unique('GRP'), name: 'A group', description: 'Things', open_access: false, memberConstraint: 'None', visibility: 'site-approved', groups: [] },
          mailinglist: { list_id: `${unique('portal-news')}@example.test`, user_group: 'PORTAL', permission_group: 'PORTAL-team', description: 'News', posting_permissions: 'closed', automatic_subscription: true },
          membership: { user_group: 'PORTAL', join: ['PORTAL-user'], leave: [] },
        }[kind];
      const id = await insertRequest(db, { kind, status, accountId: account.id, username: account.username, email, reason: 'Because.', details, createdAt: at });
      await insertRequestUpdate(db, { requestId: id, status: 'pending', username: account.username, comment: 'Request submitted.', createdAt: at });
      return { id, username: account.username, email, accountId: account.id as number | null, account };
    }

    async function stateOf(id: number) {
      const { rows } = await world.db.query<{ status: string; adjudicator: string | null; updates: number }>(
        'select status, adjudicator, (select count(*)::int from request_updates u where u.request_id = r.id) as updates from requests r where id = $1',
        [id],
      );
      return rows[0];
    }

    const decide = (who: Principal, kind: RequestKind, id: number, decision: Decision, comment?: string) =>
      call(world.app, who, 'POST', `/requests/${kind}/${id}/${decision}`, comment === undefined ? {} : { comment });

    describe('every decision from every status', () => {
      for (const kind of REQUEST_KINDS) {
        const rules = requestKind(kind);
        for (const status of REQUEST_STATUSES) {
          for (const decision of DECISIONS) {
            if (!rules.decisions.includes(decision)) continue;
            const allowed = rules.decidableFrom.includes(status) && status !== decision;
            test(`${kind}: ${status} → ${decision} ${allowed ? 'changes it once' : 'is refused with 409'}`, async () => {
              const request = await makeRequest(kind, status);
              const before = await stateOf(request.id);
              const mailsBefore = (await listMail(world.db, request.email)).length;
              const response = await decide(adjudicator, kind, request.id, decision, 'Checked with the sponsor.');
              if (allowed) {
                assert.equal(response.statusCode, 200, response.body);
                const body = response.json<{ status: string; adjudicator: string; updates: { status: string; username: string; comment: string }[] }>();
                assert.equal(body.status, decision);
                assert.equal(body.adjudicator, 'judge');
                assert.deepEqual(body.updates.at(-1), { ...body.updates.at(-1), status: decision, username: 'judge', comment: 'Checked with the sponsor.' });
                assert.deepEqual(await stateOf(request.id), { status: decision, adjudicator: 'judge', updates: (before?.updates ?? 0) + 1 });
                // The same decision again is refused and changes nothing.
                const again = await decide(adjudicator, kind, request.id, decision, 'Twice.');
                assert.equal(again.statusCode, 409);
                assert.deepEqual(again.json(), already(decision));
                assert.deepEqual(await stateOf(request.id), { status: decision, adjudicator: 'judge', updates: (before?.updates ?? 0) + 1 });
              } else {
                assert.equal(response.statusCode, 409, response.body);
                assert.deepEqual(response.json(), status === decision ? already(status) : undecidable(status));
                assert.deepEqual(await stateOf(request.id), before);
                assert.equal((await listMail(world.db, request.email)).length, mailsBefore, 'no mail for a refused decision');
              }
            });
          }
        }
        if (!rules.decisions.includes('incomplete')) {
          test(`${kind}: there is no 'incomplete' decision (404)`, async () => {
            const request = await makeRequest(kind, 'pending');
            const response = await decide(adjudicator, kind, request.id, 'incomplete', 'More?');
            assert.equal(response.statusCode, 404);
            assert.equal((await stateOf(request.id))?.status, 'pending');
          });
        }
      }
    });

    describe('effects', () => {
      test('new account approved: the account exists as requested, with a token to generate, and the mail says how', async () => {
        const request = await makeRequest('new', 'pending');
        const response = await decide(adjudicator, 'new', request.id, 'approved', '');
        assert.equal(response.statusCode, 200, response.body);
        const { rows } = await world.db.query<Record<string, unknown>>(
          `select username, email, first_name, last_name, phone, street, city, state, zip, country, company, project,
                  supervisor_first_name, supervisor_last_name, supervisor_email, supervisor_phone, reason, active, closed,
                  authentication, token_hash, last_certified is not null as certified,
                  array(select role from account_roles r where r.account_id = a.id) as roles
             from accounts a where username = $1`,
          [request.username],
        );
        assert.deepEqual(rows, [
          {
            username: request.username,
            email: request.email,
            first_name: 'Jane',
            last_name: 'Doe',
            phone: '555-0100',
            street: '1 Main Street',
            city: 'Springfield',
            state: 'VA',
            zip: '22150',
            country: 'USA',
            company: 'Example Corp',
            project: 'Portal',
            supervisor_first_name: 'Sam',
            supervisor_last_name: 'Boss',
            supervisor_email: 'sam.boss@example.test',
            supervisor_phone: '555-0199',
            reason: 'Works on the portal.',
            active: true,
            closed: false,
            authentication: ['token'],
            token_hash: null,
            certified: true,
            roles: ['user'],
          },
        ]);
        const history = await world.db.query<{ action: string; comment: string; username: string }>(
          'select action, comment, u.username from account_updates u join accounts a on a.id = u.account_id where a.username = $1',
          [request.username],
        );
        assert.deepEqual(history.rows, [{ action: 'Created', comment: `Account created from new account request ${request.id}.`, username: 'judge' }]);
        const [mail] = await listMail(world.db, request.email);
        assert.equal(mail?.subject, 'Your account request was approved');
        assert.match(mail?.text ?? '', /generate your website token/);
        assert.match(mail?.text ?? '', /\/reset-website-token/);
        assert.match(mail?.text ?? '', new RegExp(`username '${request.username.replace('.', '\\.')}'`));
      });

      test('new account approved with a smart card: the card is bound and the account signs in with it only', async () => {
        const identity = String(1_000_000_000 + serial * 7919);
        const certificate = {
          identity,
          fingerprint: 'ab'.repeat(32),
          subject: `C=US\nO=U.S. Government\nOU=DoD\nCN=DOE.JANE.${identity}`,
          issuer: 'C=US\nO=U.S. Government\nCN=DOD ID CA-99',
          issued_to: { common_name: `DOE.JANE.${identity}`, organization: 'U.S. Government', organizational_unit: ['DoD'], country: 'US' },
          issued_by: { common_name: 'DOD ID CA-99', organization: 'U.S. Government', organizational_unit: [], country: 'US' },
          valid_from: '2026-01-01T00:00:00.000Z',
          valid_until: '2029-01-01T00:00:00.000Z',
          country_of_citizenship: null,
        };
        const request = await makeRequest('new', 'pending', { details: newRequestDetails('Jane', 'Doe', { cac_eligible: true, certificate }) });
        const detail = await call(world.app, adjudicator, 'GET', `/requests/new/${request.id}`);
        assert.equal(detail.json<{ certificate: { issued_to: { common_name: string } } }>().certificate.issued_to.common_name, `DOE.JANE.${identity}`);
        assert.equal(detail.json<{ cac_eligible: boolean }>().cac_eligible, true);
        assert.equal((await decide(adjudicator, 'new', request.id, 'approved')).statusCode, 200);
        const { rows } = await world.db.query<{ authentication: string[]; identity: string }>(
          'select a.authentication, c.identity from accounts a join account_certificates c on c.account_id = a.id where a.username = $1',
          [request.username],
        );
        assert.deepEqual(rows, [{ authentication: ['certificate'], identity }]);
        const [mail] = await listMail(world.db, request.email);
        assert.match(mail?.text ?? '', /Sign in with your smart card/);
      });

      test('new account approved when the username was taken since: 409, nothing created, the request stays denied', async () => {
        const request = await makeRequest('new', 'denied');
        await createAccount(world.db, { username: request.username.toUpperCase(), email: `${unique('other')}@example.test` });
        const response = await decide(adjudicator, 'new', request.id, 'approved');
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), { error: `The username ${request.username} is already taken.`, code: 409 });
        assert.equal((await stateOf(request.id))?.status, 'denied');
        assert.equal(await count(world.db, 'select 1 from accounts where lower(email) = lower($1)', [request.email]), 0);
      });

      test('new account denied: the applicant is told, and the denied search finds it', async () => {
        const request = await makeRequest('new', 'pending', { details: newRequestDetails('Zelda', 'Quorra') });
        assert.equal((await decide(adjudicator, 'new', request.id, 'denied', 'No sponsor.')).statusCode, 200);
        const [mail] = await listMail(world.db, request.email);
        assert.equal(mail?.subject, 'Your account request was denied');
        assert.match(mail?.text ?? '', /No sponsor\./);
        for (const term of ['zelda', 'QUORRA', request.username, 'zel quo']) {
          const found = await call(world.app, adjudicator, 'POST', '/requests/search-denied', { term });
          assert.equal(found.statusCode, 200, found.body);
          assert.deepEqual(
            found.json<{ rows: { id: number }[] }>().rows.map((r) => r.id),
            [request.id],
            `term ${term}`,
          );
        }
        const nothing = await call(world.app, adjudicator, 'POST', '/requests/search-denied', { term: 'zelda%' });
        assert.deepEqual(nothing.json(), { rows: [], has_more_results: false });
        const empty = await call(world.app, adjudicator, 'POST', '/requests/search-denied', { term: '   ' });
        assert.equal(empty.statusCode, 400);
        assert.deepEqual(empty.json(), { error: 'Please enter a search term.', code: 400, fields: { term: 'Please enter a search term.' } });
      });

      test('new account incomplete: a comment is required, and the mail carries it with the status link', async () => {
        const request = await makeRequest('new', 'pending');
        const missing = await decide(adjudicator, 'new', request.id, 'incomplete', '  ');
        assert.equal(missing.statusCode, 400);
        const message = 'Please enter a comment describing the information needed';
        assert.deepEqual(missing.json(), { error: message, code: 400, fields: { comment: message } });
        assert.equal((await stateOf(request.id))?.status, 'pending');
        assert.equal((await decide(adjudicator, 'new', request.id, 'incomplete', 'Who is your sponsor?')).statusCode, 200);
        const [mail] = await listMail(world.db, request.email);
        assert.equal(mail?.subject, 'More information is needed for your account request');
        assert.match(mail?.text ?? '', /Who is your sponsor\?/);
        assert.match(mail?.text ?? '', /http:\/\/localhost:80\/check-account-request-status/);
      });

      test('email change approved: the email changes and both addresses are told; denied: the current one is', async () => {
        const request = await makeRequest('profilechange', 'pending');
        const old = request.account?.email ?? '';
        assert.equal((await decide(adjudicator, 'profilechange', request.id, 'approved')).statusCode, 200);
        const { rows } = await world.db.query<{ email: string }>('select email from accounts where id = $1', [request.accountId]);
        assert.deepEqual(rows, [{ email: request.email }]);
        assert.deepEqual((await listMail(world.db, old)).map((m) => m.subject), ['Your email address was changed']);
        assert.deepEqual((await listMail(world.db, request.email)).map((m) => m.subject), ['Your email address was changed']);
        const history = await world.db.query<{ action: string; comment: string }>('select action, comment from account_updates where account_id = $1', [request.accountId]);
        assert.deepEqual(history.rows, [{ action: 'Email changed', comment: `${old} → ${request.email}` }]);

        const denied = await makeRequest('profilechange', 'pending');
        assert.equal((await decide(adjudicator, 'profilechange', denied.id, 'denied', 'Use your work address.')).statusCode, 200);
        const unchanged = await world.db.query<{ email: string }>('select email from accounts where id = $1', [denied.accountId]);
        assert.deepEqual(unchanged.rows, [{ email: denied.account?.email }]);
        assert.deepEqual((await listMail(world.db, denied.account?.email ?? '')).map((m) => m.subject), ['Your email change request was denied']);
        assert.deepEqual(await listMail(world.db, denied.email), []);
      });

      test('email change approved when an account took the address since: 409 and nothing changes', async () => {
        const request = await makeRequest('profilechange', 'pending');
        await createAccount(world.db, { username: unique('taker'), email: request.email.toUpperCase() });
        const response = await decide(adjudicator, 'profilechange', request.id, 'approved');
        assert.deepEqual(response.json(), { error: `The email ${request.email} is already in use.`, code: 409 });
        assert.equal((await stateOf(request.id))?.status, 'pending');
      });

      test('authentication change to a website token: the cards are unbound, the sessions end', async () => {
        const request = await makeRequest('authchange', 'pending');
        const accountId = request.accountId ?? 0;
        await world.db.query("update accounts set authentication = '{certificate}' where id = $1", [accountId]);
        await bindCertificate(world.db, accountId, { identity: unique('card-'), fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
        const owner = await signIn(world.app, request.username, request.account?.token ?? '');
        assert.equal((await call(world.app, owner, 'GET', '/sessions/current')).statusCode, 200);
        assert.equal((await decide(adjudicator, 'authchange', request.id, 'approved')).statusCode, 200);
        const { rows } = await world.db.query<{ authentication: string[]; cards: number }>(
          'select authentication, (select count(*)::int from account_certificates where account_id = $1) as cards from accounts where id = $1',
          [accountId],
        );
        assert.deepEqual(rows, [{ authentication: ['token'], cards: 0 }]);
        assert.equal((await call(world.app, owner, 'GET', '/sessions/current')).statusCode, 401, 'the session ended');
        const [mail] = await listMail(world.db, request.account?.email ?? '');
        assert.match(mail?.text ?? '', /reset-website-token/);
      });

      test('authentication change to a smart card: the card kept on the request is bound and the token cleared', async () => {
        const identity = String(2_000_000_000 + serial * 7919);
        const request = await makeRequest('authchange', 'pending', {
          details: { authentication: ['certificate'], certificate: { identity, fingerprint: 'cd'.repeat(32), subject: `CN=ROE.JOHN.${identity}`, issuer: 'CN=CA', valid_from: null, valid_until: null } },
        });
        const detail = await call(world.app, adjudicator, 'GET', `/requests/authchange/${request.id}`);
        assert.equal(detail.json<{ identifier: string }>().identifier, 'certificate');
        assert.equal((await decide(adjudicator, 'authchange', request.id, 'approved')).statusCode, 200);
        const { rows } = await world.db.query<{ authentication: string[]; token_hash: string | null; identity: string }>(
          'select a.authentication, a.token_hash, c.identity from accounts a join account_certificates c on c.account_id = a.id where a.id = $1',
          [request.accountId],
        );
        assert.deepEqual(rows, [{ authentication: ['certificate'], token_hash: null, identity }]);
      });

      test('unlock approved: the account is active and its failure count reset; it signs in again', async () => {
        const request = await makeRequest('unlock', 'pending');
        const accountId = request.accountId ?? 0;
        await world.db.query("insert into login_failures (key, failures, last_failure_at) values ($1, 5, now())", [`account:${accountId}`]);
        assert.equal((await postSignIn(world.app, request.username, request.account?.token ?? '')).statusCode, 423);
        assert.equal((await decide(adjudicator, 'unlock', request.id, 'approved', 'Verified by phone.')).statusCode, 200);
        const { rows } = await world.db.query<{ active: boolean; failures: number }>(
          'select active, (select count(*)::int from login_failures where key = $2) as failures from accounts where id = $1',
          [accountId, `account:${accountId}`],
        );
        assert.deepEqual(rows, [{ active: true, failures: 0 }]);
        const history = await world.db.query<{ action: string; comment: string; username: string; active: boolean }>(
          "select action, comment, username, active from account_updates where account_id = $1 and action <> '' ",
          [accountId],
        );
        assert.deepEqual(history.rows, [{ action: 'Unlocked', comment: 'Verified by phone.', username: 'judge', active: true }]);
        assert.equal((await postSignIn(world.app, request.username, request.account?.token ?? '')).statusCode, 200);
        const [mail] = await listMail(world.db, request.account?.email ?? '');
        assert.equal(mail?.subject, 'Your unlock request was approved');
      });

      test('unlock denied: the account stays locked', async () => {
        const request = await makeRequest('unlock', 'pending');
        assert.equal((await decide(adjudicator, 'unlock', request.id, 'denied', 'Call the help desk.')).statusCode, 200);
        const { rows } = await world.db.query<{ active: boolean }>('select active from accounts where id = $1', [request.accountId]);
        assert.deepEqual(rows, [{ active: false }]);
      });

      for (const kind of ['usergroup', 'mailinglist', 'membership'] as const) {
        test(`${kind}: the decision is recorded and the requester mailed`, async () => {
          const request = await makeRequest(kind, 'pending');
          assert.equal((await decide(adjudicator, kind, request.id, 'denied', 'Not now.')).statusCode, 200);
          const [mail] = await listMail(world.db, request.email);
          const subjects = { usergroup: 'Your user group request was denied', mailinglist: 'Your mailing list request was denied', membership: 'Your request to join PORTAL was denied' };
          assert.equal(mail?.subject, subjects[kind]);
          assert.match(mail?.text ?? '', /Not now\./);
        });
      }
    });

    describe('one decision at a time', () => {
      test('two approvals of one request at once: exactly one wins, one account is created', async () => {
        const request = await makeRequest('new', 'pending');
        const [a, b] = await Promise.all([decide(adjudicator, 'new', request.id, 'approved'), decide(admin, 'new', request.id, 'approved')]);
        assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409]);
        const loser = a.statusCode === 409 ? a : b;
        assert.deepEqual(loser.json(), already('approved'));
        assert.equal(await count(world.db, 'select 1 from accounts where username = $1', [request.username]), 1);
        assert.equal(await count(world.db, "select 1 from request_updates where request_id = $1 and status = 'approved'", [request.id]), 1);
        assert.equal((await listMail(world.db, request.email)).length, 1);
      });

      test('an approval and a denial at once: one of them, never both', async () => {
        const request = await makeRequest('unlock', 'pending');
        const [a, b] = await Promise.all([decide(adjudicator, 'unlock', request.id, 'approved'), decide(admin, 'unlock', request.id, 'denied')]);
        assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409]);
        const winner = a.statusCode === 200 ? 'approved' : 'denied';
        assert.equal((await stateOf(request.id))?.status, winner);
        assert.equal(await count(world.db, 'select 1 from request_updates where request_id = $1', [request.id]), 2);
        const { rows } = await world.db.query<{ active: boolean }>('select active from accounts where id = $1', [request.accountId]);
        assert.deepEqual(rows, [{ active: winner === 'approved' }]);
      });
    });

    describe('rules', () => {
      test("nobody decides their own request: the account's, or one they submitted as a surrogate", async () => {
        const own = await insertRequest(world.db, {
          kind: 'profilechange',
          status: 'pending',
          accountId: adjudicatorId,
          username: 'judge',
          email: 'judge.new@example.test',
          reason: 'Mine.',
          details: {},
          createdAt: world.clock.now(),
        });
        assert.deepEqual((await decide(adjudicator, 'profilechange', own, 'approved')).json(), OWN);
        const detail = await call(world.app, adjudicator, 'GET', `/requests/profilechange/${own}`);
        assert.deepEqual(detail.json<{ decisions: string[] }>().decisions, []);
        const surrogate = await makeRequest('profilechange', 'pending');
        await world.db.query("update requests set submitted_by = 'JUDGE' where id = $1", [surrogate.id]);
        assert.deepEqual((await decide(adjudicator, 'profilechange', surrogate.id, 'denied')).json(), OWN);
        assert.equal((await stateOf(surrogate.id))?.status, 'pending');
      });

      test('comment limits: 1000 for new account requests, 150 for the others', async () => {
        const request = await makeRequest('new', 'pending');
        const tooLong = await decide(adjudicator, 'new', request.id, 'denied', 'x'.repeat(1001));
        assert.deepEqual(tooLong.json(), { error: 'Must be less than 1000 characters (1001/1000)', code: 400, fields: { comment: 'Must be less than 1000 characters (1001/1000)' } });
        assert.equal((await decide(adjudicator, 'new', request.id, 'denied', 'x'.repeat(1000))).statusCode, 200);
        const unlock = await makeRequest('unlock', 'pending');
        const over = await decide(adjudicator, 'unlock', unlock.id, 'denied', 'x'.repeat(151));
        assert.deepEqual(over.json(), { error: 'Must be less than 150 characters (151/150)', code: 400, fields: { comment: 'Must be less than 150 characters (151/150)' } });
        assert.equal((await stateOf(unlock.id))?.status, 'pending');
      });

      test('an unknown id, or the id of another kind: 404', async () => {
        const request = await makeRequest('unlock', 'pending');
        assert.deepEqual((await call(world.app, adjudicator, 'GET', '/requests/unlock/999999999')).json(), NOT_FOUND);
        assert.deepEqual((await call(world.app, adjudicator, 'GET', `/requests/profilechange/${request.id}`)).json(), NOT_FOUND);
        assert.deepEqual((await decide(adjudicator, 'profilechange', request.id, 'approved')).json(), NOT_FOUND);
        // An id that is not a whole number names no request: 404 (the screen's not-found view), never the schema's text.
        for (const id of ['abc', '1.5', '-1', '0', '99999999999999999999']) {
          assert.deepEqual((await call(world.app, adjudicator, 'GET', `/requests/new/${id}`)).json(), { error: 'Not found', code: 404 }, id);
        }
      });
    });

    describe('lists, details and counts', () => {
      test('a list holds the open requests of its kind, oldest first, in pages, with the kind identifier', async () => {
        await clearQueues();
        const made = [];
        for (let i = 0; i < 3; i++) {
          world.clock.advance(1000);
          made.push(await makeRequest('profilechange', 'pending'));
        }
        await makeRequest('profilechange', 'denied');
        const first = await call(world.app, adjudicator, 'GET', '/requests/profilechange?start_index=0&max_results=2');
        assert.equal(first.statusCode, 200, first.body);
        const page = first.json<{ rows: { id: number; identifier: string; username: string; email: string; first_name: string; status: string }[]; has_more_results: boolean }>();
        assert.deepEqual(page.rows.map((r) => r.id), [made[0]?.id, made[1]?.id]);
        assert.equal(page.has_more_results, true);
        assert.deepEqual(page.rows[0], {
          ...page.rows[0],
          kind: 'profilechange',
          identifier: made[0]?.email,
          username: made[0]?.username,
          email: made[0]?.account?.email,
          first_name: 'Test',
          last_name: 'Person',
          status: 'pending',
        });
        const second = await call(world.app, adjudicator, 'GET', '/requests/profilechange?start_index=2&max_results=2');
        assert.deepEqual(second.json<{ rows: { id: number }[] }>().rows.map((r) => r.id), [made[2]?.id]);
        assert.equal(second.json<{ has_more_results: boolean }>().has_more_results, false);
        assert.equal((await call(world.app, adjudicator, 'GET', '/requests/profilechange?max_results=101')).statusCode, 400);
      });

      test('the new account list shows pending and incomplete requests; the counts only pending ones', async () => {
        await clearQueues();
        const pending = await makeRequest('new', 'pending');
        const incomplete = await makeRequest('new', 'incomplete');
        await makeRequest('new', 'denied');
        await makeRequest('unlock', 'pending');
        await makeRequest('unlock', 'pending');
        await makeRequest('authchange', 'pending');
        const list = await call(world.app, adjudicator, 'GET', '/requests/new');
        assert.deepEqual(
          list.json<{ rows: { id: number; status: string; identifier: string; first_name: string }[] }>().rows.map((r) => [r.id, r.status, r.identifier, r.first_name]),
          [
            [pending.id, 'pending', pending.username, 'Jane'],
            [incomplete.id, 'incomplete', incomplete.username, 'Jane'],
          ],
        );
        const summary = await call(world.app, adjudicator, 'GET', '/requests');
        assert.deepEqual(summary.json(), { total_authchange: 1, total_profilechange: 0, total_mailinglist: 0, total_new: 1, total_usergroup: 0, total_unlock: 2 });
      });

      test('a detail holds the kind fields, the updates, the account and what the caller may decide', async () => {
        const request = await makeRequest('unlock', 'pending');
        await addAccountUpdate(world.db, { accountId: request.accountId ?? 0, comment: 'Locked for a test.', username: 'admin', active: false });
        const detail = await call(world.app, adjudicator, 'GET', `/requests/unlock/${request.id}`);
        assert.equal(detail.statusCode, 200, detail.body);
        const body = detail.json<{ reason: string; decisions: string[]; account: { username: string; active: boolean }; updates: { status: string; username: string; comment: string }[] }>();
        assert.equal(body.reason, 'Because.');
        assert.deepEqual(body.decisions, ['approved', 'denied']);
        assert.deepEqual([body.account.username, body.account.active], [request.username, false]);
        assert.deepEqual(body.updates.map((u) => [u.status, u.username, u.comment]), [['pending', request.username, 'Request submitted.']]);
        const fromHelpdesk = await call(world.app, helpdesk, 'GET', `/requests/unlock/${request.id}`);
        assert.deepEqual(fromHelpdesk.json<{ decisions: string[] }>().decisions, ['approved', 'denied']);
        const newRequest = await makeRequest('new', 'denied');
        const denied = await call(world.app, adjudicator, 'GET', `/requests/new/${newRequest.id}`);
        assert.deepEqual(denied.json<{ decisions: string[]; supervisor: unknown }>().decisions, ['approved', 'incomplete']);
        assert.deepEqual(denied.json<{ supervisor: unknown }>().supervisor, { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@example.test', phone: '555-0199' });
      });
    });

    describe('permissions', () => {
      test('a user may not list, view or decide any kind', async () => {
        for (const kind of REQUEST_KINDS) {
          const request = await makeRequest(kind, 'pending');
          assert.deepEqual((await call(world.app, user, 'GET', `/requests/${kind}`)).json(), FORBIDDEN, kind);
          assert.deepEqual((await call(world.app, user, 'GET', `/requests/${kind}/${request.id}`)).json(), FORBIDDEN, kind);
          assert.deepEqual((await decide(user, kind, request.id, 'approved')).json(), FORBIDDEN, kind);
          assert.equal((await stateOf(request.id))?.status, 'pending');
        }
        assert.deepEqual((await call(world.app, user, 'GET', '/requests')).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, user, 'POST', '/requests/search-denied', { term: 'a' })).json(), FORBIDDEN);
      });

      test('the help desk handles unlock requests only', async () => {
        const unlock = await makeRequest('unlock', 'pending');
        assert.equal((await call(world.app, helpdesk, 'GET', '/requests/unlock')).statusCode, 200);
        assert.equal((await decide(helpdesk, 'unlock', unlock.id, 'approved')).statusCode, 200);
        const other = await makeRequest('new', 'pending');
        assert.deepEqual((await call(world.app, helpdesk, 'GET', '/requests/new')).json(), FORBIDDEN);
        assert.deepEqual((await decide(helpdesk, 'new', other.id, 'approved')).json(), FORBIDDEN);
        await makeRequest('unlock', 'pending');
        await makeRequest('profilechange', 'pending');
        // The summary counts only the queues the caller may list: for the help desk, the unlock queue.
        const all = (await call(world.app, adjudicator, 'GET', '/requests')).json<Record<string, number>>();
        assert.ok((all.total_new ?? 0) > 0 && (all.total_profilechange ?? 0) > 0 && (all.total_unlock ?? 0) > 0, JSON.stringify(all));
        const summary = await call(world.app, helpdesk, 'GET', '/requests');
        assert.equal(summary.statusCode, 200);
        assert.deepEqual(summary.json(), { total_authchange: 0, total_profilechange: 0, total_mailinglist: 0, total_new: 0, total_usergroup: 0, total_unlock: all.total_unlock });
      });

      test('signed out: 401, nothing decided', async () => {
        const request = await makeRequest('unlock', 'pending');
        const response = await call(world.app, await anonymous(world.app), 'POST', `/requests/unlock/${request.id}/approved`, {});
        assert.equal(response.statusCode, 401);
        assert.equal((await stateOf(request.id))?.status, 'pending');
      });
    });
  });
}
