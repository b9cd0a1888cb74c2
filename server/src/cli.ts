/**
 * The portal's command line (`node server/dist/cli.mjs <command>`; `npm run portal -- <command>`).
 *
 *   create-admin --username U --email E [--json]
 *       creates a site administrator and prints its website token, once.
 *
 * Works whether or not the portal runs: with DATABASE_URL it connects to PostgreSQL itself; on
 * the embedded database it opens the data folder itself, unless a running portal holds the
 * folder's lock, in which case the command goes through that portal's local socket
 * (<dataDir>/portal.sock) rather than opening the database a second time.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadServerSettings, type ServerSettings } from './config.js';
import type { Database } from './db/database.js';
import { DatabaseInUseError } from './db/lock.js';
import { migrate, MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { sendControlRequest } from './control.js';
import { ApiError } from './errors.js';
import { adminInputProblems, createSiteAdmin, type CreatedAdmin } from './services/admin.js';

const USAGE = [
  'Usage: portal <command> [options]',
  '',
  'Commands:',
  '  create-admin --username U --email E [--json]',
  '      Create a site administrator and print its website token (shown once).',
  '      --json prints one line: {"username":"U","token":"…"}',
  '',
].join('\n');

class UsageError extends Error {}
class CommandError extends Error {}

function exit(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

interface CreateAdminOptions {
  username: string;
  email: string;
  json: boolean;
}

function parseCreateAdmin(args: string[]): CreateAdminOptions {
  let values: { username?: string; email?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { username: { type: 'string' }, email: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = (['username', 'email'] as const).filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new UsageError(`create-admin needs ${missing.map((m) => `--${m}`).join(' and ')}.`);
  const username = (values.username ?? '').trim();
  const email = (values.email ?? '').trim();
  const problems = adminInputProblems(username, email);
  if (problems.length > 0) throw new CommandError(problems.join('\n'));
  return { username, email, json: values.json === true };
}

async function withOwnDatabase<T>(settings: ServerSettings, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(settings);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Through the running portal's socket; it may still be starting, so a missing socket is retried a while. */
async function throughRunningPortal(settings: ServerSettings, options: CreateAdminOptions): Promise<CreatedAdmin> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await sendControlRequest(settings.dataDir, { command: 'create-admin', username: options.username, email: options.email });
      if (!response.ok) throw new CommandError(response.error);
      return response.result;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ECONNREFUSED') || Date.now() > deadline) {
        if (error instanceof CommandError) throw error;
        throw new CommandError(
          `The portal running on ${settings.dataDir} holds the embedded database, and its command socket does not answer (${(error as Error).message}).`,
        );
      }
      await sleep(250);
    }
  }
}

async function createAdmin(settings: ServerSettings, options: CreateAdminOptions): Promise<CreatedAdmin> {
  const create = (db: Database) => createSiteAdmin(db, { username: options.username, email: options.email });
  if (settings.databaseUrl !== undefined) return withOwnDatabase(settings, create);
  try {
    return await withOwnDatabase(settings, create);
  } catch (error) {
    if (error instanceof DatabaseInUseError) return throughRunningPortal(settings, options);
    throw error;
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    if (command === undefined) process.exit(2);
    return;
  }
  try {
    if (command !== 'create-admin') throw new UsageError(`Unknown command '${command}'.`);
    const options = parseCreateAdmin(args);
    const settings = loadServerSettings();
    const admin = await createAdmin(settings, options);
    if (options.json) process.stdout.write(`${JSON.stringify({ username: admin.username, token: admin.token })}\n`);
    else {
      process.stdout.write(
        [
          `Site administrator '${admin.username}' created.`,
          `Website token (shown only now; store it securely): ${admin.token}`,
          '',
        ].join('\n'),
      );
    }
  } catch (error) {
    if (error instanceof UsageError) exit(2, `${error.message}\n\n${USAGE}`);
    if (error instanceof ConfigError) exit(1, ['Configuration error:', ...error.problems.map((p) => `  - ${p}`)].join('\n'));
    if (error instanceof CommandError || error instanceof ApiError || error instanceof MigrationError) {
      exit(1, `Cannot create the administrator: ${error.message}`);
    }
    exit(1, `Cannot create the administrator: ${(error as Error).message}`);
  }
}

await main(process.argv.slice(2));
