/**
 * Test helpers: databases (PGlite always; PostgreSQL too when DATABASE_URL is set), temporary
 * host/remote folders with an environment manifest, and an app built on them.
 *
 * Creating a PGlite database costs seconds, so one is created, dumped (empty and migrated) and
 * kept for every test file (pgliteTemplates), and every test gets a fresh PGlite loaded from a
 * dump. On PostgreSQL every test gets a schema of its own (search_path), dropped when the test
 * closes it.
 */
import type { ProvisioningEngine } from '../src/services/provisioning/engine.js';
import type { TokenIssuer } from '../src/services/tokens/issuer.js';
import type { ListEngine } from '../src/services/lists/engine.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';
import type { EnvironmentManifest } from '@portal/shared/contract';
import { buildApp, type App, type AppServerSettings, type AppTls } from '../src/app.js';
import type { Clock } from '../src/services/clock.js';
import type { Database, DatabaseKind, Queryable, QueryResult } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite, pgliteDatabase } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import type { LogStream } from '../src/logger.js';
import { MIGRATIONS_DIR, SERVER_DIR } from '../src/paths.js';
import { importInitialPins, publishRemote } from '../src/services/federation.js';
import { readRemoteBuild } from '../src/services/remote-store.js';

export const POSTGRES_URL = process.env.DATABASE_URL;

/** The databases to run database tests on: PGlite, and PostgreSQL when DATABASE_URL is set. */
export const DATABASE_KINDS: readonly DatabaseKind[] = POSTGRES_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The one database of the walks whose subject is the app, not the database: every route × every
 * caller (the authorization matrix, anti-forgery) and hostile input to every route. They run
 * thousands of requests whose SQL is the same on both databases, and every other database test
 * runs that SQL on PostgreSQL too; on PGlite, the embedded default, they also reach the adapter
 * that writes each parameter into EXECUTE itself (src/db/pglite.ts), the only SQL text the portal
 * writes from a caller's values. Once instead of once per database: server/README.md, "Tests".
 */
export const ROUTE_WALK_DATABASE: DatabaseKind = 'pglite';

// ---------------------------------------------------------------------------------------------
// Databases

interface PgliteTemplates {
  empty: Blob;
  migrated: Blob;
}
let templates: Promise<PgliteTemplates> | undefined;

/** What the dumps depend on: the migrations, the code that applies them, PGlite's version. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) hash.update(name).update('\0').update(readFileSync(join(MIGRATIONS_DIR, name))).update('\0');
  hash.update(readFileSync(join(SERVER_DIR, 'src', 'db', 'migrate.ts')));
  hash.update(readFileSync(join(SERVER_DIR, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The dumps (empty and migrated) every test loads its PGlite from. Made once for all the test
 * files, not once per file (a new PGlite, the migrations and two dumps: about 4 CPU-s, where a
 * test's load of a dump costs 0.7), and kept in the test cache under what they depend on.
 */
