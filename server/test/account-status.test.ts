/**
 * A closed account is never active. The demo's closed.user came back from
 * GET /accounts/closed.user as active and closed, and Account Administration showed it Active
 * with Lock and Close offered. Migration 0009 makes the state impossible; the seed writes it right.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { migrate, readMigrations } from '../src/db/migrate.js';
import { seedDemoData } from '../src/seed.js';
import { signIn } from './auth-helpers.js';
import { DATABASE_KINDS, createEmptyDatabase, createFixture, createTestApp, createTestDatabase } from './helpers.js';
import { call } from './self-service-helpers.js';

const CHECK = /accounts_closed_not_active/;

for (const kind of DATABASE_KINDS) {
  describe(`closed accounts on ${kind}`, () => {
    test('a row closed and active before migration 0009 becomes inactive; the others keep their state', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version < 9));
        await db.exec(`
          insert into accounts (username, email, active, closed)
          values ('open.one', 'open.one@example.test', true, false),
                 ('locked.one', 'locked.one@example.test', false, false),
                 ('closed.one', 'closed.one@example.test', true, true),
                 ('closed.two', 'closed.two@example.test', false, true);
        `);
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 9)), ['0009_closed_accounts_inactive']);
        const { rows } = await db.query('select username, active, closed from accounts order by username');
        assert.deepEqual(rows, [
          { username: 'closed.one', active: false, closed: true },
          { username: 'closed.two', active: false, closed: true },
          { username: 'locked.one', active: false, closed: false },
          { username: 'open.one', active: true, closed: false },
        ]);
      } finally {
        await db.close();
      }
    });

    test('the database refuses an account both closed and active, on insert and on update', async () => {
      const db = await createTestDatabase(kind);
      try {
        await assert.rejects(db.query("insert into accounts (username, email, active, closed) values ('bad.one', 'bad.one@example.test', true, true)"), CHECK);
        // The default of active is true: closing a row without making it inactive is refused too.
        await assert.rejects(db.query("insert into accounts (username, email, closed) values ('bad.two', 'bad.two@example.test', true)"), CHECK);
        await db.query("insert into accounts (username, email, active, closed) values ('shut', 'shut@example.test', false, true)");
        await assert.rejects(db.query("update accounts set active = true where username = 'shut'"), CHECK);
        await db.query("insert into accounts (username, email) values ('open', 'open@example.test')");
        await assert.rejects(db.query("update accounts set closed = true where username = 'open'"), CHECK);
        const { rows } = await db.query('select username, active, closed from accounts order by username');
        assert.deepEqual(rows, [
          { username: 'open', active: true, closed: false },
          { username: 'shut', active: false, closed: true },
        ]);
      } finally {
        await db.close();
      }
    });

    test('the demo closed.user is served closed and inactive, in its account and in the search', async () => {
      const db = await createTestDatabase(kind);
      const app = createTestApp({ db, fixture: createFixture() });
      try {
        const created = await seedDemoData(db);
        const admin = await signIn(app, 'admin', created.find((a) => a.username === 'admin')?.token ?? '');
        const account = await call(app, admin, 'GET', '/accounts/closed.user');
        assert.equal(account.statusCode, 200);
        const { active, closed } = account.json<{ active: boolean; closed: boolean }>();
        assert.deepEqual({ active, closed }, { active: false, closed: true });
        const search = await call(app, admin, 'POST', '/accounts/search', { term: 'closed.user', starts_with: true });
        assert.equal(search.statusCode, 200);
        assert.deepEqual(
          search.json<{ rows: { username: string; active: boolean; closed: boolean }[] }>().rows.map(({ username, active, closed }) => ({ username, active, closed })),
          [{ username: 'closed.user', active: false, closed: true }],
        );
        // locked.user stays locked, not closed.
        const locked = (await call(app, admin, 'GET', '/accounts/locked.user')).json<{ active: boolean; closed: boolean }>();
        assert.deepEqual({ active: locked.active, closed: locked.closed }, { active: false, closed: false });
      } finally {
        await app.close();
        await db.close();
      }
    });
  });
}
