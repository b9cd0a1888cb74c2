import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS_FILE, DEMO_ADMIN_CERTIFICATE, DEMO_LOCK_COMMENT, demoSignInText, readDemoAccountsFile, seedDemoData, writeDemoAccountsFile } from '../src/seed.js';
import { verifyWebsiteToken } from '../src/services/tokens.js';
import { DATABASE_KINDS, createTestDatabase } from './helpers.js';

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
            active: d.state !== 'locked',
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
          { username: 'admin', group_name: 'PORTAL-notification-high' },
          { username: 'user', group_name: 'PORTAL-notification-low' },
          { username: 'adjudicator', group_name: 'PORTAL-team' },
          { username: 'user', group_name: 'PORTAL-user' },
          { username: 'admin', group_name: 'SECURE-admin' },
        ]);
      } finally {
        await db.close();
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
          'Demo groups: PORTAL (Portal Team), DEVOPS (DevOps Community), SECURE (Secure Enclave).',
          '',
        ].join('\n'),
      );
      assert.equal(demoSignInText([], 'http://localhost:8080/login'), '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
