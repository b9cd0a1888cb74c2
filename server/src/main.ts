/**
 * Starts the portal server: settings → database → migrations → demo data → HTTP. Expected
 * failures (bad configuration, a database in use, a broken manifest …) end the process with a
 * one-line reason and exit code 1; SIGINT/SIGTERM close everything and exit 0.
 */
import { buildApp, type App } from './app.js';
import { ConfigError, loadSettings, type Settings } from './config.js';
import type { Database } from './db/database.js';
import { DatabaseInUseError } from './db/lock.js';
import { migrate, MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { seedDemoData, type DemoAccount } from './seed.js';
import { checkEnvironmentManifest, ManifestError } from './services/environment.js';
import { RouteDeclarationError } from './plugins/route-access.js';

const EXPECTED_ERRORS = [DatabaseInUseError, MigrationError, ManifestError, RouteDeclarationError];

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function loadOrExit(): Settings {
  try {
    return loadSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(['Configuration error:', ...error.problems.map((p) => `  - ${p}`)].join('\n'));
  }
}

function shownHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
}

function printDemoAccounts(accounts: readonly DemoAccount[]): void {
  if (accounts.length === 0) return;
  const width = Math.max(...accounts.map((a) => a.username.length));
  const lines = accounts.map((a) => `  ${a.username.padEnd(width)}  ${a.role}${a.state === 'active' ? '' : ` (${a.state})`}`);
  process.stdout.write(
    ['Demo accounts created:', ...lines, 'Signing in arrives in a later issue; until then these accounts are data only.', ''].join('\n'),
  );
}

async function start(settings: Settings): Promise<void> {
  const { server } = settings;
  for (const warning of settings.warnings) process.stderr.write(`Warning: ${warning}\n`);

  let db: Database | undefined;
  let app: App | undefined;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app?.log.info({ signal }, 'shutting down');
    try {
      await app?.close();
      await db?.close();
    } catch (error) {
      process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', (signal) => void stop(signal));
  process.once('SIGTERM', (signal) => void stop(signal));

  try {
    // Cheap checks first: a broken manifest should not cost a database start.
    await checkEnvironmentManifest(server.environmentManifest, server.devRemotes);
    db = await openDatabase(server, (error) => app?.log.error({ err: error }, 'idle database connection failed'));
    const applied = await migrate(db);
    const demo = server.seedDemo ? await seedDemoData(db) : [];
    app = buildApp({ db, portal: settings.portal, server, logger: { level: server.logLevel } });
    if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied');
    await app.listen({ port: server.port, host: server.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : server.port;
    const database = db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${server.dataDir}`;
    process.stdout.write(`Portal running at http://${shownHost(server.host)}:${port} (database: ${database})\n`);
    printDemoAccounts(demo);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    const expected = EXPECTED_ERRORS.some((type) => error instanceof type);
    const code = (error as NodeJS.ErrnoException).code;
    if (expected) fail(`Cannot start the portal: ${(error as Error).message}`);
    if (code === 'EADDRINUSE') fail(`Cannot start the portal: port ${server.port} on ${server.host} is in use. Set PORT to a free port.`);
    if (code === 'EACCES') fail(`Cannot start the portal: no permission to listen on port ${server.port}.`);
    fail(`Cannot start the portal: ${(error as Error).message}`);
  }
}

await start(loadOrExit());
