/**
 * The server and its command line as child processes, for tests that need a real one. They run
 * the bundle (dist/main.mjs and dist/cli.mjs, as `npm start` and a person do), built from the
 * current sources into a folder of their own under node_modules/.cache: once for all the test
 * files that run at the same time, and again only when a source changed. (Starting through tsx
 * instead compiled the sources again at every start: 1.3 s more for each of about 90 starts.)
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Database, DatabaseKind } from '../src/db/database.js';
import { openPglite } from '../src/db/pglite.js';
import { REPO_DIR, SERVER_DIR } from '../src/paths.js';
import { createPostgresSchema, keepInTestCache, newTestCacheEntry, POSTGRES_URL, testCacheEntry, type Fixture } from './helpers.js';

/** What the bundle is made of: a change to any of these makes a new one. */
const BUNDLE_INPUTS = ['server/src', 'server/build.mjs', 'server/package.json', 'shared/api/src', 'shared/src', 'pnpm-lock.yaml'];

function hashInputs(): string {
  const hash = createHash('sha256');
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!name.startsWith('.') && name !== 'node_modules') walk(join(path, name));
    } else {
      hash.update(relative(REPO_DIR, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const input of BUNDLE_INPUTS) walk(join(REPO_DIR, input));
  return hash.digest('hex').slice(0, 16);
}

let bundle: { main: string; cli: string } | undefined;

/** The bundle of the current sources (built when there is none yet: about a second). */
export function serverBundle(): { main: string; cli: string } {
  if (bundle) return bundle;
  const dir = testCacheEntry('test-bundle', hashInputs());
  if (!existsSync(dir)) {
    const building = newTestCacheEntry('test-bundle');
    execFileSync(process.execPath, ['build.mjs', '--outdir', building], { cwd: SERVER_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
    keepInTestCache(building, dir);
  }
  bundle = { main: join(dir, 'main.mjs'), cli: join(dir, 'cli.mjs') };
  return bundle;
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts main with exactly these environment variables (plus PATH). */
export function startMain(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle().main], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit };
}

/** Waits for the "Portal running at" line; returns the URL it names. */
export async function runningUrl(running: Running, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /Portal running at (http:\/\/localhost:\d+)/.exec(running.output());
    if (match?.[1]) return match[1];
    if (running.child.exitCode !== null) assert.fail(`main exited (${running.child.exitCode}) before running:\n${running.output()}`);
    if (Date.now() > deadline) assert.fail(`main did not start within ${timeoutMs} ms:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the process has printed something matching `pattern` (a pipe may hand its output over in pieces). */
export async function outputMatching(running: Running, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pattern.test(running.output())) return running.output();
    if (running.child.exitCode !== null) assert.fail(`the process exited (${running.child.exitCode}) before printing ${pattern}:\n${running.output()}`);
    if (Date.now() > deadline) assert.fail(`the process did not print ${pattern} within ${timeoutMs} ms:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a finished command printed, and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the portal's command line (the bundle of src/cli.ts) with only PATH and `env` in its environment. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', serverBundle().cli, ...args], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * What a portal started by a test runs with: its own data folder, the fixture's host and
 * environment, a remote store (the fixture's unless given), no demo data, ports of its own.
 */
export function portalEnv(fixture: Fixture, dataDir: string, remotesDir = fixture.remotesDir): Record<string, string> {
  return {
    PORT: '0',
    PORTAL_LIST_SMTP_PORT: '0',
    PORTAL_DATA_DIR: dataDir,
    PORTAL_SEED_DEMO: 'false',
    PORTAL_HOST_DIR: fixture.hostDir,
    PORTAL_REMOTES_DIR: remotesDir,
    PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile,
  };
}

/** The database of a process test: the server's DATABASE_URL (PostgreSQL), how the test opens it, and its removal. */
export interface ProcessDatabase {
  /** For the server's environment; undefined on the embedded database (the data folder names it). */
  readonly databaseUrl: string | undefined;
  /** The test's own handle (PGlite: only while no server holds the folder); closing it keeps the pool. */
  open(): Promise<Database>;
  /** Drops the schema (PostgreSQL); nothing on the embedded database. */
  drop(): Promise<void>;
}

/** A schema of its own on PostgreSQL (the server's search_path set to it), or the embedded database in `dataDir`. */
export async function processDatabase(kind: DatabaseKind, dataDir: string): Promise<ProcessDatabase> {
  if (kind === 'pglite') return { databaseUrl: undefined, open: () => openPglite({ dataDir }), drop: () => Promise.resolve() };
  const schema = await createPostgresSchema();
  const url = new URL(POSTGRES_URL ?? '');
  url.searchParams.set('options', `-c search_path=${schema.name}`);
  const pool = schema.open();
  return { databaseUrl: url.toString(), open: () => Promise.resolve({ ...pool, close: () => Promise.resolve() }), drop: () => schema.drop() };
}
