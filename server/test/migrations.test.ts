import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Database } from '../src/db/database.js';
import { checksumOf, migrate, MigrationError, readMigrations, REWORDED_MIGRATIONS, type Migration } from '../src/db/migrate.js';
import { MIGRATIONS_DIR } from '../src/paths.js';
import { seedDemoData } from '../src/seed.js';
import {
  DATABASE_KINDS,
  POSTGRES_URL,
  createEmptyDatabase,
  createPostgresSchema,
  createTestDatabase,
  tableNames,
} from './helpers.js';

const ACCOUNTS_SQL = readFileSync(join(MIGRATIONS_DIR, '0001_accounts.sql'), 'utf8');
const SIGN_IN_SQL = readFileSync(join(MIGRATIONS_DIR, '0002_sign_in.sql'), 'utf8');
const USER_GROUPS_SQL = readFileSync(join(MIGRATIONS_DIR, '0003_user_groups.sql'), 'utf8');
const MAIL_OUTBOX_SQL = readFileSync(join(MIGRATIONS_DIR, '0004_mail_outbox.sql'), 'utf8');
const REQUESTS_SQL = readFileSync(join(MIGRATIONS_DIR, '0005_requests.sql'), 'utf8');
const ADJUDICATION_SQL = readFileSync(join(MIGRATIONS_DIR, '0006_adjudication.sql'), 'utf8');
const GROUPS_SQL = readFileSync(join(MIGRATIONS_DIR, '0007_groups.sql'), 'utf8');
const TOKENS_SQL = readFileSync(join(MIGRATIONS_DIR, '0008_tokens.sql'), 'utf8');
const CLOSED_SQL = readFileSync(join(MIGRATIONS_DIR, '0009_closed_accounts_inactive.sql'), 'utf8');
const MAILING_LISTS_SQL = readFileSync(join(MIGRATIONS_DIR, '0010_mailing_lists.sql'), 'utf8');
const RETENTION_SQL = readFileSync(join(MIGRATIONS_DIR, '0011_retention_indexes.sql'), 'utf8');
const FEDERATION_SQL = readFileSync(join(MIGRATIONS_DIR, '0012_remote_federation.sql'), 'utf8');
const RATE_LIMITS_SQL = readFileSync(join(MIGRATIONS_DIR, '0013_rate_limits.sql'), 'utf8');
const SEARCH_INDEX_SQL = readFileSync(join(MIGRATIONS_DIR, '0014_account_search_covering_index.sql'), 'utf8');
const PREFIX_COUNTS_SQL = readFileSync(join(MIGRATIONS_DIR, '0015_account_search_prefix_counts.sql'), 'utf8');
const PROVISIONING_SQL = readFileSync(join(MIGRATIONS_DIR, '0016_provisioning.sql'), 'utf8');
const LIST_PROVISIONING_SQL = readFileSync(join(MIGRATIONS_DIR, '0017_list_provisioning.sql'), 'utf8');
const OIDC_SQL = readFileSync(join(MIGRATIONS_DIR, '0018_oidc.sql'), 'utf8');
const OIDC_SIGN_OUT_SQL = readFileSync(join(MIGRATIONS_DIR, '0019_oidc_sign_out.sql'), 'utf8');
const REMOTE_NAVIGATION_SQL = readFileSync(join(MIGRATIONS_DIR, '0020_remote_navigation.sql'), 'utf8');
const REQUEST_KINDS_OPEN_SQL = readFileSync(join(MIGRATIONS_DIR, '0021_request_kinds_open.sql'), 'utf8');
const NESTINGS_CLOSURE_SQL = readFileSync(join(MIGRATIONS_DIR, '0022_group_nestings_closure.sql'), 'utf8');
const ACCESS_STAMPS_SQL = readFileSync(join(MIGRATIONS_DIR, '0023_access_stamps.sql'), 'utf8');
const ALL_TABLES = [
  'access_generation', 'access_tokens', 'account_certificates', 'account_roles', 'account_subscriptions', 'account_updates', 'accounts', 'group_memberships', 'group_nestings', 'group_nestings_closure',
  'held_messages', 'list_accepted_senders', 'list_moderators', 'list_posts', 'list_subscriptions', 'login_failures', 'mail_outbox', 'mailing_lists',
  'oidc_clients', 'oidc_models', 'oidc_signing_keys', 'permission_groups', 'provisioning_events', 'provisioning_pending', 'provisioning_targets', 'rate_limit_hits', 'remote_pin_history', 'remote_pins', 'remote_previews', 'remote_versions', 'request_updates', 'requests', 'schema_migrations',
  'server_secrets', 'service_credentials', 'sessions', 'used_challenges', 'user_groups', 'verification_codes',
];
const ALL_MIGRATIONS = [
  '0001_accounts', '0002_sign_in', '0003_user_groups', '0004_mail_outbox', '0005_requests', '0006_adjudication', '0007_groups', '0008_tokens',
  '0009_closed_accounts_inactive', '0010_mailing_lists', '0011_retention_indexes', '0012_remote_federation', '0013_rate_limits',
  '0014_account_search_covering_index', '0015_account_search_prefix_counts', '0016_provisioning',
  '0017_list_provisioning', '0018_oidc', '0019_oidc_sign_out', '0020_remote_navigation', '0021_request_kinds_open',
  '0022_group_nestings_closure', '0023_access_stamps',
];
const ALL_VERSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23];

function extra(version: number, name: string, sql: string): Migration {
  return { version, name, sql, checksum: checksumOf(sql) };
}

async function recorded(db: Database): Promise<{ version: number; name: string; checksum: string; applied: boolean }[]> {
  const { rows } = await db.query<{ version: number; name: string; checksum: string; applied: boolean }>(
    'select version, name, checksum, applied_at is not null as applied from schema_migrations order by version',
  );
  return rows;
}

