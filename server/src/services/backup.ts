/**
 * Backups of the embedded database (`portal backup FILE`, `portal restore FILE`; docs/operations.md,
 * "Backups"). A backup is PGlite's own dump of the data folder (dumpDataDir: a gzipped tar of the
 * folder, taken after a checkpoint while no other transaction runs), written by the process that
 * holds the folder: the command line itself when the folder is free, else the running portal
 * through its command socket. A restore never runs while a process holds the folder; it checks
 * the file (a tar of a PostgreSQL data folder of the version this PGlite runs, whose recorded
 * migrations this portal has) by unpacking and opening it in a folder of its own beside the data
 * folder, and only then swaps that folder's files in. Pending migrations run at the next start.
 * On PostgreSQL (DATABASE_URL) pg_dump and pg_restore do this; `postgresBackupAdvice` says how.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Database } from '../db/database.js';
import { lockDirectory, LOCK_FILE_NAME, type DirectoryLock } from '../db/lock.js';
import { readMigrations } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { readTar, type TarEntry } from '../db/tar.js';

/** The PostgreSQL major version of the pinned PGlite (@electric-sql/pglite 0.5.16): its data folders say so in PG_VERSION. */
export const PGLITE_POSTGRES_MAJOR = '18';

/** Files of a data folder that belong to the running process, never to a backup (older dumps may hold them). */
const PROCESS_FILES = new Set([LOCK_FILE_NAME, 'portal.sock']);

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
}

/** Writes the dump of an open embedded database to `file` (mode 0600: it holds the server's secrets). */
export async function writeBackup(db: Database, file: string, options: { force: boolean }): Promise<BackupResult> {
  if (db.dumpDataDir === undefined) throw new BackupError('This database cannot be dumped: it is not the embedded database.');
  const target = resolve(file);
  if (!options.force && existsSync(target)) throw new BackupError(`${target} exists already. Choose another file, or add --force to replace it.`);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist.`);
  const dump = await db.dumpDataDir();
  // Written beside the target and renamed: a reader never sees half a backup.
  const partial = `${target}.partial-${process.pid}`;
  try {
    writeFileSync(partial, dump, { mode: 0o600 });
    chmodSync(partial, 0o600);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new BackupError(`Cannot write ${target}: ${(error as Error).message}`);
  }
  return { file: target, bytes: dump.length };
}

/** Whether `dataDir` holds an embedded database (a PostgreSQL data folder). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/** The tar in a backup file (gzipped, as PGlite writes it, or plain). */
function archiveOf(file: string, content: Buffer): Buffer {
  if (content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b) {
    try {
      return gunzipSync(content);
    } catch (error) {
      throw new BackupError(`${file} is not a backup of the embedded database: its gzip data is damaged (${(error as Error).message}).`);
    }
  }
  return content;
}

/** The checked entries of a backup file, or BackupError saying why it is not one this portal can restore. */
export async function readBackupFile(file: string): Promise<TarEntry[]> {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  const entries = await readTar(archiveOf(file, content));
  const notADump = `${file} is not a backup of the embedded database (a PGlite dump, as \`portal backup\` writes)`;
  if (entries === undefined) throw new BackupError(`${notADump}: it is not a tar archive of a data folder.`);
  const version = entries.find((e) => e.path === 'PG_VERSION' && e.type === 'file');
  if (version === undefined || !entries.some((e) => e.path === 'global/pg_control') || !entries.some((e) => e.path.startsWith('base/'))) {
    throw new BackupError(`${notADump}: it holds no PostgreSQL data folder.`);
  }
  const major = Buffer.from(version.data).toString('utf8').trim();
  if (major !== PGLITE_POSTGRES_MAJOR) {
    throw new BackupError(
      `${file} is a dump of PostgreSQL ${major.slice(0, 20)}, and this portal's PGlite runs PostgreSQL ${PGLITE_POSTGRES_MAJOR}: restore it with the portal version that made it.`,
    );
  }
  return entries.filter((e) => !PROCESS_FILES.has(e.path));
}

function unpack(entries: readonly TarEntry[], dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const entry of entries) {
    const target = join(dir, ...entry.path.split('/'));
    if (!target.startsWith(dir + sep)) throw new BackupError(`The backup names a file outside its folder: ${entry.path}.`);
    if (entry.type === 'directory') {
      mkdirSync(target, { recursive: true, mode: 0o700 });
    } else {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      // Owner only, whatever the archive says: the folder holds the server's secrets.
      writeFileSync(target, entry.data, { mode: 0o600 });
    }
  }
}

