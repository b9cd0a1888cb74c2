/**
 * Numbered SQL migrations: server/migrations/NNNN_name.sql, applied in order, each in its own
 * transaction, recorded in schema_migrations with the file's sha256. A recorded migration whose
 * file changed, or disappeared, stops the server: the schema would no longer match the code.
 * On PostgreSQL an advisory lock makes servers that start together migrate once.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';
import type { Database, Queryable } from './database.js';

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  sql: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;
/** Any constant shared by every server of this portal: pg_advisory_xact_lock(bigint). */
const ADVISORY_LOCK_KEY = 7_305_202_611;

/**
 * Migrations whose comments were reworded after they shipped, each with the checksum of the file
 * as it shipped: their statements are the same (migrations.test.ts checks each file's statements
 * against the checksum they shipped with), so a database that recorded the old checksum is
 * brought to the current one at its next start instead of being refused. (Their first lines named
 * the tracker's issues, which mean nothing to a reader of the file.)
 */
export const REWORDED_MIGRATIONS: Readonly<Record<number, string>> = {
  6: '46c0705c8cd1985ed49e4b3c514db03c1c5d2c25830065c7d473e6710c2856bf',
  7: '4361ec3d72707071aebb49954b0e72f67bda36ef92e418935c32cf2c42a9d087',
  9: '93460e8b27e1573be624b331a3506a84bd8608f29a8b0148aafb10126cdd5587',
  12: '7bc3605a153f6e58e0e2f09cd515e3f92b8704e5dd48fbb8836003fc374791f2',
  13: 'e6eeea55918bb3bf8b6774128ae6333d0430b9f0ef2a4ac8783066f6e7f3d3b2',
  14: '512b96712754718285f104a6f7419803edfe038a92180e473f832255d5b4eabb',
  15: 'fc4576f416aa329bcb32efcd87e4c326c765a65e379ab1a46dd403cfd9566aaf',
};

export function checksumOf(sql: string): string {
  // Line endings are normalised so that a checkout with CRLF endings has the same checksum.
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const match = FILE_NAME.exec(file);
    if (!match) throw new MigrationError(`${join(dir, file)}: migration files are named NNNN_name.sql (lowercase name)`);
    const version = Number(match[1]);
    const previous = migrations.find((m) => m.version === version);
    if (previous) throw new MigrationError(`${dir}: version ${match[1]} is used by two files (${previous.name}, ${match[2]})`);
    const sql = readFileSync(join(dir, file), 'utf8');
    migrations.push({ version, name: match[2] ?? '', checksum: checksumOf(sql), sql });
  }
  return migrations.sort((a, b) => a.version - b.version);
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

async function lock(db: Database, tx: Queryable): Promise<void> {
  if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
}

async function appliedMigrations(tx: Queryable): Promise<Map<number, AppliedRow>> {
  const { rows } = await tx.query<AppliedRow>('select version, name, checksum from schema_migrations order by version');
  return new Map(rows.map((row) => [Number(row.version), row]));
}

function label(m: { version: number; name: string }): string {
  return `${String(m.version).padStart(4, '0')}_${m.name}`;
}

function verify(applied: Map<number, AppliedRow>, migrations: readonly Migration[]): void {
  for (const row of applied.values()) {
    const migration = migrations.find((m) => m.version === Number(row.version));
    if (!migration) {
      throw new MigrationError(
        `Migration ${label({ version: Number(row.version), name: row.name })} is recorded in the database but its file is missing: the database was migrated by a newer version of the server.`,
      );
    }
    if (migration.checksum !== row.checksum && REWORDED_MIGRATIONS[migration.version] !== row.checksum) {
      throw new MigrationError(
        `Migration ${label(migration)} has changed since it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${migration.checksum.slice(0, 12)}… on disk). Never edit an applied migration: add a new one.`,
      );
    }
  }
}

/** Applies the pending migrations; returns the labels of those it applied (NNNN_name). */
export async function migrate(db: Database, migrations: readonly Migration[] = readMigrations()): Promise<string[]> {
  await db.transaction(async (tx) => {
    await lock(db, tx);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`);
  });
  verify(await appliedMigrations(db), migrations);
  // A reworded migration recorded as it shipped: its current checksum from now on.
  for (const migration of migrations) {
    const shipped = REWORDED_MIGRATIONS[migration.version];
    if (shipped !== undefined && shipped !== migration.checksum) {
      await db.query('update schema_migrations set checksum = $1 where version = $2 and checksum = $3', [migration.checksum, migration.version, shipped]);
    }
  }

  const done: string[] = [];
  for (const migration of migrations) {
    const applied = await db.transaction(async (tx) => {
      await lock(db, tx);
      // Checked again under the lock: another server may have applied it meanwhile.
      const current = await appliedMigrations(tx);
      verify(current, migrations);
      if (current.has(migration.version)) return false;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new MigrationError(`Migration ${label(migration)} failed: ${(error as Error).message}`);
      }
      await tx.query('insert into schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (applied) done.push(label(migration));
  }
  return done;
}
