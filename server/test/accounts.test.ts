/**
 * GET and POST /accounts/rest/accounts/{username}: the Account as its owner and the account
 * administrators see it, and the profile update with every rule of spec section 5 (on PGlite,
 * and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RULE_MESSAGES } from '@portal/api';
import type { ProfileFields } from '../src/repositories/accounts.js';
import { bindCertificate } from '../src/repositories/certificates.js';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { accountGroups } from '../src/services/accounts.js';
import { certificateNameOf } from '../src/services/certificates.js';
import { permissionsOf } from '../src/services/roles.js';
import { anonymous, createAccount, signIn } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import {
  FORBIDDEN,
  FULL_PROFILE,
  NOT_FOUND,
  call,
  count,
  createWorld,
  profileBody,
  setProfile,
  signedIn,
  type World,
} from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const SUBJECT = 'C=US\nO=U.S. Government\nOU=DoD\nOU=PKI\nOU=CONTRACTOR\nCN=DOE.JANE.1234567890';
const ISSUER = 'C=US\nO=U.S. Government\nOU=DoD\nOU=PKI\nCN=DOD ID CA-59';

describe('parsing certificate names and groups', () => {
  test('a subject or issuer as node prints it', () => {
    assert.deepEqual(certificateNameOf(SUBJECT), {
      common_name: 'DOE.JANE.1234567890',
      organization: 'U.S. Government',
      organizational_unit: ['DoD', 'PKI', 'CONTRACTOR'],
      country: 'US',
    });
    assert.deepEqual(certificateNameOf('CN=Jane Contractor\nO="Example, Inc."\nC=US'), {
      common_name: 'Jane Contractor',
      organization: 'Example, Inc.',
      organizational_unit: [],
      country: 'US',
    });
    assert.deepEqual(certificateNameOf(null), { common_name: '', organization: '', organizational_unit: [], country: '' });
    assert.deepEqual(certificateNameOf('garbage'), { common_name: '', organization: '', organizational_unit: [], country: '' });
  });

  test('role and notification: the highest wins; every other group is special', () => {
    const m = (userGroupId: string, groupName: string) => ({ userGroupId, userGroupName: `${userGroupId} name`, groupName });
    assert.deepEqual(
      accountGroups([
        m('ZETA', 'ZETA-notification-medium'),
        m('ALPHA', 'ALPHA-user'),
        m('ALPHA', 'ALPHA-admin'),
        m('ALPHA', 'ALPHA-team'),
        m('ALPHA', 'ALPHA-notification-low'),
        m('ALPHA', 'ALPHA-notification-high'),
        m('ALPHA', 'ALPHA-reviewers'),
        m('ALPHA', 'ALPHA-artifactsWrite'),
        m('BETA', 'BETA-team'),
      ]),
      [
        { user_group: 'ALPHA', name: 'ALPHA name', role: 'admin', notification: 'high', special: ['ALPHA-artifactsWrite', 'ALPHA-reviewers'] },
        { user_group: 'BETA', name: 'BETA name', role: 'team', notification: 'none', special: [] },
        { user_group: 'ZETA', name: 'ZETA name', role: null, notification: 'medium', special: [] },
      ],
    );
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`accounts on ${kind}`, () => {
    let world: World;
    before(async () => {
      world = await createWorld(kind, fixture);
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (base: string) => `${base}${++serial}`;

    describe('GET /accounts/{username}', () => {
      test('the owner gets the whole Account: profile, certificate, updates newest first, groups, pending requests', async () => {
        const { db, app, clock } = world;
        const username = unique('jane.doe');
        const jane = await createAccount(db, { username, roles: ['user'] });
        await setProfile(db, jane.id);
        await db.query("update accounts set first_name = 'Jane', last_name = 'Doe', authentication = '{token,certificate}' where id = $1", [jane.id]);
        await bindCertificate(db, jane.id, {
          identity: `${serial}234567890`,
          fingerprint: null,
          subject: SUBJECT,
          issuer: ISSUER,
          validFrom: new Date('2025-01-01T00:00:00Z'),
          validUntil: new Date('2028-01-01T00:00:00Z'),
        });
        await db.query(
          `insert into account_updates (account_id, comment, username, active, created_at)
           values ($1, 'Locked for a test.', 'admin', false, '2025-03-01T10:00:00Z'),
                  ($1, 'Unlocked.', 'helpdesk', true, '2025-03-02T10:00:00Z')`,
          [jane.id],
        );
        const group = unique('TEAM');
        await insertUserGroup(db, { id: group, name: 'The Team', description: 'A team.', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'] });
        for (const name of [`${group}-user`, `${group}-team`, `${group}-notification-low`, `${group}-reviewers`]) await addMembership(db, group, jane.id, name);
        await db.query(
          `insert into requests (kind, status, account_id, username, email, created_at, updated_at)
           values ('profilechange', 'pending', $1, $2, 'jane.new@example.test', now(), now()),
                  ('authchange', 'denied', $1, $2, $3, now(), now())`,
          [jane.id, username, jane.email],
        );

        const who = await signIn(app, username, jane.token);
        const response = await call(app, who, 'GET', `/accounts/${username.toUpperCase()}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.deepEqual(response.json(), {
          username,
          first_name: 'Jane',
          last_name: 'Doe',
          email: jane.email,
          active: true,
          closed: false,
          last_authenticated: clock.now().toISOString(),
          authentication: ['token', 'certificate'],
          phone: FULL_PROFILE.phone,
          address: { street: FULL_PROFILE.street, city: FULL_PROFILE.city, state: FULL_PROFILE.state, zip: FULL_PROFILE.zip, country: FULL_PROFILE.country },
          company: FULL_PROFILE.company,
          project: FULL_PROFILE.project,
          supervisor: {
            first_name: FULL_PROFILE.supervisor_first_name,
            last_name: FULL_PROFILE.supervisor_last_name,
            email: FULL_PROFILE.supervisor_email,
            phone: FULL_PROFILE.supervisor_phone,
          },
          reason: FULL_PROFILE.reason,
          certificate: {
            issued_to: { common_name: 'DOE.JANE.1234567890', organization: 'U.S. Government', organizational_unit: ['DoD', 'PKI', 'CONTRACTOR'], country: 'US' },
            issued_by: { common_name: 'DOD ID CA-59', organization: 'U.S. Government', organizational_unit: ['DoD', 'PKI'], country: 'US' },
            valid_from: '2025-01-01T00:00:00.000Z',
            valid_until: '2028-01-01T00:00:00.000Z',
            country_of_citizenship: null,
          },
          permissions: permissionsOf(['user']),
          updates: [
            { action: '', comment: 'Unlocked.', created: '2025-03-02T10:00:00.000Z', username: 'helpdesk', active: true },
            { action: '', comment: 'Locked for a test.', created: '2025-03-01T10:00:00.000Z', username: 'admin', active: false },
          ],
          email_change_pending: true,
          auth_change_pending: false,
          groups: [{ user_group: group, name: 'The Team', role: 'team', notification: 'low', special: [`${group}-reviewers`] }],
        });
      });

      test('an account with nothing recorded: empty texts, no certificate, no history, no groups, never signed in', async () => {
        const { db, app } = world;
        const bare = await createAccount(db, { username: unique('bare'), roles: [] });
        await db.query('update accounts set first_name = null, last_name = null where id = $1', [bare.id]);
        const { who } = await signedIn(world, unique('viewer'), { roles: ['help-desk'] });
        const response = await call(app, who, 'GET', `/accounts/${bare.username}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), {
          username: bare.username,
          first_name: '',
          last_name: '',
          email: bare.email,
          active: true,
          closed: false,
          last_authenticated: null,
          authentication: ['token'],
          phone: '',
          address: { street: '', city: '', state: '', zip: '', country: '' },
          company: '',
          project: '',
          supervisor: { first_name: '', last_name: '', email: '', phone: '' },
          reason: '',
          certificate: null,
          permissions: [],
          updates: [],
          email_change_pending: false,
          auth_change_pending: false,
          groups: [],
        });
      });

      test("another user's account: 403 Forbidden, known or not; VIEW_ACCOUNT sees it, and 404 for an unknown one", async () => {
        const { app } = world;
        const owner = await signedIn(world, unique('owner'));
        const other = await signedIn(world, unique('other'));
        for (const path of [`/accounts/${owner.account.username}`, '/accounts/nobody.here']) {
          const response = await call(app, other.who, 'GET', path);
          assert.equal(response.statusCode, 403, path);
          assert.deepEqual(response.json(), FORBIDDEN);
        }
        for (const role of ['help-desk', 'adjudicator', 'site-admin'] as const) {
          const viewer = await signedIn(world, unique('viewer'), { roles: [role] });
          const seen = await call(app, viewer.who, 'GET', `/accounts/${owner.account.username}`);
          assert.equal(seen.statusCode, 200, role);
          assert.equal(seen.json<{ username: string }>().username, owner.account.username);
          const unknown = await call(app, viewer.who, 'GET', '/accounts/nobody.here');
          assert.equal(unknown.statusCode, 404, role);
          assert.deepEqual(unknown.json(), NOT_FOUND);
        }
      });

      test('an account without any role still reads its own account', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('norole'), { roles: [] });
        const response = await call(app, who, 'GET', `/accounts/${account.username}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json<{ permissions: string[] }>().permissions, []);
      });

      test('not signed in: 401', async () => {
        const { app } = world;
        const response = await app.inject({ method: 'GET', url: '/accounts/rest/accounts/user' });
        assert.equal(response.statusCode, 403); // no anti-forgery token
        const signedOut = await call(app, await anonymous(app), 'GET', '/accounts/user');
        assert.equal(signedOut.statusCode, 401);
        assert.deepEqual(signedOut.json(), { error: 'Not signed in', code: 401 });
      });
    });

    describe('POST /accounts/{username}', () => {
      const UPDATED: ProfileFields = {
        phone: '+1 (555) 010-2000 x12',
        street: '2 Second Avenue',
        city: 'Shelbyville',
        state: 'MD',
        zip: '20901',
        country: 'US',
        company: 'TRMC J6',
        project: 'Range modernization',
        supervisor_first_name: 'Mona',
        supervisor_last_name: 'Lisa',
        supervisor_email: 'mona.lisa@example.test',
        supervisor_phone: '555 010 3000',
        reason: 'Now on the range team',
      };

      async function profileOf(accountId: number): Promise<Record<string, unknown>> {
        const { rows } = await world.db.query<Record<string, unknown>>(
          `select phone, street, city, state, zip, country, company, project, supervisor_first_name, supervisor_last_name,
                  supervisor_email, supervisor_phone, reason from accounts where id = $1`,
          [accountId],
        );
        return rows[0] ?? {};
      }

      const updatesOf = (accountId: number) =>
        world.db.query<{ comment: string; username: string; active: boolean }>('select comment, username, active from account_updates where account_id = $1 order by id', [accountId]);

      test('the owner updates the profile: stored trimmed, recorded, answered with the updated Account', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('updater'));
        await setProfile(world.db, account.id);
        const padded = Object.fromEntries(Object.entries(UPDATED).map(([k, v]) => [k, `  ${v} `])) as unknown as ProfileFields;
        const response = await call(app, who, 'POST', `/accounts/${account.username}`, profileBody(padded));
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json<Record<string, unknown>>();
        assert.equal(body.phone, UPDATED.phone);
        assert.deepEqual(body.address, { street: UPDATED.street, city: UPDATED.city, state: UPDATED.state, zip: UPDATED.zip, country: UPDATED.country });
        assert.deepEqual(body.supervisor, { first_name: 'Mona', last_name: 'Lisa', email: 'mona.lisa@example.test', phone: '555 010 3000' });
        assert.equal(body.reason, UPDATED.reason);
        assert.deepEqual((body.updates as { comment: string; username: string }[]).map((u) => [u.comment, u.username]), [['Profile updated.', account.username]]);
        assert.deepEqual(await profileOf(account.id), { ...UPDATED });
        assert.deepEqual((await updatesOf(account.id)).rows, [{ comment: 'Profile updated.', username: account.username, active: true }]);
        // And GET answers the same.
        const read = await call(app, who, 'GET', `/accounts/${account.username}`);
        assert.deepEqual(read.json(), body);
      });

      const long = (n: number) => 'a'.repeat(n);
      const cases: [string, Partial<ProfileFields>, string, string][] = [
        ['phone empty', { phone: '  ' }, 'phone', 'Please enter a phone number'],
        ['phone letters', { phone: 'call me' }, 'phone', RULE_MESSAGES.invalidPhone],
        ['phone too short', { phone: '12345' }, 'phone', RULE_MESSAGES.invalidPhone],
        ['street empty', { street: '' }, 'street', 'Please enter a street address'],
        ['street of 1', { street: 'x' }, 'street', RULE_MESSAGES.atLeast2],
        ['street of 126', { street: long(126) }, 'street', 'Must be less than 125 characters (126/125)'],
        ['city empty', { city: '' }, 'city', 'Please enter a city'],
        ['city of 76', { city: long(76) }, 'city', 'Must be less than 75 characters (76/75)'],
        ['state empty', { state: '' }, 'state', 'Please enter a state'],
        ['state of 16', { state: long(16) }, 'state', 'Must be less than 15 characters (16/15)'],
        ['zip empty', { zip: '' }, 'zip', 'Please enter a postal code'],
        ['zip of 11', { zip: long(11) }, 'zip', 'Must be less than 10 characters (11/10)'],
        ['country empty', { country: '' }, 'country', 'Please enter a country'],
        ['country of 16', { country: long(16) }, 'country', 'Must be less than 15 characters (16/15)'],
        ['company empty', { company: '' }, 'company', 'Please enter a company or government symbol'],
        ['company of 256', { company: long(256) }, 'company', 'Must be less than 255 characters (256/255)'],
        ['project empty', { project: '' }, 'project', 'Please enter a project'],
        ['project of 1', { project: 'p' }, 'project', RULE_MESSAGES.atLeast2],
        ['supervisor first name empty', { supervisor_first_name: '' }, 'supervisor_first_name', "Please enter your supervisor's first name"],
        ['supervisor first name with digits', { supervisor_first_name: 'J0hn' }, 'supervisor_first_name', RULE_MESSAGES.nameCharacters],
        ['supervisor last name empty', { supervisor_last_name: '' }, 'supervisor_last_name', "Please enter your supervisor's last name"],
        ['supervisor last name of 1', { supervisor_last_name: 'L' }, 'supervisor_last_name', RULE_MESSAGES.atLeast2],
        ['supervisor email empty', { supervisor_email: '' }, 'supervisor_email', "Please enter your supervisor's email address"],
        ['supervisor email invalid', { supervisor_email: 'mona at example' }, 'supervisor_email', RULE_MESSAGES.emailInvalid],
        ['supervisor email with a display name', { supervisor_email: 'Mona <mona@example.test>' }, 'supervisor_email', RULE_MESSAGES.emailInvalid],
        ['supervisor phone empty', { supervisor_phone: '' }, 'supervisor_phone', "Please enter your supervisor's phone number"],
        ['supervisor phone invalid', { supervisor_phone: '12' }, 'supervisor_phone', RULE_MESSAGES.invalidPhone],
        ['reason empty', { reason: '' }, 'reason', 'Please enter a reason'],
        ['reason of 1', { reason: 'r' }, 'reason', RULE_MESSAGES.atLeast2],
        // A reason box: 150 (spec section 9).
        ['reason of 151', { reason: long(151) }, 'reason', 'Must be less than 150 characters (151/150)'],
      ];

      test('every rule: 400 with the message under its field, nothing stored', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('validated'));
        await setProfile(world.db, account.id);
        for (const [name, change, field, message] of cases) {
          const response = await call(app, who, 'POST', `/accounts/${account.username}`, profileBody({ ...UPDATED, ...change }));
          assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
          assert.deepEqual(response.json(), { error: message, code: 400, fields: { [field]: message } }, name);
        }
        assert.deepEqual(await profileOf(account.id), { ...FULL_PROFILE });
        assert.equal((await updatesOf(account.id)).rows.length, 0);
      });

      test('the reason for the account: 150 at most, the sponsor suffix not counted; one stored longer before may be kept unchanged', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('reasons'));
        const sponsored = `${long(150)} [GOVT SPONSOR: sponsor@agency.mil]`;
        const atLimit = await call(app, who, 'POST', `/accounts/${account.username}`, profileBody({ ...UPDATED, reason: sponsored }));
        assert.equal(atLimit.statusCode, 200, atLimit.body);
        // A reason stored when the box took 1000 characters: sent back as it is, it is kept; changed, it must fit.
        const legacy = long(900);
        await world.db.query('update accounts set reason = $2 where id = $1', [account.id, legacy]);
        const kept = await call(app, who, 'POST', `/accounts/${account.username}`, profileBody({ ...UPDATED, reason: legacy }));
        assert.equal(kept.statusCode, 200, kept.body);
        const changed = await call(app, who, 'POST', `/accounts/${account.username}`, profileBody({ ...UPDATED, reason: `${legacy}b` }));
        assert.deepEqual(changed.json(), { error: 'Must be less than 150 characters (901/150)', code: 400, fields: { reason: 'Must be less than 150 characters (901/150)' } });
      });

      test('missing fields get their required messages, all at once', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('empty'));
        const response = await call(app, who, 'POST', `/accounts/${account.username}`, {});
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), {
          error: 'Please enter a phone number',
          code: 400,
          fields: {
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
          },
        });
        const partial = await call(app, who, 'POST', `/accounts/${account.username}`, { ...profileBody(UPDATED), address: { street: '3 Third Street' } });
        assert.deepEqual(partial.json<{ fields: object }>().fields, {
          city: 'Please enter a city',
          state: 'Please enter a state',
          zip: 'Please enter a postal code',
          country: 'Please enter a country',
        });
        assert.equal((await updatesOf(account.id)).rows.length, 0);
      });

      test('an unknown field, or a value of the wrong shape, is refused by the schema', async () => {
        const { app } = world;
        const { account, who } = await signedIn(world, unique('schema'));
        const extra = await call(app, who, 'POST', `/accounts/${account.username}`, { ...profileBody(UPDATED), email: 'new@example.test' });
        assert.equal(extra.statusCode, 400);
        assert.deepEqual(extra.json(), { error: 'The field email is not accepted.', code: 400 });
        const nested = await call(app, who, 'POST', `/accounts/${account.username}`, { ...profileBody(UPDATED), supervisor: { ...profileBody(UPDATED).supervisor, title: 'Boss' } });
        assert.equal(nested.statusCode, 400);
        const typed = await call(app, who, 'POST', `/accounts/${account.username}`, { ...profileBody(UPDATED), address: 'Main Street' });
        assert.equal(typed.statusCode, 400);
        assert.equal((await updatesOf(account.id)).rows.length, 0);
      });

      test("who may: the owner with allow-profilechange, or EDIT_ACCOUNT; others 403 (unknown too); EDIT_ACCOUNT learns 404", async () => {
        const { app } = world;
        const owner = await signedIn(world, unique('target'));
        await setProfile(world.db, owner.account.id);
        const path = `/accounts/${owner.account.username}`;

        const other = await signedIn(world, unique('other'));
        const helpdesk = await signedIn(world, unique('helpdesk'), { roles: ['help-desk'] });
        for (const who of [other.who, helpdesk.who]) {
          const refused = await call(app, who, 'POST', path, profileBody(UPDATED));
          assert.equal(refused.statusCode, 403);
          assert.deepEqual(refused.json(), FORBIDDEN);
          const unknown = await call(app, who, 'POST', '/accounts/nobody.here', profileBody(UPDATED));
          assert.deepEqual(unknown.json(), FORBIDDEN);
        }
        // Refused before validation: an invalid body gets the same 403.
        assert.deepEqual((await call(app, other.who, 'POST', path, {})).json(), FORBIDDEN);
        assert.deepEqual(await profileOf(owner.account.id), { ...FULL_PROFILE });

        const norole = await signedIn(world, unique('norole'), { roles: [] });
        const own = await call(app, norole.who, 'POST', `/accounts/${norole.account.username}`, profileBody(UPDATED));
        assert.equal(own.statusCode, 403, 'the owner without allow-profilechange');
        assert.deepEqual(own.json(), FORBIDDEN);

        const adjudicator = await signedIn(world, unique('adjudicator'), { roles: ['adjudicator'] });
        const edited = await call(app, adjudicator.who, 'POST', `/accounts/${owner.account.username.toUpperCase()}`, profileBody(UPDATED));
        assert.equal(edited.statusCode, 200, edited.body);
        assert.deepEqual(await profileOf(owner.account.id), { ...UPDATED });
        assert.deepEqual((await updatesOf(owner.account.id)).rows, [{ comment: 'Profile updated.', username: adjudicator.account.username, active: true }]);
        const unknown = await call(app, adjudicator.who, 'POST', '/accounts/nobody.here', profileBody(UPDATED));
        assert.equal(unknown.statusCode, 404);
        assert.deepEqual(unknown.json(), NOT_FOUND);
      });

      test('a locked account edited by EDIT_ACCOUNT keeps its state in the update', async () => {
        const { app, db } = world;
        const locked = await createAccount(db, { username: unique('locked'), state: 'locked' });
        const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
        const response = await call(app, admin.who, 'POST', `/accounts/${locked.username}`, profileBody(UPDATED));
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json<{ active: boolean }>().active, false);
        assert.equal(await count(db, "select 1 from account_updates where account_id = $1 and comment = 'Profile updated.' and not active", [locked.id]), 1);
      });
    });
  });
}
