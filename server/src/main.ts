/**
 * Starts the portal server: settings → database → migrations → demo data → HTTP → command
 * socket → mail worker. Expected failures (bad configuration, a database in use, a broken
 * manifest …) end the process with a one-line reason and exit code 1; SIGINT/SIGTERM close
 * everything (the mail worker too: no timer is left) and exit 0.
 */
// First, so that V8's settings hold for everything the server runs.
import './v8-flags.js';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { EnvironmentManifest } from '@portal/shared/contract';
import { REPO_DIR } from './paths.js';
import { shownHost } from './listen-address.js';
import { importInitialPins, publishWorkspaceBuilds } from './services/federation.js';
import { remoteStoreDir } from './services/remote-store.js';
import { buildApp, type App, type AppTls } from './app.js';
import { startControlServer, type ControlServer } from './control.js';
import { ConfigError, loadSettings, type Settings, type ServerSettings } from './config.js';
import type { Database } from './db/database.js';
import { DatabaseInUseError } from './db/lock.js';
import { migrate, MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { createProvisioningEngine, type ProvisioningEngine } from './services/provisioning/engine.js';
import { ProvisioningSetupError, provisioningTargets } from './services/provisioning/setup.js';
import { demoSignInText, readDemoAccountsFile, seedDemoData, writeDemoAccountsFile } from './seed.js';
import { checkEnvironmentManifest, ManifestError } from './services/environment.js';
import { RouteDeclarationError } from './plugins/route-access.js';
import { contactAddress } from '@portal/api';
import { createMailWorker, smtpTransport, type MailWorker } from './services/mail-worker.js';
import { createArtifactoryIssuer } from './services/tokens/artifactory.js';
import { embeddedIssuer, type TokenIssuer } from './services/tokens/issuer.js';
import { createTokenMaintenance, type TokenMaintenance } from './services/tokens/maintenance.js';
import { startListSmtpServer, type ListSmtpServer } from './services/list-smtp.js';
import { runListDigests } from './services/list-digests.js';
import { startPeriodic, type Periodic } from './services/periodic.js';
import { purgeExpiredRows } from './services/retention.js';
import { listEngineOf } from './services/lists/configured.js';

/** How often the daily digests are looked for. */
const DIGEST_CHECK_MS = 5 * 60_000;


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

class TlsFileError extends Error {}

function readTlsFile(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new TlsFileError(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
}

/** HTTPS from PORTAL_TLS_CERT / PORTAL_TLS_KEY (and PORTAL_TLS_CLIENT_CA for smart cards), if set. */
function tlsOf(server: Settings['server']): AppTls | undefined {
  if (server.tlsCert === undefined || server.tlsKey === undefined) return undefined;
  return {
    cert: readTlsFile('PORTAL_TLS_CERT', server.tlsCert),
    key: readTlsFile('PORTAL_TLS_KEY', server.tlsKey),
    ...(server.tlsClientCa === undefined ? {} : { clientCa: readTlsFile('PORTAL_TLS_CLIENT_CA', server.tlsClientCa) }),
  };
}

/** PORTAL_TOKEN_ISSUER: the portal itself, or JFrog Artifactory (server/docs/tokens.md). */
function tokenIssuerOf(server: ServerSettings): TokenIssuer {
  if (server.tokenIssuer === 'embedded') return embeddedIssuer;
  // The configuration's rule has made sure both are set.
  return createArtifactoryIssuer({ url: server.artifactoryUrl ?? '', adminToken: server.artifactoryAdminToken ?? '' });
}

const EXPECTED_ERRORS = [DatabaseInUseError, MigrationError, ManifestError, RouteDeclarationError, TlsFileError, ProvisioningSetupError];

/**
 * The remote store and the pins before the first request: with the local store (no
 * PORTAL_REMOTES_DIR) the workspace's builds are published; then the environment file's initial
 * pins are imported for remotes not pinned yet. What cannot be pinned is logged and left out
 * (its pages say that part is unavailable), so the rest of the portal starts.
 */
async function prepareRemotes(app: App, db: Database, server: ServerSettings, manifest: EnvironmentManifest): Promise<void> {
  const context = { db, storeDir: remoteStoreDir(server) };
  if (server.remotesDir === undefined) {
    const { published, skipped } = await publishWorkspaceBuilds(context, REPO_DIR);
    const changed = published.filter((p) => p.outcome !== 'unchanged').map((p) => `${p.name} ${p.version} (${p.outcome})`);
    if (changed.length > 0) app.log.info({ store: context.storeDir, remotes: changed }, 'workspace builds published into the local remote store');
    for (const problem of skipped) app.log.warn(`a workspace build was not published: ${problem}`);
  }
  const source = `initial pins (${relative(REPO_DIR, server.environmentManifest) || server.environmentManifest})`;
  const { pinned, skipped } = await importInitialPins(context, manifest, source);
  if (pinned.length > 0) app.log.info({ environment: manifest.environment, remotes: pinned }, 'initial pins imported from the environment file');
  for (const { name, reason } of skipped) app.log.error({ environment: manifest.environment, remote: name }, `initial pin of ${name} not made: ${reason}`);
}

/** How long a stop waits for the requests in flight before it cuts their connections. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long a stop may take in all before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 30_000;

async function start(settings: Settings): Promise<void> {
  const { server } = settings;
  for (const warning of settings.warnings) process.stderr.write(`Warning: ${warning}\n`);

  let db: Database | undefined;
  let app: App | undefined;
  let control: ControlServer | undefined;
  let mailWorker: MailWorker | undefined;
  let tokenMaintenance: TokenMaintenance | undefined;
  let listSmtp: ListSmtpServer | undefined;
  let digests: Periodic | undefined;
  let purge: Periodic | undefined;
  let provisioning: ProvisioningEngine | undefined;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app?.log.info({ signal }, 'shutting down');
    // Closing the HTTP server waits for every connection: one whose request never ends (a client
    // that stopped sending halfway, a browser's spare TLS connection) would hold the process for
    // as long as Node's own timeouts, a minute or more. SHUTDOWN_GRACE_MS after the HTTP server
    // starts closing, the connections still open are cut; if the stop still has not finished
    // SHUTDOWN_LIMIT_MS after the signal, the process exits, saying what it was waiting for.
    let closing = 'the command socket';
    const giveUp = setTimeout(() => {
      process.stderr.write(`Shutdown did not finish within ${SHUTDOWN_LIMIT_MS / 1000} s (still closing ${closing}); exiting.\n`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    giveUp.unref();
    const closeHttp = async (running: App): Promise<void> => {
      const cut = setTimeout(() => {
        process.stderr.write(`Shutdown: requests still open after ${SHUTDOWN_GRACE_MS / 1000} s; closing their connections.\n`);
        running.server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      cut.unref();
      await running.close();
      clearTimeout(cut);
    };
    const steps: [string, () => Promise<unknown> | undefined][] = [
      ['the command socket', () => control?.close()],
      ['the mail worker', () => mailWorker?.stop()],
      ['the token maintenance', () => tokenMaintenance?.stop()],
      ["the mailing lists' SMTP listener", () => listSmtp?.close()],
      ['the digests', () => digests?.stop()],
      ['the provisioning', () => provisioning?.stop()],
      ['the purge of expired rows', () => purge?.stop()],
      ['the HTTP server', () => (app ? closeHttp(app) : undefined)],
      ['the database', () => db?.close()],
    ];
    try {
      for (const [name, close] of steps) {
        closing = name;
        await close();
      }
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
    const manifest = await checkEnvironmentManifest(server.environmentManifest, server.devRemotes);
    const tls = tlsOf(server);
    db = await openDatabase(server, (error) => app?.log.error({ err: error }, 'idle database connection failed'));
    const openDb = db;
    const applied = await migrate(db);
    const listEngine = listEngineOf(server);
    // Before any decision: from now on each one is recorded for every configured target.
    const targets = provisioningTargets(server, listEngine);
    const engine = createProvisioningEngine({
      db,
      targets,
      reconcileIntervalMs: server.provisioningReconcileMinutes * 60_000,
      log: { info: (o, m) => app?.log.info(o, m), warn: (o, m) => app?.log.warn(o, m), error: (o, m) => app?.log.error(o, m) },
    });
    await engine.register();
    if (server.seedDemo) {
      const created = await seedDemoData(db, { emailDomain: settings.portal.email_domain });
      // Demo mode only: the tokens are kept so that every start can tell how to sign in.
      if (created.length > 0) writeDemoAccountsFile(server.dataDir, created);
    }
    const tokenIssuer = tokenIssuerOf(server);
    app = buildApp({ db, portal: settings.portal, server, logger: { level: server.logLevel }, tokenIssuer, listEngine, provisioning: engine, ...(tls ? { tls } : {}) });
    if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied');
    await prepareRemotes(app, openDb, server, manifest);
    await app.listen({ port: server.port, host: server.host });
    const log = app.log;
    // The command line reaches a running portal on the embedded database through this socket.
    if (db.kind === 'pglite') {
      control = await startControlServer(
        server.dataDir,
        openDb,
        (error) => log.error({ err: error }, 'command from the command line failed'),
        remoteStoreDir(server),
        engine,
      );
    }
    // Mail: delivered over SMTP when SMTP_URL is set, else kept in the outbox (`portal mail list`).
    if (server.smtpUrl !== undefined) {
      mailWorker = createMailWorker({
        db: openDb,
        transport: smtpTransport(server.smtpUrl),
        from: server.mailFrom ?? contactAddress(settings.portal),
        pollMs: server.mailPollMs,
        onError: (error) => log.error({ err: error }, 'mail delivery: cannot read the outbox'),
        onDeliveryFailed: (failure) => log.warn({ mail: failure.id, attempts: failure.attempts, nextAttemptAt: failure.nextAttemptAt, error: failure.error }, 'mail delivery failed; it will be retried'),
      });
      mailWorker.start();
    } else {
      log.info('SMTP_URL is not set: mail stays in the outbox (read it with `portal mail list --to ADDRESS`)');
    }
    // Tokens: the 7-day expiry mail and revocations the issuer has not confirmed yet.
    tokenMaintenance = createTokenMaintenance({
      db: openDb,
      issuer: tokenIssuer,
      intervalMs: server.tokenMaintenanceMs,
      onError: (error) => log.error({ err: error }, 'token maintenance failed; it runs again at the next interval'),
    });
    tokenMaintenance.start();
    if (listEngine.portalDelivers) {
      // Mailing lists: posts arrive over SMTP (the embedded list engine).
      listSmtp = await startListSmtpServer({
        db: openDb,
        host: server.listSmtpHost,
        port: server.listSmtpPort,
        maxMessageBytes: server.listMaxMessageBytes,
        onError: (error) => log.error({ err: error }, 'mailing list SMTP listener: a post could not be received'),
        onPost: (event) => log.info(event, 'mailing list post received'),
      });
      // The daily digests: looked for every few minutes, each list's sent at most once a day.
      digests = startPeriodic({
        intervalMs: DIGEST_CHECK_MS,
        run: () => runListDigests(openDb, new Date()),
        onError: (error) => log.error({ err: error }, 'mailing list digests failed; they are tried again later'),
      });
    }
    // Provisioning: every target (the directory, SCIM services, Mailman's rosters when Mailman runs
    // the lists) follows every decision; reconciled now and on a schedule.
    provisioning = engine;
    engine.start();
    // Expired sessions, used challenges, old failed sign-in counts, codes and sent mail (services/retention.ts).
    purge = startPeriodic({
      intervalMs: server.purgeIntervalMs,
      run: async () => {
        const deleted = await purgeExpiredRows(openDb, server, new Date());
        if (Object.values(deleted).some((n) => n > 0)) log.debug(deleted, 'expired rows purged');
      },
      onError: (error) => log.error({ err: error }, 'purging expired rows failed; it runs again at the next interval'),
    });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : server.port;
    const database = db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${server.dataDir}`;
    const url = `${tls ? 'https' : 'http'}://${shownHost(server.host)}:${port}`;
    // One write, so that whoever reads the banner (a person, a supervisor, a test) gets it whole.
    process.stdout.write(
      [
        `Portal running at ${url} (database: ${database})\n`,
        listSmtp
          ? `Mailing lists receive posts at smtp://${shownHost(server.listSmtpHost)}:${listSmtp.port}\n`
          : `Mailing lists are run by Mailman at ${server.mailmanUrl ?? ''}\n`,
        server.seedDemo ? demoSignInText(readDemoAccountsFile(server.dataDir), `${url}/login`) : '',
      ].join(''),
    );
  } catch (error) {
    await control?.close().catch(() => undefined);
    await mailWorker?.stop().catch(() => undefined);
    await tokenMaintenance?.stop().catch(() => undefined);
    await listSmtp?.close().catch(() => undefined);
    await digests?.stop().catch(() => undefined);
    await purge?.stop().catch(() => undefined);
    await provisioning?.stop().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    const expected = EXPECTED_ERRORS.some((type) => error instanceof type);
    const code = (error as NodeJS.ErrnoException).code;
    if (expected) fail(`Cannot start the portal: ${(error as Error).message}`);
    if (code === 'EADDRINUSE' && listSmtp === undefined && app?.server.listening) {
      fail(`Cannot start the portal: port ${server.listSmtpPort} on ${server.listSmtpHost} (the mailing lists' SMTP listener) is in use. Set PORTAL_LIST_SMTP_PORT to a free port.`);
    }
    if (code === 'EADDRINUSE') fail(`Cannot start the portal: port ${server.port} on ${server.host} is in use. Set PORT to a free port.`);
    if (code === 'EACCES') fail(`Cannot start the portal: no permission to listen on port ${server.port}.`);
    fail(`Cannot start the portal: ${(error as Error).message}`);
  }
}

await start(loadOrExit());