function pgliteTemplates(): Promise<PgliteTemplates> {
  templates ??= (async () => {
    const dir = testCacheEntry('test-pglite', templateKey());
    if (!existsSync(dir)) {
      const making = newTestCacheEntry('test-pglite');
      const pglite = await PGlite.create();
      writeFileSync(join(making, 'empty.tar'), Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
      const db = pgliteDatabase(pglite);
      await migrate(db);
      writeFileSync(join(making, 'migrated.tar'), Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
      await db.close();
      keepInTestCache(making, dir);
    }
    return { empty: new Blob([readFileSync(join(dir, 'empty.tar'))]), migrated: new Blob([readFileSync(join(dir, 'migrated.tar'))]) };
  })();
  return templates;
}

// ---------------------------------------------------------------------------------------------
// What the test files make once for all of them (the PGlite dumps, the server's bundle), kept
// under server/node_modules/.cache/<name>/<key>, the key naming what it was made from.

/** Where the entry of that key is (it exists once it is whole). */
export function testCacheEntry(name: string, key: string): string {
  return join(SERVER_DIR, 'node_modules', '.cache', name, key);
}

/** A new folder to fill, then to hand to keepInTestCache. */
export function newTestCacheEntry(name: string): string {
  const cache = join(SERVER_DIR, 'node_modules', '.cache', name);
  mkdirSync(cache, { recursive: true });
  return mkdtempSync(join(cache, '.making-'));
}

/**
 * Moves a filled folder into place as `entry` in one step: a test file running at the same time
 * sees all of it or none (and the one that loses the race keeps the other's). Entries of other
 * keys go once they are an hour old.
 */
export function keepInTestCache(making: string, entry: string): void {
  try {
    renameSync(making, entry);
  } catch {
    rmSync(making, { recursive: true, force: true });
  }
  const cache = dirname(entry);
  for (const old of readdirSync(cache)) {
    if (old !== basename(entry) && Date.now() - statSync(join(cache, old)).mtimeMs > 3_600_000) rmSync(join(cache, old), { recursive: true, force: true });
  }
}

let schemaCounter = 0;

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface PostgresSchema {
  readonly name: string;
  /** A new connection pool whose search_path is this schema. */
  open(): Database;
  /** Closes the pools opened and drops the schema. */
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL schema (needs DATABASE_URL). */
export async function createPostgresSchema(): Promise<PostgresSchema> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const connectionString = POSTGRES_URL;
  const name = `test_${process.pid}_${++schemaCounter}_${randomBytes(3).toString('hex')}`;
  await withAdminClient((client) => client.query(`create schema ${name}`));
  const opened: Database[] = [];
  return {
    name,
    open() {
      const db = openPostgres({ connectionString, searchPath: name, max: 4 });
      opened.push(db);
      return db;
    },
    async drop() {
      await Promise.all(opened.map((db) => db.close()));
      await withAdminClient((client) => client.query(`drop schema ${name} cascade`));
    },
  };
}

async function createPostgresDatabase(migrated: boolean): Promise<Database> {
  const schema = await createPostgresSchema();
  const db = schema.open();
  if (migrated) await migrate(db);
  let dropped: Promise<void> | undefined;
  return {
    ...db,
    close() {
      dropped ??= schema.drop();
      return dropped;
    },
  };
}

/** A migrated database of the given kind, empty of rows. Close it at the end of the test. */
export async function createTestDatabase(kind: DatabaseKind = 'pglite'): Promise<Database> {
  if (kind === 'postgres') return createPostgresDatabase(true);
  return openPglite({ loadDataDir: (await pgliteTemplates()).migrated });
}

/** A database without any table (for migration tests). Close it at the end of the test. */
export async function createEmptyDatabase(kind: DatabaseKind = 'pglite'): Promise<Database> {
  if (kind === 'postgres') return createPostgresDatabase(false);
  return openPglite({ loadDataDir: (await pgliteTemplates()).empty });
}

/** The table names of the database's current schema. */
export async function tableNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** A database whose every query fails, as when the database server is down. */
export function failingDatabase(message = 'connection refused'): Database {
  const fail = async (): Promise<never> => {
    throw new Error(message);
  };
  return {
    kind: 'postgres',
    query: fail as <T>() => Promise<QueryResult<T>>,
    exec: fail,
    transaction: fail,
    close: async () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Files

export interface Fixture {
  dir: string;
  hostDir: string;
  remotesDir: string;
  manifestFile: string;
  /** Writes a file (creating folders) under the fixture directory. */
  write(relativePath: string, content: string): string;
  writeManifest(manifest: unknown): void;
  remove(): void;
}

export const TEST_MANIFEST: EnvironmentManifest = {
  environment: 'test',
  remotes: [
    { name: 'groups', version: '0.1.0', contract: '^2.0.0', routes: ['/groups'] },
    { name: 'tokens', version: '0.2.0-beta.1', contract: '^2.0.0', routes: ['/tokens'] },
    { name: 'elsewhere', entry: 'https://cdn.example.test/elsewhere/mf-manifest.json', contract: '^2.0.0', routes: ['/elsewhere'] },
  ],
};

export const HASHED_HOST_FILE = 'main.0123456789abcdef.js';
export const HASHED_REMOTE_FILE = '123.a1b2c3d4e5f6a7b8.js';

/** A temporary directory with a host build, one version of the groups remote and a manifest. */
export function createFixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'portal-test-'));
  const write = (relativePath: string, content: string): string => {
    const file = join(dir, relativePath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  write('host/index.html', '<!doctype html><title>Portal</title>');
  write(`host/${HASHED_HOST_FILE}`, 'console.log("host");');
  write('host/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('remotes/groups/0.1.0/portal-remote.json', JSON.stringify({ name: 'groups', version: '0.1.0', contract: '^2.0.0', routes: ['/groups'] }));
  write('remotes/groups/0.1.0/mf-manifest.json', '{"name":"groups"}');
  write('remotes/groups/0.1.0/remoteEntry.js', 'var groups;');
  // What the builds' precompression writes beside a text asset.
  write(`remotes/groups/0.1.0/${HASHED_REMOTE_FILE}.br`, 'brotli bytes');
  write(`remotes/groups/0.1.0/${HASHED_REMOTE_FILE}.gz`, 'gzip bytes');
  write(`remotes/groups/0.1.0/${HASHED_REMOTE_FILE}`, 'console.log("chunk");');
  write('secret.txt', 'outside the served folders');
  const manifestFile = write('environment.json', JSON.stringify(TEST_MANIFEST));
  return {
    dir,
    hostDir: join(dir, 'host'),
    remotesDir: join(dir, 'remotes'),
    manifestFile,
    write,
    writeManifest(manifest) {
      writeFileSync(manifestFile, typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The app

export interface TestAppOptions {
  db: Database;
  fixture: Fixture;
  portal?: Partial<PortalConfiguration>;
  server?: Partial<AppServerSettings>;
  /** Collects log lines (JSON) instead of discarding them. */
  logs?: string[];
  clock?: Clock;
  tls?: AppTls;
  tokenIssuer?: TokenIssuer;
  listEngine?: ListEngine;
  provisioning?: ProvisioningEngine;
}

/** The bot challenge's cost in tests: solved in milliseconds. */
export const TEST_CHALLENGE_COST = 1;

/** An app on the fixture's folders; call ready() (or inject) to load it. */
export function createTestApp(options: TestAppOptions): App {
  const logs = options.logs;
  const stream: LogStream | undefined = logs ? { write: (line) => void logs.push(line) } : undefined;
  return buildApp({
    db: options.db,
    portal: { ...DEFAULT_CONFIGURATION, ...options.portal },
    server: {
      environmentManifest: options.fixture.manifestFile,
      hostDir: options.fixture.hostDir,
      remotesDir: options.fixture.remotesDir,
      devRemotes: {},
      challengeCost: TEST_CHALLENGE_COST,
      ...options.server,
    },
    logger: logs ? { level: 'info', ...(stream ? { stream } : {}) } : { level: 'silent' },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.tokenIssuer ? { tokenIssuer: options.tokenIssuer } : {}),
    ...(options.listEngine ? { listEngine: options.listEngine } : {}),
    ...(options.provisioning ? { provisioning: options.provisioning } : {}),
  });
}

/** A remote's build in a folder of its own under `root`, as webpack writes dist/<version>/; returns the folder. */
export function writeRemoteBuild(
  root: string,
  name: string,
  version: string,
  options: { contract?: string; routes?: string[]; marker?: string; firstLoad?: unknown; navigation?: unknown } = {},
): string {
  const dir = join(root, `${name}-${version}-${randomBytes(4).toString('hex')}`);
  const files: Record<string, string> = {
    'portal-remote.json': JSON.stringify({
      name,
      version,
      contract: options.contract ?? '^2.0.0',
      routes: options.routes ?? [`/${name}`],
      ...(options.firstLoad === undefined ? {} : { firstLoad: options.firstLoad }),
      ...(options.navigation === undefined ? {} : { navigation: options.navigation }),
    }),
    'mf-manifest.json': JSON.stringify({ name, version }),
    'remoteEntry.js': `var ${name} = '${options.marker ?? version}';`,
    'chunk.0123456789abcdef.js': `console.log('${name} ${version}');`,
  };
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  return dir;
}

/**
 * Publishes the fixture's build (groups 0.1.0, already in the fixture's store) and imports the
 * manifest file's initial pins, as the server does at start: the app then serves groups 0.1.0.
 */
export async function publishFixture(db: Database, fixture: Fixture): Promise<void> {
  const context = { db, storeDir: fixture.remotesDir };
  await publishRemote(context, await readRemoteBuild(join(fixture.remotesDir, 'groups', '0.1.0')), 'fixture');
  await importInitialPins(context, JSON.parse(readFileSync(fixture.manifestFile, 'utf8')) as EnvironmentManifest, 'initial pins (fixture)');
}

/** Parses collected JSON log lines. */
export function parseLogs(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}
