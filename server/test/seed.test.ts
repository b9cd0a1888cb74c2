import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHOW_MORE_ABOVE } from '@portal/api';
import { DEMO_ACCOUNTS_FILE, DEMO_ADMIN_CERTIFICATE, DEMO_LOCK_COMMENT, demoSignInText, readDemoAccountsFile, seedDemoData, writeDemoAccountsFile } from '../src/seed.js';
import { verifyWebsiteToken } from '../src/services/tokens.js';
import { signIn } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase } from './helpers.js';
import { call } from './self-service-helpers.js';

const DEMO = [
  { username: 'admin', role: 'site-admin', state: 'active' },
  { username: 'adjudicator', role: 'adjudicator', state: 'active' },
  { username: 'helpdesk', role: 'help-desk', state: 'active' },
  { username: 'user', role: 'user', state: 'active' },
  { username: 'locked.user', role: 'user', state: 'locked' },
  { username: 'closed.user', role: 'user', state: 'closed' },
  { username: 'renewal.user', role: 'user', state: 'active' },
];

for (const kind of DATABASE_KINDS) {
  describe(`demo data on ${kind}`, () => {
    test('creates one account per role, a locked one, a closed one and one that must renew', async () => {
      const db = await createTestDatabase(kind);
      try {
        const created = await seedDemoData(db);
        assert.deepEqual(created.map(({ token: _token, ...rest }) => rest), DEMO);
        const accounts = await db.query<{ username: string; email: string; active: boolean; closed: boolean; authentication: string[]; roles: string[] }>(
          `select a.username, a.email, a.active, a.closed, a.authentication,
                  array(select r.role from account_roles r where r.account_id = a.id order by r.role) as roles
             from accounts a order by a.id`,
        );
        assert.deepEqual(
          accounts.rows,
          DEMO.map((d) => ({
            username: d.username,
            email: `${d.username}@example.test`,
            active: d.state === 'active',
            closed: d.state === 'closed',
            authentication: d.username === 'admin' ? ['token', 'certificate'] : ['token'],
            roles: [d.role],
          })),
        );
        const updates = await db.query<{ account: string; comment: string; username: string; active: boolean }>(
          'select a.username as account, u.comment, u.username, u.active from account_updates u join accounts a on a.id = u.account_id',
        );
        assert.deepEqual(updates.rows, [{ account: 'locked.user', comment: DEMO_LOCK_COMMENT, username: 'admin', active: false }]);

        // Every account has its own website token, stored only as an Argon2id hash.
        const hashes = await db.query<{ username: string; token_hash: string }>('select username, token_hash from accounts order by id');
        assert.equal(new Set(created.map((c) => c.token)).size, 7);
        for (const [i, row] of hashes.rows.entries()) {
          const token = created[i]?.token ?? '';
          assert.match(token, /^[A-Za-z0-9_-]{43}$/);
          assert.match(row.token_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
          assert.ok(!row.token_hash.includes(token));
          assert.equal(await verifyWebsiteToken(row.token_hash, token), true, row.username);
        }
        // admin signs in with the demo smart card (identity number 1234567890).
        const certificates = await db.query<{ username: string; identity: string; subject: string; issuer: string }>(
          'select a.username, c.identity, c.subject, c.issuer from account_certificates c join accounts a on a.id = c.account_id',
        );
        assert.deepEqual(certificates.rows, [{ username: 'admin', identity: '1234567890', ...DEMO_ADMIN_CERTIFICATE }]);
        // Every account has a full profile; renewal.user last certified 400 days ago, the others today.
        const profiles = await db.query<Record<string, string | null> & { username: string; certified_days_ago: number }>(
          `select username, phone, street, city, state, zip, country, company, project, supervisor_first_name,
                  supervisor_last_name, supervisor_email, supervisor_phone, reason,
                  round(extract(epoch from (now() - last_certified)) / 86400)::int as certified_days_ago
             from accounts order by id`,
        );
        for (const row of profiles.rows) {
          for (const [field, value] of Object.entries(row)) assert.ok(value !== null && value !== '', `${row.username}.${field}`);
          assert.equal(row.certified_days_ago, row.username === 'renewal.user' ? 400 : 0, row.username);
        }
        // user subscribes to jira (also held through PORTAL) and jsm itself.
        const subscriptions = await db.query<{ username: string; service: string }>(
          'select a.username, s.service from account_subscriptions s join accounts a on a.id = s.account_id order by a.username, s.service',
        );
        assert.deepEqual(subscriptions.rows, [
          { username: 'user', service: 'jira' },
          { username: 'user', service: 'jsm' },
        ]);
        // A few groups, with the demo accounts as members.
        const groups = await db.query<{ id: string; open_access: boolean; member_constraint: string; visibility: string }>(
          'select id, open_access, member_constraint, visibility from user_groups order by id',
        );
        assert.deepEqual(groups.rows, [
          { id: 'DEVOPS', open_access: true, member_constraint: 'None', visibility: 'site-approved' },
          { id: 'PORTAL', open_access: false, member_constraint: 'None', visibility: 'site-approved' },
          { id: 'SECURE', open_access: false, member_constraint: 'DoD', visibility: 'SECURE-admin' },
        ]);
        const members = await db.query<{ username: string; group_name: string }>(
          'select a.username, m.group_name from group_memberships m join accounts a on a.id = m.account_id order by m.group_name, a.username',
        );
        assert.deepEqual(members.rows, [
          { username: 'helpdesk', group_name: 'DEVOPS-team' },
          { username: 'user', group_name: 'DEVOPS-user' },
          { username: 'admin', group_name: 'PORTAL-admin' },
          { username: 'admin', group_name: 'PORTAL-artifactsAdmin' },
          { username: 'adjudicator', group_name: 'PORTAL-artifactsRead' },
          { username: 'user', group_name: 'PORTAL-artifactsWrite' },
          { username: 'adjudicator', group_name: 'PORTAL-audit' },
          { username: 'admin', group_name: 'PORTAL-notification-high' },
          { username: 'user', group_name: 'PORTAL-notification-low' },
          { username: 'user', group_name: 'PORTAL-release' },
          { username: 'adjudicator', group_name: 'PORTAL-team' },
          { username: 'user', group_name: 'PORTAL-user' },
          { username: 'admin', group_name: 'SECURE-admin' },
        ]);
        // user has a token that expired (shown EXPIRED), never revoked.
        const tokens = await db.query<{ username: string; description: string; expired: boolean; revoked_at: Date | null }>(
          'select a.username, t.description, t.expires_at < now() as expired, t.revoked_at from access_tokens t join accounts a on a.id = t.account_id',
        );
        assert.deepEqual(tokens.rows, [{ username: 'user', description: 'Old release upload', expired: true, revoked_at: null }]);
        // Two lists in PORTAL, one opt-out with two posts held, one opt-in.
        const demoLists = await db.query('select id, permission_group, posting_permissions, automatic_subscription from mailing_lists order by id');
        assert.deepEqual(demoLists.rows, [
          { id: 'portal-announce@example.test', permission_group: 'PORTAL-user', posting_permissions: 'announce', automatic_subscription: false },
          { id: 'portal-dev@example.test', permission_group: 'PORTAL-user', posting_permissions: 'closed', automatic_subscription: true },
        ]);
        const heldPosts = await db.query('select list_id, sender from held_messages order by held_at');
        assert.deepEqual(heldPosts.rows, [
          { list_id: 'portal-dev@example.test', sender: 'vendor@elsewhere.example' },
          { list_id: 'portal-dev@example.test', sender: 'newcomer@elsewhere.example' },
        ]);
        // PORTAL has more than 6 additional permission groups (the show-more flag).
        const permissionGroups = await db.query<{ user_group_id: string; group_name: string }>(
          'select user_group_id, group_name from permission_groups order by user_group_id, group_name',
        );
        assert.deepEqual(
          permissionGroups.rows,
          ['audit', 'deploy', 'design', 'docs', 'oncall', 'release', 'security'].map((name) => ({ user_group_id: 'PORTAL', group_name: `PORTAL-${name}` })),
        );
        assert.ok(permissionGroups.rows.length > SHOW_MORE_ABOVE);
        // helpdesk (DEVOPS-team) is a PORTAL user through DEVOPS.
        const nestings = await db.query('select user_group_id, group_name, member_group from group_nestings');
        assert.deepEqual(nestings.rows, [{ user_group_id: 'PORTAL', group_name: 'PORTAL-user', member_group: 'DEVOPS-team' }]);
        // Two membership requests wait for PORTAL's admins, stored as POST /requests/membership/new stores them.
        const requests = await db.query<{
          id: string | number;
          kind: string;
          status: string;
          username: string;
          email: string;
          reason: string;
          details: unknown;
          submitted_by: string | null;
          adjudicator: string | null;
          own: boolean;
        }>(
          `select r.id, r.kind, r.status, r.username, r.email, r.reason, r.details, r.submitted_by, r.adjudicator,
                  r.account_id = (select id from accounts where username = r.username) as own
             from requests r order by r.created_at, r.id`,
        );
        assert.deepEqual(
          requests.rows.map(({ id: _id, ...rest }) => rest),
          [
            {
              kind: 'membership',
              status: 'pending',
              username: 'renewal.user',
              email: 'renewal.user@example.test',
              reason: 'I test the portal releases and need Jira and Confluence.',
              details: { user_group: 'PORTAL', join: ['PORTAL-user', 'PORTAL-notification-medium'], leave: [], updateIntent: 'request' },
              submitted_by: null,
              adjudicator: null,
              own: true,
            },
            {
              kind: 'membership',
              status: 'pending',
              username: 'helpdesk',
              email: 'helpdesk@example.test',
              reason: 'I answer the portal support tickets and need to see its members.',
              details: { user_group: 'PORTAL', join: ['PORTAL-team', 'PORTAL-oncall'], leave: [], updateIntent: 'request' },
              submitted_by: null,
              adjudicator: null,
              own: true,
            },
          ],
        );
        const requestUpdates = await db.query<{ request_id: string | number; status: string; username: string; comment: string }>(
          'select request_id, status, username, comment from request_updates order by id',
        );
        assert.deepEqual(
          requestUpdates.rows.map((u) => ({ ...u, request_id: Number(u.request_id) })),
          requests.rows.map((r) => ({ request_id: Number(r.id), status: 'pending', username: r.username, comment: r.reason })),
        );
        // Seeding sends no mail.
        assert.deepEqual((await db.query('select id from mail_outbox')).rows, []);
      } finally {
        await db.close();
      }
    });

    test('the demo groups work as the start-up text says', async () => {
      const db = await createTestDatabase(kind);
      const fixture = createFixture();
      const app = createTestApp({ db, fixture });
      try {
        const created = await seedDemoData(db);
        const token = (username: string) => created.find((a) => a.username === username)?.token ?? '';
        const as = async (username: string) => signIn(app, username, token(username));
        const [admin, user, helpdesk, adjudicator] = [await as('admin'), await as('user'), await as('helpdesk'), await as('adjudicator')];

        // admin administers PORTAL: 7 additional groups, members in every role, 2 requests oldest first.
        const portal = (await call(app, admin, 'GET', '/usergroups/PORTAL')).json<{ role: string; groups: string[]; member_count: number }>();
        assert.equal(portal.role, 'admin');
        assert.equal(portal.groups.length, 7);
        assert.equal(portal.member_count, 4);
        const members = (await call(app, admin, 'POST', '/memberships/search', { user_group: 'PORTAL' })).json<{
          rows: { username: string; role: string; direct: string[]; nested: string[]; special: string[] }[];
        }>();
        assert.deepEqual(
          members.rows.map((m) => [m.username, m.role, m.nested, m.special]),
          [
            ['adjudicator', 'team', [], ['PORTAL-audit']],
            ['admin', 'admin', [], []],
            ['helpdesk', 'user', ['PORTAL-user'], []],
            ['user', 'user', [], ['PORTAL-release']],
          ],
        );
        const admins = (await call(app, admin, 'POST', '/memberships/search', { user_group: 'PORTAL', role: 'admin' })).json<{ rows: { username: string }[] }>();
        assert.deepEqual(admins.rows.map((m) => m.username), ['admin']);
        const queue = (await call(app, admin, 'GET', '/requests/membership?user_group=PORTAL')).json<{ rows: { id: number; username: string }[] }>();
        assert.deepEqual(queue.rows.map((r) => r.username), ['renewal.user', 'helpdesk']);
        const helpdeskRequest = queue.rows[1]?.id;
        const approved = await call(app, admin, 'POST', `/requests/membership/${helpdeskRequest}/approved`, { comment: 'Welcome to the team' });
        assert.equal(approved.statusCode, 200, approved.body);
        const helpdeskNow = (await call(app, helpdesk, 'GET', '/usergroups/PORTAL')).json<{ role: string }>();
        assert.equal(helpdeskNow.role, 'team');

        // DEVOPS is open access: adjudicator joins as a user at once.
        const join = await call(app, adjudicator, 'POST', '/requests/membership/new', {
          user_group: 'DEVOPS',
          username: 'adjudicator',
          join: ['DEVOPS-user'],
          leave: [],
          reason: 'Trying the demo',
          updateIntent: 'request',
        });
        assert.equal(join.json<{ status: string }>().status, 'approved', join.body);
        // Asking for team waits; DEVOPS has no admin of its own, so the site's admin decides on its administration page.
        const team = await call(app, user, 'POST', '/requests/membership/update', {
          user_group: 'DEVOPS',
          username: 'user',
          join: ['DEVOPS-team'],
          leave: ['DEVOPS-user'],
          reason: 'Trying the demo',
          updateIntent: 'update',
        });
        assert.equal(team.json<{ status: string }>().status, 'pending', team.body);
        const devopsQueue = (await call(app, admin, 'GET', '/requests/membership?user_group=DEVOPS')).json<{ rows: { id: number; username: string }[] }>();
        assert.deepEqual(devopsQueue.rows.map((r) => r.username), ['user']);
        assert.equal((await call(app, admin, 'POST', `/requests/membership/${devopsQueue.rows[0]?.id}/approved`, {})).statusCode, 200);

        // SECURE is hidden: admin sees it, user does not; it is DoD.
        assert.equal((await call(app, admin, 'GET', '/usergroups/SECURE')).json<{ memberConstraint: string }>().memberConstraint, 'DoD');
        assert.deepEqual((await call(app, user, 'GET', '/usergroups/SECURE')).json(), { error: 'User group not found.', code: 404 });
        assert.deepEqual((await call(app, helpdesk, 'GET', '/usergroups/SECURE')).json(), { error: 'User group not found.', code: 404 });
        assert.deepEqual((await call(app, user, 'GET', '/usergroups')).json<{ rows: { id: string }[] }>().rows.map((g) => g.id), ['DEVOPS', 'PORTAL']);
      } finally {
        await app.close();
        await db.close();
        fixture.remove();
      }
    });

    test('runs once: a second run creates nothing', async () => {
      const db = await createTestDatabase(kind);
      try {
        await seedDemoData(db);
        assert.deepEqual(await seedDemoData(db), []);
        const { rows } = await db.query<{ count: number }>('select count(*)::int as count from accounts');
        assert.deepEqual(rows, [{ count: 7 }]);
      } finally {
        await db.close();
      }
    });

    test('never touches a database that already holds accounts', async () => {
      const db = await createTestDatabase(kind);
      try {
        await db.query("insert into accounts (username, email) values ('real.person', 'real.person@example.test')");
        assert.deepEqual(await seedDemoData(db), []);
        const { rows } = await db.query<{ username: string }>('select username from accounts');
        assert.deepEqual(rows, [{ username: 'real.person' }]);
      } finally {
        await db.close();
      }
    });
  });
}

describe('demo accounts file', () => {
  test('is written readable by its owner only, read back, and printed with every token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-demo-'));
    try {
      assert.deepEqual(readDemoAccountsFile(dir), []);
      const accounts = [
        { username: 'admin', role: 'site-admin' as const, state: 'active' as const, token: 'token-admin' },
        { username: 'locked.user', role: 'user' as const, state: 'locked' as const, token: 'token-locked' },
        { username: 'renewal.user', role: 'user' as const, state: 'active' as const, token: 'token-renewal' },
      ];
      writeDemoAccountsFile(dir, accounts);
      assert.equal(statSync(join(dir, DEMO_ACCOUNTS_FILE)).mode & 0o777, 0o600);
      assert.deepEqual(readDemoAccountsFile(dir), accounts);
      assert.equal(
        demoSignInText(accounts, 'http://localhost:8080/login'),
        [
          'Demo accounts (sign in at http://localhost:8080/login with the username and website token; demo data, never for production):',
          '  admin         site-admin     token-admin',
          '  locked.user   user (locked)  token-locked',
          '  renewal.user  user           token-renewal',
          '  admin also signs in with a smart card whose CN ends in .1234567890 (e.g. DOE.JOHN.QUINCY.1234567890).',
          '  renewal.user last certified 400 days ago: it must renew (annual certification) after signing in.',
          'Demo groups (listed at /groups):',
          '  PORTAL  Portal Team: admin is its only admin; /group-administration/PORTAL lists members in every role (adjudicator team, ' +
            'user user, helpdesk user through DEVOPS-team), 2 pending membership requests to decide and 7 additional permission groups (show more). ' +
            'Artifact rights: admin Admin, user Write, adjudicator Read: each can create tokens at /tokens/artifactory (helpdesk cannot). ' +
            'Mailing lists at /mailing-lists: portal-dev (opt-out, 2 posts held for admin, its moderator) and portal-announce (opt-in).',
          '  DEVOPS  DevOps Community: open access; adjudicator joins as a user at once at /request-membership/DEVOPS, while asking for team ' +
            'waits for a decision at /group-administration/DEVOPS (admin).',
          '  SECURE  Secure Enclave: hidden, DoD PKI only; admin (its admin, with a smart card) sees it, while for user or helpdesk ' +
            '/group-administration/SECURE is not found.',
          '',
        ].join('\n'),
      );
      assert.equal(demoSignInText([], 'http://localhost:8080/login'), '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