/** Opens the unpacked copy: PostgreSQL must start on it, and this portal must have every migration it records. */
async function checkUnpacked(file: string, dir: string): Promise<void> {
  let db: Database;
  try {
    db = await openPglite({ dataDir: dir });
  } catch (error) {
    throw new BackupError(`${file} does not open as a database of this portal's PGlite: ${(error as Error).message}`);
  }
  try {
    let applied: { version: number; checksum: string }[];
    try {
      ({ rows: applied } = await db.query<{ version: number; checksum: string }>('select version, checksum from schema_migrations order by version'));
    } catch {
      throw new BackupError(`${file} is a PGlite dump, but not of a portal database (it has no schema_migrations).`);
    }
    const known = new Map(readMigrations().map((m) => [m.version, m]));
    for (const row of applied) {
      const migration = known.get(Number(row.version));
      if (migration === undefined) {
        throw new BackupError(`${file} records migration ${row.version}, which this portal does not have: it was made by a newer portal. Restore it with that version.`);
      }
      if (migration.checksum !== row.checksum) {
        throw new BackupError(`${file} records migration ${row.version} with another checksum than this portal's: it was made by a different portal version.`);
      }
    }
  } finally {
    await db.close();
  }
}

export interface RestoreResult {
  dataDir: string;
  /** Whether the folder held a database (or other files) that were replaced (--force). */
  replaced: boolean;
}

function entriesOf(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== LOCK_FILE_NAME);
}

/**
 * Restores a backup into the data folder. Refuses while a process holds the folder
 * (DatabaseInUseError), when the folder holds anything and `force` is not set, and when the file
 * is not a dump this portal can open — each before anything in the folder changes.
 */
export async function restoreBackup(file: string, dataDir: string, options: { force: boolean }): Promise<RestoreResult> {
  const source = resolve(file);
  const target = resolve(dataDir);
  const lock: DirectoryLock = lockDirectory(target);
  const scratch = join(dirname(target), `.${basename(target)}.restore-${process.pid}`);
  const old = join(dirname(target), `.${basename(target)}.replaced-${process.pid}`);
  try {
    const present = entriesOf(target);
    if (present.length > 0 && !options.force) {
      throw new BackupError(`${target} is not empty (${present.length} entr${present.length === 1 ? 'y' : 'ies'}). Add --force to replace what it holds.`);
    }
    const entries = await readBackupFile(source);
    rmSync(scratch, { recursive: true, force: true });
    try {
      unpack(entries, scratch);
      await checkUnpacked(source, scratch);
      // The swap: the folder's current files aside, the restored ones in, then the old ones removed.
      mkdirSync(old, { mode: 0o700 });
      const moved: string[] = [];
      try {
        for (const name of present) {
          renameSync(join(target, name), join(old, name));
          moved.push(name);
        }
        for (const name of readdirSync(scratch)) renameSync(join(scratch, name), join(target, name));
      } catch (error) {
        for (const name of readdirSync(target)) if (name !== LOCK_FILE_NAME && !moved.includes(name)) rmSync(join(target, name), { recursive: true, force: true });
        for (const name of moved) renameSync(join(old, name), join(target, name));
        throw new BackupError(`Cannot move the restored files into ${target} (it is as it was): ${(error as Error).message}`);
      }
      rmSync(old, { recursive: true, force: true });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return { dataDir: target, replaced: present.length > 0 };
  } finally {
    lock.release();
  }
}

/** A path as one shell word. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What to run on PostgreSQL instead (DATABASE_URL is never printed: it may hold a password). */
export function postgresBackupAdvice(command: 'backup' | 'restore', file: string): string {
  const path = shellWord(resolve(file));
  if (command === 'backup') {
    return [
      'The portal uses PostgreSQL (DATABASE_URL): back it up with pg_dump, with DATABASE_URL set as for the portal:',
      `  pg_dump --format=custom --no-owner --file=${path} "$DATABASE_URL"`,
      '',
    ].join('\n');
  }
  return [
    'The portal uses PostgreSQL (DATABASE_URL): stop the portal, then restore with pg_restore into an empty database, with DATABASE_URL naming it:',
    `  pg_restore --no-owner --exit-on-error --single-transaction --dbname="$DATABASE_URL" ${path}`,
    'Pending migrations run when the portal starts.',
    '',
  ].join('\n');
}
