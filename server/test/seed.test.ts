import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEMO_LOCK_COMMENT, seedDemoData } from '../src/seed.js';
import { DATABASE_KINDS, createTestDatabase } from './helpers.js';

const DEMO = [
  { username: 'admin', role: 'site-admin', state: 'active' },
  { username: 'adjudicator', role: 'adjudicator', state: 'active' },
  { username: 'helpdesk', role: 'help-desk', state: 'active' },
  { username: 'user', role: 'user', state: 'active' },
  { username: 'locked.user', role: 'user', state: 'locked' },
  { username: 'closed.user', role: 'user', state: 'closed' },
];

for (const kind of DATABASE_KINDS) {
  describe(`demo data on ${kind}`, () => {
    test('creates one account per role, a locked one and a closed one', async () => {
      const db = await createTestDatabase(kind);
      try {
        assert.deepEqual(await seedDemoData(db), DEMO);
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
            authentication: ['token'],
            roles: [d.role],
          })),
        );
        const updates = await db.query<{ account: string; comment: string; username: string; active: boolean }>(
          'select a.username as account, u.comment, u.username, u.active from account_updates u join accounts a on a.id = u.account_id',
        );
        assert.deepEqual(updates.rows, [{ account: 'locked.user', comment: DEMO_LOCK_COMMENT, username: 'admin', active: false }]);
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
        assert.deepEqual(rows, [{ count: 6 }]);
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