/** A migration's statements: its text without comments and blank lines. */
const statementsOf = (sql: string) =>
  sql
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.replace(/--.*$/, '').trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');

/** The checksum of each reworded migration's statements as it shipped (its comments aside). */
const SHIPPED_STATEMENTS: Readonly<Record<number, string>> = {
  6: 'cc65fa0664b0cd03a253035be9f9f6b09cceb2170c81a12f103b0222e8802b11',
  7: '594fc22bd99995a2036620ebfc821898b59643391820a6b452f4b4d2a1df382a',
  9: '214e8fe99894e441122b465b1bfdbee9caf1cf550603715b892f26c855d047d3',
  12: '88d4b31879ca99a189f2b0471a44633843a617c4fe6502aa712d714295c863e5',
  13: '33c0a7a797fd31537254593035580b283ec6bdb4525fe0f7d7c2e5c40dc51b5c',
  14: '4490d6183ccb93ec3aa7a011721b59fafd4eb7b40f306fff6fdde166b34f05ac',
  15: '8372003abc6c8a0b254080723951eb7f2d697c4fad80f2a40b82840847b0ae81',
};

describe('migration files', () => {
  test('a reworded migration has the statements it shipped with: only its comments changed', () => {
    const migrations = readMigrations();
    assert.deepEqual(Object.keys(REWORDED_MIGRATIONS), Object.keys(SHIPPED_STATEMENTS));
    for (const version of Object.keys(SHIPPED_STATEMENTS).map(Number)) {
      const migration = migrations.find((m) => m.version === version);
      assert.equal(createHash('sha256').update(statementsOf(migration?.sql ?? '')).digest('hex'), SHIPPED_STATEMENTS[version], `migration ${version}`);
    }
  });

  test('are read in order with their sha256', () => {
    const migrations = readMigrations();
    assert.deepEqual(migrations.map((m) => [m.version, m.name]), [[1, 'accounts'], [2, 'sign_in'], [3, 'user_groups'], [4, 'mail_outbox'], [5, 'requests'], [6, 'adjudication'], [7, 'groups'], [8, 'tokens'], [9, 'closed_accounts_inactive'], [10, 'mailing_lists'], [11, 'retention_indexes'], [12, 'remote_federation'], [13, 'rate_limits'], [14, 'account_search_covering_index'], [15, 'account_search_prefix_counts'], [16, 'provisioning'], [17, 'list_provisioning'], [18, 'oidc'], [19, 'oidc_sign_out'], [20, 'remote_navigation'], [21, 'request_kinds_open'], [22, 'group_nestings_closure'], [23, 'access_stamps']]);
    assert.equal(migrations[0]?.checksum, createHash('sha256').update(ACCOUNTS_SQL).digest('hex'));
  });

  test('line endings do not change the checksum', () => {
    assert.equal(checksumOf('a;\r\nb;\r\n'), checksumOf('a;\nb;\n'));
  });

  test('a badly named or duplicated file is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      writeFileSync(join(dir, '0001_one.sql'), 'select 1;');
      writeFileSync(join(dir, '2_two.sql'), 'select 2;');
      assert.throws(() => readMigrations(dir), { name: 'MigrationError', message: `${join(dir, '2_two.sql')}: migration files are named NNNN_name.sql (lowercase name)` });
      rmSync(join(dir, '2_two.sql'));
      writeFileSync(join(dir, '0001_again.sql'), 'select 2;');
      assert.throws(() => readMigrations(dir), { name: 'MigrationError', message: `${dir}: version 0001 is used by two files (again, one)` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`migrations on ${kind}`, () => {
    test('on a fresh database create the tables and record what they applied', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        assert.deepEqual(await tableNames(db), []);
        assert.deepEqual(await migrate(db), ALL_MIGRATIONS);
        assert.deepEqual(await tableNames(db), ALL_TABLES);
        assert.deepEqual(await recorded(db), [
          { version: 1, name: 'accounts', checksum: checksumOf(ACCOUNTS_SQL), applied: true },
          { version: 2, name: 'sign_in', checksum: checksumOf(SIGN_IN_SQL), applied: true },
          { version: 3, name: 'user_groups', checksum: checksumOf(USER_GROUPS_SQL), applied: true },
          { version: 4, name: 'mail_outbox', checksum: checksumOf(MAIL_OUTBOX_SQL), applied: true },
          { version: 5, name: 'requests', checksum: checksumOf(REQUESTS_SQL), applied: true },
          { version: 6, name: 'adjudication', checksum: checksumOf(ADJUDICATION_SQL), applied: true },
          { version: 7, name: 'groups', checksum: checksumOf(GROUPS_SQL), applied: true },
          { version: 8, name: 'tokens', checksum: checksumOf(TOKENS_SQL), applied: true },
          { version: 9, name: 'closed_accounts_inactive', checksum: checksumOf(CLOSED_SQL), applied: true },
          { version: 10, name: 'mailing_lists', checksum: checksumOf(MAILING_LISTS_SQL), applied: true },
          { version: 11, name: 'retention_indexes', checksum: checksumOf(RETENTION_SQL), applied: true },
          { version: 12, name: 'remote_federation', checksum: checksumOf(FEDERATION_SQL), applied: true },
          { version: 13, name: 'rate_limits', checksum: checksumOf(RATE_LIMITS_SQL), applied: true },
          { version: 14, name: 'account_search_covering_index', checksum: checksumOf(SEARCH_INDEX_SQL), applied: true },
          { version: 15, name: 'account_search_prefix_counts', checksum: checksumOf(PREFIX_COUNTS_SQL), applied: true },
          { version: 16, name: 'provisioning', checksum: checksumOf(PROVISIONING_SQL), applied: true },
          { version: 17, name: 'list_provisioning', checksum: checksumOf(LIST_PROVISIONING_SQL), applied: true },
          { version: 18, name: 'oidc', checksum: checksumOf(OIDC_SQL), applied: true },
          { version: 19, name: 'oidc_sign_out', checksum: checksumOf(OIDC_SIGN_OUT_SQL), applied: true },
          { version: 20, name: 'remote_navigation', checksum: checksumOf(REMOTE_NAVIGATION_SQL), applied: true },
          { version: 21, name: 'request_kinds_open', checksum: checksumOf(REQUEST_KINDS_OPEN_SQL), applied: true },
          { version: 22, name: 'group_nestings_closure', checksum: checksumOf(NESTINGS_CLOSURE_SQL), applied: true },
          { version: 23, name: 'access_stamps', checksum: checksumOf(ACCESS_STAMPS_SQL), applied: true },
        ]);
      } finally {
        await db.close();
      }
    });

    test('running them again applies nothing', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db);
        const before = await recorded(db);
        assert.deepEqual(await migrate(db), []);
        assert.deepEqual(await recorded(db), before);
      } finally {
        await db.close();
      }
    });

    test('an applied migration whose file changed stops them', async () => {
      const db = await createTestDatabase(kind);
      try {
        const changed = readMigrations().map((m) => (m.version === 1 ? extra(1, m.name, `${m.sql}\n-- edited\n`) : m));
        await assert.rejects(migrate(db, changed), (error: Error) => {
          assert.ok(error instanceof MigrationError);
          assert.match(error.message, /^Migration 0001_accounts has changed since it was applied \(checksum [0-9a-f]{12}… in the database, [0-9a-f]{12}… on disk\)\. Never edit an applied migration: add a new one\.$/);
          return true;
        });
      } finally {
        await db.close();
      }
    });

    test('a migration whose comments were reworded after it shipped is taken with the checksum it shipped with, and recorded anew', async () => {
      const db = await createTestDatabase(kind);
      try {
        for (const [version, shipped] of Object.entries(REWORDED_MIGRATIONS)) {
          await db.query('update schema_migrations set checksum = $1 where version = $2', [shipped, Number(version)]);
        }
        assert.deepEqual(await migrate(db), []);
        const current = new Map(readMigrations().map((m) => [m.version, m.checksum]));
        assert.deepEqual(
          (await recorded(db)).map((r) => [r.version, r.checksum]),
          ALL_VERSIONS.map((version) => [version, current.get(version)]),
        );
        // Any other checksum is still a changed migration.
        await db.query("update schema_migrations set checksum = 'f00d' where version = 6");
        await assert.rejects(migrate(db), /^MigrationError: Migration 0006_adjudication has changed since it was applied/);
      } finally {
        await db.close();
      }
    });

    test('a recorded migration missing from disk stops them', async () => {
      const db = await createTestDatabase(kind);
      try {
        await migrate(db, [...readMigrations(), extra(99, 'later', 'create table later (id int);')]);
        await assert.rejects(migrate(db), {
          name: 'MigrationError',
          message: 'Migration 0099_later is recorded in the database but its file is missing: the database was migrated by a newer version of the server.',
        });
      } finally {
        await db.close();
      }
    });

    test('a failing migration is rolled back entirely and not recorded', async () => {
      const db = await createTestDatabase(kind);
      try {
        const broken = extra(99, 'broken', 'create table half (id int);\nselect * from no_such_table;');
        await assert.rejects(migrate(db, [...readMigrations(), broken]), (error: Error) => {
          assert.ok(error instanceof MigrationError);
          assert.match(error.message, /^Migration 0099_broken failed: .*no_such_table/);
          return true;
        });
        assert.ok(!(await tableNames(db)).includes('half'));
        assert.deepEqual((await recorded(db)).map((r) => r.version), ALL_VERSIONS);
      } finally {
        await db.close();
      }
    });

    test('a later migration keeps the rows already there', async () => {
      const db = await createTestDatabase(kind);
      try {
        await seedDemoData(db);
        const later = extra(99, 'account_title', "alter table accounts add column title text not null default '';");
        assert.deepEqual(await migrate(db, [...readMigrations(), later]), ['0099_account_title']);
        const { rows } = await db.query<{ username: string; title: string }>('select username, title from accounts order by id');
        assert.deepEqual(rows.map((r) => r.username), ['admin', 'adjudicator', 'helpdesk', 'user', 'locked.user', 'closed.user', 'renewal.user']);
        assert.ok(rows.every((r) => r.title === ''));
      } finally {
        await db.close();
      }
    });

    test('0002 on a database that holds real rows from 0001 keeps every row', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version === 1)), ['0001_accounts']);
        // Rows as 0001 knew them (the demo data of that version, written with its SQL).
        await db.exec(`
          insert into accounts (username, email, first_name, last_name, active, closed, last_certified)
          values ('admin', 'admin@example.test', 'Ada', 'Admin', true, false, now()),
                 ('Locked.User', 'Locked.User@Example.test', 'Lou', 'Locked', false, false, null),
                 ('closed.user', 'closed.user@example.test', 'Cleo', 'Closed', true, true, null);
          insert into account_roles (account_id, role) select id, case username when 'admin' then 'site-admin' else 'user' end from accounts;
          insert into account_updates (account_id, comment, username, active)
            select id, 'Locked for the demo: too many failed sign-in attempts.', 'admin', false from accounts where username = 'Locked.User';
        `);
        const before = await db.query('select id, username, email, first_name, last_name, active, closed, authentication, last_certified, created_at from accounts order by id');
        const rolesBefore = await db.query('select account_id, role from account_roles order by account_id, role');
        const updatesBefore = await db.query('select id, account_id, comment, username, active, created_at from account_updates order by id');

        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 2)), ['0002_sign_in']);

        assert.deepEqual((await db.query('select id, username, email, first_name, last_name, active, closed, authentication, last_certified, created_at from accounts order by id')).rows, before.rows);
        assert.deepEqual((await db.query('select account_id, role from account_roles order by account_id, role')).rows, rolesBefore.rows);
        assert.deepEqual((await db.query('select id, account_id, comment, username, active, created_at from account_updates order by id')).rows, updatesBefore.rows);
        assert.deepEqual((await db.query('select count(*)::int as n from accounts where token_hash is null')).rows, [{ n: 3 }]);
        // The new rules hold for the old rows: a username differing only by case is refused.
        await assert.rejects(db.query("insert into accounts (username, email) values ('locked.user', 'other@example.test')"), /accounts_username_lower_key/);
        // And the new tables take rows that refer to them.
        const adminId = (before.rows[0] as { id: string | number }).id;
        await db.query(
          "insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at) values ('h', $1, now(), now(), now() + interval '1 hour')",
          [adminId],
        );
        await db.query("insert into account_certificates (account_id, identity) values ($1, '1234567890')", [adminId]);
        await assert.rejects(db.query("insert into account_certificates (account_id, identity) values ($1, '1234567890')", [adminId]), /account_certificates_identity_key/);
        await db.query('delete from accounts where id = $1', [adminId]);
        assert.deepEqual((await db.query('select (select count(*)::int from sessions) as s, (select count(*)::int from account_certificates) as c')).rows, [{ s: 0, c: 0 }]);
      } finally {
        await db.close();
      }
    });

    test('0003 on a database that holds real rows from 0001 and 0002 keeps every row', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 2));
        await db.exec(`
          insert into accounts (username, email, token_hash) values ('admin', 'admin@example.test', '$argon2id$x'), ('user', 'user@example.test', null);
          insert into account_roles (account_id, role) select id, 'user' from accounts;
          insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
            select 'h' || id, id, now(), now(), now() + interval '1 hour' from accounts;
          insert into account_certificates (account_id, identity) select id, '1234567890' from accounts where username = 'admin';
        `);
        const snapshot = async () => ({
          accounts: (await db.query('select id, username, email, token_hash, active, closed, created_at from accounts order by id')).rows,
          sessions: (await db.query('select id_hash, account_id, expires_at from sessions order by id_hash')).rows,
          certificates: (await db.query('select account_id, identity from account_certificates')).rows,
        });
        const before = await snapshot();
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 3)), ['0003_user_groups']);
        assert.deepEqual(await snapshot(), before);
        // The old rows take part in the new tables.
        await db.query("insert into user_groups (id, name, description) values ('PORTAL', 'Portal Team', 'Builds the portal.')");
        await db.query("insert into group_memberships (user_group_id, account_id, group_name) select 'PORTAL', id, 'PORTAL-user' from accounts");
        assert.deepEqual((await db.query('select count(*)::int as n from group_memberships')).rows, [{ n: 2 }]);
      } finally {
        await db.close();
      }
    });

    test('0004 on a database that holds real rows from 0001 to 0003 keeps every row', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 3));
        await db.exec(`
          insert into accounts (username, email, token_hash) values ('admin', 'admin@example.test', '$argon2id$x'), ('user', 'user@example.test', null);
          insert into account_roles (account_id, role) select id, 'user' from accounts;
          insert into account_updates (account_id, comment, username, active) select id, 'Created.', 'system', true from accounts;
          insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
            select 'h' || id, id, now(), now(), now() + interval '1 hour' from accounts;
          insert into account_certificates (account_id, identity) select id, '1234567890' from accounts where username = 'admin';
          insert into login_failures (key, failures, last_failure_at) values ('id:nobody', 2, now());
          insert into server_secrets (name, value) values ('challenge', 'secret');
          insert into used_challenges (signature_hash, expires_at) values ('sig', now() + interval '10 minutes');
          insert into user_groups (id, name, description) values ('PORTAL', 'Portal Team', 'Builds the portal.');
          insert into group_memberships (user_group_id, account_id, group_name) select 'PORTAL', id, 'PORTAL-user' from accounts;
        `);
        const snapshot = async () => ({
          accounts: (await db.query('select id, username, email, token_hash, active, closed, created_at from accounts order by id')).rows,
          roles: (await db.query('select account_id, role from account_roles order by account_id, role')).rows,
          updates: (await db.query('select id, account_id, comment, created_at from account_updates order by id')).rows,
          sessions: (await db.query('select id_hash, account_id, expires_at from sessions order by id_hash')).rows,
          certificates: (await db.query('select account_id, identity from account_certificates')).rows,
          failures: (await db.query('select key, failures from login_failures')).rows,
          secrets: (await db.query('select name, value from server_secrets')).rows,
          challenges: (await db.query('select signature_hash from used_challenges')).rows,
          groups: (await db.query('select id, name, description, created_at from user_groups')).rows,
          memberships: (await db.query('select user_group_id, account_id, group_name from group_memberships order by account_id')).rows,
        });
        const before = await snapshot();
        assert.equal(before.memberships.length, 2);
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 4)), ['0004_mail_outbox']);
        assert.deepEqual(await snapshot(), before);
        // The new table takes mail, with its defaults.
        const { rows } = await db.query<{ attempts: number; last_error: string | null; sent_at: Date | null }>(
          "insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at) values ('user@example.test', 'S', 'T', now(), now()) returning attempts, last_error, sent_at",
        );
        assert.deepEqual(rows, [{ attempts: 0, last_error: null, sent_at: null }]);
        await assert.rejects(db.query("insert into mail_outbox (to_address, subject, body, created_at) values ('a@b.c', 'S', 'T', now())"), /next_attempt_at/);
        const index = await db.query<{ indexdef: string }>("select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'mail_outbox' and indexname = 'mail_outbox_sent_at_next_attempt_at_idx'");
        assert.match(index.rows[0]?.indexdef ?? '', /\(sent_at, next_attempt_at\)/);
      } finally {
        await db.close();
      }
    });

    test('0005 on a database that holds real rows from 0001 to 0004 keeps every row', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 4));
        await db.exec(`
          insert into accounts (username, email, token_hash, active) values ('admin', 'admin@example.test', '$argon2id$x', true), ('Locked.User', 'Locked.User@example.test', null, false);
          insert into account_roles (account_id, role) select id, 'user' from accounts;
          insert into account_updates (account_id, comment, username, active) select id, 'Created.', 'system', true from accounts;
          insert into sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
            select 'h' || id, id, now(), now(), now() + interval '1 hour' from accounts;
          insert into account_certificates (account_id, identity) select id, '1234567890' from accounts where username = 'admin';
          insert into login_failures (key, failures, last_failure_at) values ('id:nobody', 2, now());
          insert into server_secrets (name, value) values ('challenge', 'secret');
          insert into used_challenges (signature_hash, expires_at) values ('sig', now() + interval '10 minutes');
          insert into user_groups (id, name, description) values ('PORTAL', 'Portal Team', 'Builds the portal.');
          insert into group_memberships (user_group_id, account_id, group_name) select 'PORTAL', id, 'PORTAL-user' from accounts;
          insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at) values ('admin@example.test', 'S', 'T', now(), now());
        `);
        const snapshot = async () => ({
          accounts: (await db.query('select id, username, email, token_hash, active, closed, authentication, created_at from accounts order by id')).rows,
          roles: (await db.query('select account_id, role from account_roles order by account_id, role')).rows,
          updates: (await db.query('select id, account_id, comment, created_at from account_updates order by id')).rows,
          sessions: (await db.query('select id_hash, account_id, expires_at from sessions order by id_hash')).rows,
          certificates: (await db.query('select account_id, identity from account_certificates')).rows,
          failures: (await db.query('select key, failures from login_failures')).rows,
          secrets: (await db.query('select name, value from server_secrets')).rows,
          challenges: (await db.query('select signature_hash from used_challenges')).rows,
          groups: (await db.query('select id, name, description, created_at from user_groups')).rows,
          memberships: (await db.query('select user_group_id, account_id, group_name from group_memberships order by account_id')).rows,
          mail: (await db.query('select id, to_address, subject, body, created_at, attempts, next_attempt_at, sent_at from mail_outbox order by id')).rows,
        });
        const before = await snapshot();
        assert.equal(before.accounts.length, 2);
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 5)), ['0005_requests']);
        assert.deepEqual(await snapshot(), before);

        // The old rows take part in the new tables, whose rules hold.
        const ids = Object.fromEntries(before.accounts.map((a) => [(a as { username: string }).username, (a as { id: string | number }).id]));
        const request = (kind: string, status: string, accountId: unknown, username: string, email: string) =>
          db.query<{ id: string | number; details: unknown; reason: string }>(
            'insert into requests (kind, status, account_id, username, email, created_at, updated_at) values ($1, $2, $3, $4, $5, now(), now()) returning id, details, reason',
            [kind, status, accountId, username, email],
          );
        const unlock = await request('unlock', 'pending', ids['Locked.User'], 'Locked.User', 'Locked.User@example.test');
        assert.deepEqual(unlock.rows.map((r) => [r.details, r.reason]), [[{}, '']]);
        await assert.rejects(request('unlock', 'pending', ids['Locked.User'], 'Locked.User', 'x@example.test'), /requests_pending_per_account_key/);
        await request('unlock', 'denied', ids['Locked.User'], 'Locked.User', 'x@example.test'); // a decided one does not count
        await request('new', 'pending', null, 'jane.doe', 'Jane.Doe@Agency.example');
        await assert.rejects(request('new', 'incomplete', null, 'JANE.DOE', 'other@agency.example'), /requests_open_new_username_key/);
        await assert.rejects(request('new', 'pending', null, 'john.doe', 'jane.doe@AGENCY.example'), /requests_open_new_email_key/);
        await request('new', 'denied', null, 'jane.doe', 'jane.doe@agency.example');
        await assert.rejects(request('nonsense', 'pending', null, 'a', 'a@b.c'), /requests_kind_check/);
        await assert.rejects(request('new', 'waiting', null, 'a', 'a@b.c'), /requests_status_check/);
        await db.query("insert into request_updates (request_id, status, username, comment, created_at) values ($1, 'pending', 'Locked.User', 'Request submitted.', now())", [unlock.rows[0]?.id]);
        await db.query("insert into verification_codes (email, code_hash, created_at, expires_at) values ('admin@example.test', 'h', now(), now() + interval '10 minutes')");
        await db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [ids.admin]);
        await assert.rejects(db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [ids.admin]), /account_subscriptions_pkey/);
        // Deleting an account takes its requests, their updates and its subscriptions along.
        await db.query('delete from accounts where id = $1', [ids['Locked.User']]);
        await db.query('delete from accounts where id = $1', [ids.admin]);
        assert.deepEqual(
          (await db.query("select (select count(*)::int from requests where kind = 'unlock') as r, (select count(*)::int from request_updates) as u, (select count(*)::int from account_subscriptions) as s")).rows,
          [{ r: 0, u: 0, s: 0 }],
        );
      } finally {
        await db.close();
      }
    });

    test('0006 on a database that holds real rows from 0001 to 0005 keeps every row; old history entries get an empty action', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 5));
        await db.exec(`
          insert into accounts (username, email, first_name, last_name) values ('Jane.Doe', 'Jane.Doe@example.test', 'Jane', 'Doe');
          insert into account_updates (account_id, comment, username, active) select id, 'Profile updated.', 'Jane.Doe', true from accounts;
          insert into requests (kind, status, username, email, created_at, updated_at) values ('new', 'pending', 'john.roe', 'john.roe@example.test', now(), now());
        `);
        const snapshot = async () => ({
          accounts: (await db.query('select id, username, email, first_name, last_name from accounts order by id')).rows,
          updates: (await db.query('select id, account_id, comment, username, active, created_at from account_updates order by id')).rows,
          requests: (await db.query('select id, kind, status, username, email from requests order by id')).rows,
        });
        const before = await snapshot();
        assert.deepEqual(await migrate(db), ALL_MIGRATIONS.slice(5));
        assert.deepEqual(await snapshot(), before);
        const actions = await db.query<{ action: string }>('select action from account_updates');
        assert.deepEqual(actions.rows, [{ action: '' }]);
        const indexes = await db.query<{ indexname: string }>(
          "select indexname from pg_indexes where schemaname = current_schema() and indexname in ('requests_open_queue_idx', 'accounts_name_order_idx') order by indexname",
        );
        assert.deepEqual(indexes.rows.map((r) => r.indexname), ['accounts_name_order_idx', 'requests_open_queue_idx']);
      } finally {
        await db.close();
      }
    });

    test('0017 on a database that holds real rows from 0001 to 0016 keeps every row; then the changes of a list are recorded for a lists target only', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 16));
        await db.exec(`
          insert into provisioning_targets (name, kind) values ('ldap', 'ldap');
          insert into accounts (username, email, first_name, last_name) values ('jane.doe', 'jane.doe@example.test', 'Jane', 'Doe');
          insert into user_groups (id, name, description, open_access, visibility, member_constraint, services)
            values ('ALPHA', 'Alpha', 'The alpha group', false, 'site-approved', 'None', '{}');
          insert into group_memberships (user_group_id, account_id, group_name) select 'ALPHA', id, 'ALPHA-team' from accounts;
        `);
        const pending = async () => (await db.query<{ target: string; object: string }>('select target, object from provisioning_pending order by target, object')).rows;
        const snapshot = async () => ({
          targets: (await db.query('select name, kind from provisioning_targets order by name')).rows,
          pending: await pending(),
          memberships: (await db.query('select user_group_id, account_id, group_name from group_memberships')).rows,
        });
        const before = await snapshot();
        assert.deepEqual(before.pending.map((r) => r.object), ['account:1']);
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 17)), ['0017_list_provisioning']);
        assert.deepEqual(await snapshot(), before);

        await db.exec(`
          insert into provisioning_targets (name, kind) values ('mailman', 'lists');
          delete from provisioning_pending;
          insert into mailing_lists (id, user_group_id, description, permission_group, posting_permissions, automatic_subscription, created_at)
            values ('alpha-dev@lists.example.test', 'ALPHA', 'Developers', 'ALPHA-team', 'closed', true, now());
        `);
        assert.deepEqual(await pending(), [{ target: 'mailman', object: 'list:alpha-dev@lists.example.test' }], 'a new list: its roster, for the lists target only');
        await db.exec(`
          delete from provisioning_pending;
          insert into list_subscriptions (list_id, account_id, subscribed, digest, updated_at) select 'alpha-dev@lists.example.test', id, true, true, now() from accounts;
        `);
        assert.deepEqual(await pending(), [{ target: 'mailman', object: 'list:alpha-dev@lists.example.test' }], 'a member’s choice');
        await db.exec(`delete from provisioning_pending; update accounts set email = 'jane@example.test';`);
        assert.deepEqual(
          await pending(),
          [
            { target: 'ldap', object: 'account:1' },
            { target: 'mailman', object: 'account:1' },
            { target: 'mailman', object: 'list:alpha-dev@lists.example.test' },
          ],
          'a changed address: the account everywhere, and the rosters its old address is on',
        );
        await db.exec(`delete from provisioning_pending; update accounts set active = false;`);
        assert.deepEqual(await pending(), [{ target: 'ldap', object: 'account:1' }, { target: 'mailman', object: 'account:1' }], 'a lock: the account, for every target');
      } finally {
        await db.close();
      }
    });

    test("0021 keeps every request and lets the table hold a kind it does not list: the server's kinds decide", async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 20));
        await db.exec(`
          insert into accounts (username, email, first_name, last_name) values ('jane.doe', 'jane.doe@example.test', 'Jane', 'Doe');
          insert into requests (kind, status, account_id, username, email, created_at, updated_at) select 'unlock', 'pending', id, username, email, now(), now() from accounts;
        `);
        const requests = async () => (await db.query('select kind, status, username from requests order by id')).rows;
        const before = await requests();
        await assert.rejects(
          db.query("insert into requests (kind, status, username, email, created_at, updated_at) values ('servicechange', 'pending', 'jane.doe', 'jane.doe@example.test', now(), now())"),
          /requests_kind_check/,
          'before 0021 the table lists the kinds',
        );
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 21)), ['0021_request_kinds_open']);
        assert.deepEqual(await requests(), before);
        await db.query("insert into requests (kind, status, username, email, created_at, updated_at) values ('servicechange', 'pending', 'jane.doe', 'jane.doe@example.test', now(), now())");
        assert.deepEqual((await requests()).map((r) => r.kind), ['unlock', 'servicechange']);
        await assert.rejects(
          db.query("insert into requests (kind, status, username, email, created_at, updated_at) values ('servicechange', 'forgotten', 'jane.doe', 'jane.doe@example.test', now(), now())"),
          /requests_status_check/,
          'the statuses are still checked',
        );
      } finally {
        await db.close();
      }
    });

    test('0022 keeps the closure of the nestings: built from those there, then with every change, cycles and deep chains included', async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 21));
        await db.exec(`
          insert into user_groups (id, name, description) values ('ALPHA', 'Alpha', 'A'), ('BETA', 'Beta', 'B'), ('GAMMA', 'Gamma', 'C');
          insert into group_nestings (user_group_id, group_name, member_group) values ('ALPHA', 'ALPHA-user', 'BETA-team');
        `);
        const closure = async () =>
          (await db.query<{ member_group: string; group_name: string; user_group_id: string }>(
            'select member_group, group_name, user_group_id from group_nestings_closure order by member_group, group_name',
          )).rows.map((r) => `${r.member_group} > ${r.group_name} (${r.user_group_id})`);
        assert.deepEqual(await migrate(db, readMigrations().filter((m) => m.version <= 22)), ['0022_group_nestings_closure']);
        assert.deepEqual(await closure(), ['BETA-team > ALPHA-user (ALPHA)'], 'the nestings already there');
        await db.query("insert into group_nestings (user_group_id, group_name, member_group) values ('BETA', 'BETA-team', 'GAMMA-user')");
        assert.deepEqual(await closure(), ['BETA-team > ALPHA-user (ALPHA)', 'GAMMA-user > ALPHA-user (ALPHA)', 'GAMMA-user > BETA-team (BETA)'], 'a chain: GAMMA-user holds ALPHA-user through BETA-team');
        await db.query("insert into group_nestings (user_group_id, group_name, member_group) values ('GAMMA', 'GAMMA-user', 'ALPHA-user')");
        assert.deepEqual(
          await closure(),
          [
            'ALPHA-user > BETA-team (BETA)', 'ALPHA-user > GAMMA-user (GAMMA)',
            'BETA-team > ALPHA-user (ALPHA)', 'BETA-team > GAMMA-user (GAMMA)',
            'GAMMA-user > ALPHA-user (ALPHA)', 'GAMMA-user > BETA-team (BETA)',
          ],
          'a cycle ends, and no group holds itself',
        );
        await db.query("delete from group_nestings where member_group = 'BETA-team'");
        assert.deepEqual(await closure(), ['ALPHA-user > GAMMA-user (GAMMA)', 'GAMMA-user > BETA-team (BETA)', 'ALPHA-user > BETA-team (BETA)'].sort(), 'a nesting taken away');
        await db.query("delete from user_groups where id = 'BETA'");
        assert.deepEqual(await closure(), ['ALPHA-user > GAMMA-user (GAMMA)'], "a user group's deletion takes its nestings away");
        await db.query('truncate group_nestings');
        assert.deepEqual(await closure(), []);
      } finally {
        await db.close();
      }
    });

    test("0023's stamps move with every change of what an account holds, in the statement that makes it, and with nothing else", async () => {
      const db = await createEmptyDatabase(kind);
      try {
        await migrate(db, readMigrations().filter((m) => m.version <= 22));
        await db.exec(`
          insert into accounts (username, email) values ('ann', 'ann@example.test'), ('bob', 'bob@example.test'), ('cy', 'cy@example.test');
          insert into user_groups (id, name, description, services) values ('ALPHA', 'Alpha', 'A', '{jira}'), ('BETA', 'Beta', 'B', '{}');
          insert into group_memberships (user_group_id, account_id, group_name) select 'ALPHA', id, 'ALPHA-team' from accounts where username = 'ann';
        `);
        assert.deepEqual(await migrate(db), ['0023_access_stamps']);
        /** Each account's version, and the generation. */
        const stamps = async () => {
          const { rows } = await db.query<{ username: string; version: string | number }>('select username, access_version as version from accounts order by username');
          const generation = (await db.query<{ generation: string | number }>('select generation from access_generation')).rows;
          assert.equal(generation.length, 1, 'access_generation has one row');
          return { ...Object.fromEntries(rows.map((r) => [r.username, Number(r.version)])), generation: Number(generation[0]?.generation) };
        };
        assert.deepEqual(await stamps(), { ann: 0, bob: 0, cy: 0, generation: 0 }, 'the rows already there start at 0');
        const id = async (username: string) => Number((await db.query<{ id: string | number }>('select id from accounts where username = $1', [username])).rows[0]?.id);
        const [ann, bob, cy] = [await id('ann'), await id('bob'), await id('cy')];

        await db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('ALPHA', $1, 'ALPHA-ops'), ('ALPHA', $1, 'ALPHA-dev'), ('ALPHA', $2, 'ALPHA-ops')", [ann, bob]);
        assert.deepEqual(await stamps(), { ann: 1, bob: 1, cy: 0, generation: 0 }, 'a statement moves each account it touches once, however many of its rows');
        await db.query("update group_memberships set group_name = 'ALPHA-lead' where account_id = $1 and group_name = 'ALPHA-ops'", [bob]);
        await db.query("update group_memberships set account_id = $2 where account_id = $1 and group_name = 'ALPHA-dev'", [ann, cy]);
        assert.deepEqual(await stamps(), { ann: 2, bob: 2, cy: 1, generation: 0 }, 'an update moves the account it leaves and the one it reaches');
        await db.query("delete from group_memberships where account_id = $1 and group_name = 'ALPHA-lead'", [bob]);
        await db.query("insert into account_subscriptions (account_id, service) values ($1, 'jira')", [cy]);
        await db.query("update account_subscriptions set service = 'jenkins' where account_id = $1", [cy]);
        await db.query('delete from account_subscriptions where account_id = $1', [cy]);
        assert.deepEqual(await stamps(), { ann: 2, bob: 3, cy: 4, generation: 0 }, 'memberships taken away; a subscription added, changed, taken away');
        await db.query("delete from group_memberships where group_name = 'nobody'");
        await db.query("update accounts set first_name = 'Ann', email = 'ann@example.org' where id = $1", [ann]);
        await db.query("update user_groups set description = 'Alpha group', open_access = true where id = 'ALPHA'");
        assert.deepEqual(await stamps(), { ann: 2, bob: 3, cy: 4, generation: 0 }, 'what holds nothing moves nothing');

        await db.query("insert into group_nestings (user_group_id, group_name, member_group) values ('ALPHA', 'ALPHA-team', 'BETA-x')");
        await db.query("update user_groups set services = '{jira,jenkins}' where id = 'ALPHA'");
        await db.query("delete from group_nestings where member_group = 'BETA-x'");
        assert.deepEqual(await stamps(), { ann: 2, bob: 3, cy: 4, generation: 3 }, "a nesting added or taken away, a user group's services: the generation");
        await db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('BETA', $1, 'BETA-x')", [bob]);
        await db.query("delete from user_groups where id = 'BETA'");
        assert.deepEqual(await stamps(), { ann: 2, bob: 5, cy: 4, generation: 5 }, "a user group's deletion: its members and the generation (moved by the deletion and by its nestings' cascade)");
        await db.query('delete from accounts where id = $1', [cy]);
        assert.deepEqual(await stamps(), { ann: 2, bob: 5, generation: 5 }, "an account's deletion takes its memberships with it");
        await db.query('truncate group_memberships');
        await db.query('truncate account_subscriptions');
        assert.deepEqual(await stamps(), { ann: 2, bob: 5, generation: 7 }, 'a truncate names no account: the generation');
      } finally {
        await db.close();
      }
    });

    test('the user groups schema enforces the rules of spec section 5', async () => {
      const db = await createTestDatabase(kind);
      try {
        const group = (id: string, extra = '', values = '') =>
          db.query(`insert into user_groups (id, name, description${extra}) values ('${id}', 'Name', 'Description'${values})`);
        await group('PORTAL');
        const { rows } = await db.query<{ domain: string; visibility: string; member_constraint: string; open_access: boolean; services: string[] }>(
          "select domain, visibility, member_constraint, open_access, services from user_groups where id = 'PORTAL'",
        );
        assert.deepEqual(rows, [{ domain: 'TRMC', visibility: 'site-approved', member_constraint: 'None', open_access: false, services: [] }]);
        await assert.rejects(group('portal'), /user_groups_id_lower_key/); // identifiers are unique whatever the case
        await assert.rejects(group('P'), /user_groups_id_check/); // at least 2 characters
        await assert.rejects(group('1ABC'), /user_groups_id_check/); // starts with a letter
        await assert.rejects(group('AB-C'), /user_groups_id_check/); // letters, digits, underscore
        await assert.rejects(group('OPEN', ', open_access, member_constraint', ", true, 'DoD'"), /user_groups_open_access_check/);
        await assert.rejects(group('HIDDEN', ', visibility', ", 'OTHER-admin'"), /user_groups_visibility_check/);
        await group('HIDDEN', ', visibility', ", 'HIDDEN-admin'");
        const account = await db.query<{ id: number }>("insert into accounts (username, email) values ('jane', 'jane@example.test') returning id");
        const jane = account.rows[0]?.id;
        await db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('PORTAL', $1, 'PORTAL-admin')", [jane]);
        await assert.rejects(
          db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('PORTAL', $1, 'HIDDEN-admin')", [jane]),
          /group_memberships_group_name_check/,
        );
        await assert.rejects(
          db.query("insert into group_memberships (user_group_id, account_id, group_name) values ('PORTAL', $1, 'PORTAL-')", [jane]),
          /group_memberships_group_name_check/,
        );
        await db.query("delete from user_groups where id = 'PORTAL'");
        assert.deepEqual((await db.query('select count(*)::int as n from group_memberships')).rows, [{ n: 0 }]);
      } finally {
        await db.close();
      }
    });

    test('the accounts schema enforces its rules', async () => {
      const db = await createTestDatabase(kind);
      try {
        const { rows } = await db.query<{ id: string | number; active: boolean; closed: boolean; authentication: string[]; created: boolean }>(
          `insert into accounts (username, email) values ('first.last', 'First.Last@Example.test')
           returning id, active, closed, authentication, created_at is not null as created`,
        );
        const account = rows[0];
        assert.ok(account);
        assert.deepEqual({ ...account, id: undefined }, { id: undefined, active: true, closed: false, authentication: ['token'], created: true });
        await assert.rejects(db.query("insert into accounts (username, email) values ('other', 'first.last@example.TEST')"), /accounts_email_lower_key/);
        await assert.rejects(db.query("insert into accounts (username, email) values ('first.last', 'x@example.test')"), /accounts_username_key/);
        await assert.rejects(db.query("insert into account_roles (account_id, role) values ($1, 'superuser')", [account.id]), /account_roles_role_check/);
        await db.query("insert into account_roles (account_id, role) values ($1, 'user')", [account.id]);
        await db.query("insert into account_updates (account_id, comment, username, active) values ($1, 'Locked', 'admin', false)", [account.id]);
        await db.query('delete from accounts where id = $1', [account.id]);
        const left = await db.query<{ roles: number; updates: number }>(
          'select (select count(*)::int from account_roles) as roles, (select count(*)::int from account_updates) as updates',
        );
        assert.deepEqual(left.rows, [{ roles: 0, updates: 0 }]);
      } finally {
        await db.close();
      }
    });
  });
}

if (POSTGRES_URL) {
  describe('migrations on postgres, two servers at once', () => {
    test('two concurrent migrate() calls apply each migration once', async () => {
      const schema = await createPostgresSchema();
      try {
        const [a, b] = [schema.open(), schema.open()];
        const results = await Promise.all([migrate(a), migrate(b)]);
        assert.deepEqual(results.flat().sort(), ALL_MIGRATIONS);
        assert.deepEqual((await recorded(a)).map((r) => r.version), ALL_VERSIONS);
        assert.deepEqual(await tableNames(b), ALL_TABLES);
      } finally {
        await schema.drop();
      }
    });
  });
}
