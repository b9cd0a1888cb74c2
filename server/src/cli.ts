/**
 * The portal's command line (`node server/dist/cli.mjs <command>`; `npm run portal -- <command>`).
 *
 *   create-admin --username U --email E [--json]
 *       creates a site administrator and prints its website token, once.
 *   mail list --to ADDRESS [--json]
 *       prints the mails sent (or queued) to an address, newest first.
 *   service-credentials create|rotate|delete NAME, service-credentials list [--json]
 *       the credentials platform services introspect tokens with (server/docs/tokens.md).
 *   oidc-clients add|list|remove|rotate-secret
 *       the relying parties of the OpenID provider (server/docs/service-sign-in.md).
 *   oidc-keys rotate|list
 *       the keys the OpenID provider signs with (server/docs/service-sign-in.md).
 *   backup FILE [--force], restore FILE [--force]
 *       the embedded database to a file and back (services/backup.ts); on PostgreSQL they print
 *       the pg_dump / pg_restore commands to run instead.
 *
 * Works whether or not the portal runs: with DATABASE_URL it connects to PostgreSQL itself; on
 * the embedded database it opens the data folder itself, unless a running portal holds the
 * folder's lock, in which case the command goes through that portal's local socket
 * (<dataDir>/portal.sock) rather than opening the database a second time.
 */
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadServerSettings, type ServerSettings } from './config.js';
import type { Database } from './db/database.js';
import { DatabaseInUseError } from './db/lock.js';
import { migrate, MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { sendControlRequest, type ControlRequest, type ControlResults } from './control.js';
import { DomainError } from './errors.js';
import { adminInputProblems, createSiteAdmin } from './services/admin.js';
import { listMail, type ListedMail } from './services/mail.js';
import { BackupError, hasEmbeddedDatabase, postgresBackupAdvice, restoreBackup, writeBackup } from './services/backup.js';
import { openPglite } from './db/pglite.js';
import { BuildError, remoteStoreDir } from './services/remote-store.js';
import { runRemotesCommand, type RemotesCommand } from './services/remotes-command.js';
import { listEngineOf } from './services/lists/configured.js';
import { ProvisioningCommandError, reconcileForCommand } from './services/provisioning/command.js';
import { createProvisioningEngine } from './services/provisioning/engine.js';
import { ProvisioningSetupError, provisioningTargets } from './services/provisioning/setup.js';
import { overviewText, provisioningOverview } from './services/provisioning/status.js';
import { runServiceCredentialCommand, ServiceCredentialError, type ServiceCredentialAction } from './services/tokens/service-credentials.js';
import { runOidcClientCommand, type ListedOidcClient, type OidcClientCommand } from './services/service-sign-in/oidc/clients.js';
import { ACTIVATION_SECONDS, KEY_CHECK_SECONDS, PUBLISHED_GENERATIONS, runOidcKeyCommand, type ListedOidcKey, type OidcKeyCommand } from './services/service-sign-in/oidc/keys.js';

const USAGE = [
  'Usage: portal <command> [options]',
  '',
  'Commands:',
  '  create-admin --username U --email E [--json]',
  '      Create a site administrator and print its website token (shown once).',
  '      --json prints one line: {"username":"U","token":"…"}',
  '  mail list --to ADDRESS [--json]',
  '      Print the mails sent (or queued) to an address, newest first.',
  '      --json prints one JSON object a line: {"to","subject","text","created_at","sent_at"}',
  '  service-credentials create NAME [--json]',
  '      Create the credential a platform service introspects tokens with; print its secret (shown once).',
  '  service-credentials rotate NAME [--json]',
  '      Give it a new secret (the old one stops working at once); print it (shown once).',
  '  service-credentials delete NAME',
  '      Remove it: the service can no longer introspect tokens.',
  '  service-credentials list [--json]',
  '      Print the credentials: name, created, last rotated (never a secret).',
  '  oidc-clients add NAME --redirect-uri URI [--redirect-uri URI …] [--service SERVICE] [--consent]',
  '                       [--post-logout-redirect-uri URI …] [--backchannel-logout-uri URI] [--json]',
  "      Register a relying party of the OpenID provider; print its client id and secret (shown once).",
  '      --service: only accounts holding that service may sign in to it; --consent: the user is asked',
  '      once before their first sign-in; --post-logout-redirect-uri: where its sign-out (RP-initiated',
  '      logout) may send the browser back to (exactly); --backchannel-logout-uri: where it is told of',
  '      a sign-out on the portal by a logout token. --json prints {"client_id":"…","client_secret":"…"}',
  '  oidc-clients list [--json]',
  '      Print the clients: name, client id, redirect URIs, service (never a secret).',
  '  oidc-clients rotate-secret NAME [--json]',
  '      Give it a new secret (the old one stops working at once); print it (shown once).',
  '  oidc-clients remove NAME',
  '      Remove it, and every sign-in and token the provider keeps for it.',
  '  oidc-keys rotate [--json]',
  '      Make a new key for the OpenID provider to sign ID tokens with: published at once (by running',
  `      servers within ${KEY_CHECK_SECONDS} seconds), it signs from ${ACTIVATION_SECONDS} seconds after. The previous keys stay published`,
  `      (the newest ${PUBLISHED_GENERATIONS} are kept), so tokens already issued still verify. Rotate at most twice an hour.`,
  '  oidc-keys list [--json]',
  '      Print the keys published: generation, key id (kid), created, which one signs (never a key).',
  '  backup FILE [--force]',
  '      Write the embedded database to FILE (mode 0600), whether or not the portal runs.',
  '      --force replaces an existing FILE. On PostgreSQL: prints the pg_dump command to run.',
  '  restore FILE [--force]',
  '      Put a backup into the data folder while the portal is stopped; --force replaces what',
  '      the folder holds. On PostgreSQL: prints the pg_restore command to run.',
  '  remotes publish BUILD [--by NAME]',
  '      Publish a remote\'s build (its folder dist/VERSION, or a .tar/.tar.gz/.tgz of it) into the',
  '      remote store (PORTAL_REMOTES_DIR). The same content again changes nothing; other content',
  '      under a published version is refused.',
  '  remotes pin ENVIRONMENT REMOTE@VERSION [--reason TEXT] [--by NAME]',
  '      Run a published version in an environment from the next page load. Refused, with the',
  '      reason, when it is not published, its files differ from what was published, the host\'s',
  '      contract does not satisfy it, or it claims another remote\'s path.',
  '  remotes rollback ENVIRONMENT REMOTE [--reason TEXT] [--by NAME]',
  '      Pin the version that ran before the current pin (with the same checks).',
  '  remotes status [ENVIRONMENT]',
  '      What each remote runs, since when, pinned by whom, and what a rollback would pin.',
  '  remotes history ENVIRONMENT [REMOTE] [--csv]',
  '      Every pin change, newest first (who, when, from, to, why); --csv: oldest first, as CSV.',
  '  provision status [--json]',
  '      Each provisioning target (the LDAP directory): its backlog, the oldest pending change,',
  '      the last reconcile and what it repaired, and the failures with their reasons.',
  '  provision reconcile [--dry-run] [--json]',
  "      Compare each target with the portal's truth and repair the differences now (--dry-run:",
  '      only say what differs).',
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

interface MailListOptions {
  to: string;
  json: boolean;
}

function parseMailList(args: string[]): MailListOptions {
  const [sub, ...rest] = args;
  if (sub !== 'list') throw new UsageError(sub === undefined ? 'mail needs a subcommand: list.' : `Unknown mail subcommand '${sub}'.`);
  let values: { to?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { to: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const to = (values.to ?? '').trim();
  if (to === '') throw new UsageError('mail list needs --to ADDRESS.');
  return { to, json: values.json === true };
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
async function throughRunningPortal<R extends ControlRequest>(settings: ServerSettings, request: R, timeoutMs?: number): Promise<ControlResults[R['command']]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await sendControlRequest(settings.dataDir, request, timeoutMs);
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

/**
 * Runs a command on the database: its own connection with DATABASE_URL or when the embedded
 * database is free, else through the running portal that holds it (which runs `request` the
 * same way, see control.ts).
 */
async function runCommand<R extends ControlRequest>(
  settings: ServerSettings,
  local: (db: Database) => Promise<ControlResults[R['command']]>,
  request: R,
): Promise<ControlResults[R['command']]> {
  if (settings.databaseUrl !== undefined) return withOwnDatabase(settings, local);
  try {
    return await withOwnDatabase(settings, local);
  } catch (error) {
    if (error instanceof DatabaseInUseError) return throughRunningPortal(settings, request);
    throw error;
  }
}

async function createAdmin(settings: ServerSettings, options: CreateAdminOptions): Promise<void> {
  const { username, email } = options;
  const admin = await runCommand(settings, (db) => createSiteAdmin(db, { username, email }), { command: 'create-admin', username, email });
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
}

function mailLines(mail: ListedMail): string[] {
  return [
    `${mail.created_at}  ${mail.sent_at === null ? 'queued' : `sent ${mail.sent_at}`}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    '',
    ...mail.text.split(/\r?\n/).map((line) => `  ${line}`),
    '',
  ];
}

async function mailList(settings: ServerSettings, options: MailListOptions): Promise<void> {
  const mails = await runCommand(settings, (db) => listMail(db, options.to), { command: 'mail-list', to: options.to });
  if (options.json) {
    for (const mail of mails) {
      const line = { to: mail.to, subject: mail.subject, text: mail.text, created_at: mail.created_at, sent_at: mail.sent_at };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  } else if (mails.length === 0) {
    process.stdout.write(`No mail to ${options.to}.\n`);
  } else {
    process.stdout.write(mails.flatMap(mailLines).join('\n') + '\n');
  }
}

interface ServiceCredentialOptions {
  action: ServiceCredentialAction;
  name: string | undefined;
  json: boolean;
}

function parseServiceCredentials(args: string[]): ServiceCredentialOptions {
  const [action, ...rest] = args;
  if (action !== 'create' && action !== 'rotate' && action !== 'delete' && action !== 'list') {
    throw new UsageError(action === undefined ? 'service-credentials needs create, rotate, delete or list.' : `Unknown service-credentials action '${action}'.`);
  }
  let parsed: { values: { json?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [name, ...extra] = parsed.positionals;
  if (action !== 'list' && name === undefined) throw new UsageError(`service-credentials ${action} needs a service name.`);
  if (extra.length > 0 || (action === 'list' && name !== undefined)) throw new UsageError(`service-credentials ${action}: unexpected '${[name, ...extra].filter(Boolean).join(' ')}'.`);
  return { action, name, json: parsed.values.json === true };
}

async function serviceCredentials(settings: ServerSettings, options: ServiceCredentialOptions): Promise<void> {
  const { action, name } = options;
  const result = await runCommand(settings, (db) => runServiceCredentialCommand(db, action, name, new Date()), {
    command: 'service-credentials',
    action,
    ...(name === undefined ? {} : { name }),
  });
  if (options.json) {
    if (result.credentials) for (const c of result.credentials) process.stdout.write(`${JSON.stringify(c)}\n`);
    else process.stdout.write(`${JSON.stringify({ name, ...(result.secret ? { secret: result.secret } : {}) })}\n`);
    return;
  }
  if (action === 'list') {
    const rows = result.credentials ?? [];
    process.stdout.write(
      rows.length === 0
        ? 'No service credentials.\n'
        : rows.map((c) => `${c.name}  created ${c.created_at}${c.rotated_at ? `  rotated ${c.rotated_at}` : ''}`).join('\n') + '\n',
    );
  } else if (action === 'delete') {
    process.stdout.write(`Credential '${name}' deleted.\n`);
  } else {
    process.stdout.write(
      [
        `Credential '${name}' ${action === 'create' ? 'created' : 'rotated'}.`,
        `Secret (shown only now; store it in the service's configuration): ${result.secret}`,
        `The service authenticates to POST /oauth2/introspect with HTTP Basic: ${name} and this secret.`,
        '',
      ].join('\n'),
    );
  }
}

interface OidcClientOptions {
  command: OidcClientCommand;
  json: boolean;
}

function parseOidcClients(args: string[]): OidcClientOptions {
  const [action, ...rest] = args;
  if (action !== 'add' && action !== 'list' && action !== 'remove' && action !== 'rotate-secret') {
    throw new UsageError(action === undefined ? 'oidc-clients needs add, list, remove or rotate-secret.' : `Unknown oidc-clients action '${action}'.`);
  }
  let parsed: {
    values: { json?: boolean; 'redirect-uri'?: string[]; 'post-logout-redirect-uri'?: string[]; 'backchannel-logout-uri'?: string; service?: string; consent?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: rest,
      options:
        action === 'add'
          ? {
              json: { type: 'boolean' },
              'redirect-uri': { type: 'string', multiple: true },
              'post-logout-redirect-uri': { type: 'string', multiple: true },
              'backchannel-logout-uri': { type: 'string' },
              service: { type: 'string' },
              consent: { type: 'boolean' },
            }
          : { json: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  if (action === 'list') {
    if (positionals.length > 0) throw new UsageError(`oidc-clients list: unexpected '${positionals.join(' ')}'.`);
    return { command: { action }, json };
  }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError(`oidc-clients ${action} needs a client name.`);
  if (extra.length > 0) throw new UsageError(`oidc-clients ${action}: unexpected '${extra.join(' ')}'.`);
  if (action !== 'add') return { command: { action, name }, json };
  const redirectUris = values['redirect-uri'] ?? [];
  if (redirectUris.length === 0) throw new UsageError('oidc-clients add needs --redirect-uri URI.');
  return {
    command: {
      action,
      name,
      redirectUris,
      consent: values.consent === true,
      ...(values['post-logout-redirect-uri'] === undefined ? {} : { postLogoutRedirectUris: values['post-logout-redirect-uri'] }),
      ...(values['backchannel-logout-uri'] === undefined ? {} : { backchannelLogoutUri: values['backchannel-logout-uri'] }),
      ...(values.service === undefined ? {} : { service: values.service }),
    },
    json,
  };
}

async function oidcClients(settings: ServerSettings, options: OidcClientOptions): Promise<void> {
  const { command } = options;
  const result = await runCommand(settings, (db) => runOidcClientCommand(db, command, new Date()), { command: 'oidc-clients', oidcClients: command });
  if (command.action === 'list') {
    const clients = result.clients ?? [];
    if (options.json) for (const c of clients) process.stdout.write(`${JSON.stringify(c)}\n`);
    else if (clients.length === 0) process.stdout.write('No OpenID Connect clients.\n');
    else {
      const line = (c: ListedOidcClient) =>
        `${c.name}  client id ${c.client_id}  ${c.redirect_uris.join(' ')}${c.service ? `  service ${c.service}` : ''}${c.consent ? '  asks consent' : ''}` +
        `${c.post_logout_redirect_uris.length > 0 ? `  after sign-out ${c.post_logout_redirect_uris.join(' ')}` : ''}${c.backchannel_logout_uri ? `  back-channel logout ${c.backchannel_logout_uri}` : ''}`;
      process.stdout.write(`${clients.map(line).join('\n')}\n`);
    }
    return;
  }
  if (command.action === 'remove') {
    process.stdout.write(`Client '${command.name}' removed.\n`);
    return;
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ client_id: result.client_id, client_secret: result.client_secret })}\n`);
    return;
  }
  process.stdout.write(
    [
      `Client '${command.name}' ${command.action === 'add' ? 'added' : 'given a new secret'}.`,
      `Client id: ${result.client_id ?? ''}`,
      `Client secret (shown only now; store it in the service's configuration): ${result.client_secret ?? ''}`,
      '',
    ].join('\n'),
  );
}

interface OidcKeyOptions {
  command: OidcKeyCommand;
  json: boolean;
}

function parseOidcKeys(args: string[]): OidcKeyOptions {
  const [action, ...rest] = args;
  if (action !== 'rotate' && action !== 'list') {
    throw new UsageError(action === undefined ? 'oidc-keys needs rotate or list.' : `Unknown oidc-keys action '${action}'.`);
  }
  let parsed: { values: { json?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length > 0) throw new UsageError(`oidc-keys ${action}: unexpected '${parsed.positionals.join(' ')}'.`);
  return { command: { action }, json: parsed.values.json === true };
}

async function oidcKeys(settings: ServerSettings, options: OidcKeyOptions): Promise<void> {
  const { command } = options;
  const result = await runCommand(settings, (db) => runOidcKeyCommand(db, command, new Date()), { command: 'oidc-keys', oidcKeys: command });
  const line = (k: ListedOidcKey) =>
    `generation ${k.generation}  kid ${k.kid}  created ${k.created_at}${k.signing ? '  signs' : k.signs_from > new Date().toISOString() ? `  signs from ${k.signs_from}` : ''}`;
  if (command.action === 'list') {
    if (options.json) for (const k of result.keys) process.stdout.write(`${JSON.stringify(k)}\n`);
    else if (result.keys.length === 0) process.stdout.write('No signing keys yet: the first server to answer an OpenID Connect request makes one.\n');
    else process.stdout.write(`${result.keys.map(line).join('\n')}\n`);
    return;
  }
  const [added] = result.keys;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...added, published: result.keys.map((k) => k.generation), dropped: result.dropped ?? [] })}\n`);
    return;
  }
  const dropped = result.dropped ?? [];
  process.stdout.write(
    [
      `Signing key rotated: generation ${added?.generation ?? ''} (kid ${added?.kid ?? ''}) signs ID tokens from ${added?.signs_from ?? ''}.`,
      `Running servers publish it within ${KEY_CHECK_SECONDS} seconds, before it signs anything.`,
      `Published: generations ${result.keys.map((k) => k.generation).join(', ')} (the newest ${PUBLISHED_GENERATIONS} are kept): tokens signed before still verify.`,
      ...(dropped.length > 0 ? [`No longer published: generation ${dropped.join(', ')} (tokens it signed no longer verify).`] : []),
      '',
    ].join('\n'),
  );
}

interface BackupOptions {
  file: string;
  force: boolean;
}

function parseBackup(command: 'backup' | 'restore', args: string[]): BackupOptions {
  let parsed: { values: { force?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { force: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || file.trim() === '') throw new UsageError(`${command} needs a file.`);
  if (extra.length > 0) throw new UsageError(`${command}: unexpected '${extra.join(' ')}'.`);
  return { file, force: parsed.values.force === true };
}

const BACKUP_TIMEOUT_MS = 30 * 60_000;

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

async function backup(settings: ServerSettings, options: BackupOptions): Promise<void> {
  if (settings.databaseUrl !== undefined) throw new CommandError(postgresBackupAdvice('backup', options.file).trimEnd());
  if (!hasEmbeddedDatabase(settings.dataDir)) throw new CommandError(`There is no embedded database in ${settings.dataDir}.`);
  const file = resolve(options.file);
  let result;
  try {
    // Opened without migrating: a backup changes nothing.
    const db = await openPglite({ dataDir: settings.dataDir });
    try {
      result = await writeBackup(db, file, { force: options.force });
    } finally {
      await db.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    // A large database takes a while to dump: more than the other commands' 30 seconds.
    result = await throughRunningPortal(settings, { command: 'backup', file, force: options.force }, BACKUP_TIMEOUT_MS);
  }
  process.stdout.write(`Backup of ${settings.dataDir} written to ${result.file} (${megabytes(result.bytes)}).\n`);
}

async function restore(settings: ServerSettings, options: BackupOptions): Promise<void> {
  if (settings.databaseUrl !== undefined) throw new CommandError(postgresBackupAdvice('restore', options.file).trimEnd());
  let result;
  try {
    result = await restoreBackup(options.file, settings.dataDir, { force: options.force });
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new CommandError(`${error.message.replace(/ Stop that process first, or set DATABASE_URL\.$/, '')} Stop the portal first.`);
    throw error;
  }
  process.stdout.write(
    `Restored ${resolve(options.file)} into ${result.dataDir}${result.replaced ? ' (its previous contents replaced)' : ''}. Pending migrations run when the portal starts.\n`,
  );
}

/** Who the history names for a change from the command line: --by, else the user running it. */
function commandLineUser(by: string | undefined): string {
  if (by !== undefined && by.trim() !== '') return by.trim();
  let user = process.env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container): the environment's USER
  }
  return `${user} (command line)`;
}

function parseRemotes(args: string[]): RemotesCommand {
  const [action, ...rest] = args;
  let parsed: { values: { by?: string; reason?: string; csv?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { by: { type: 'string' }, reason: { type: 'string' }, csv: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const by = commandLineUser(values.by);
  const reason = values.reason ?? '';
  const needs = (count: number, what: string) => {
    if (positionals.length !== count) throw new UsageError(`remotes ${action} needs ${what}.`);
  };
  switch (action) {
    case 'publish':
      needs(1, 'the build: a folder dist/VERSION or a tar archive of it');
      return { action, source: resolve(positionals[0] as string), by };
    case 'pin': {
      needs(2, 'an environment and REMOTE@VERSION');
      const [environment, target] = positionals as [string, string];
      const at = target.lastIndexOf('@');
      if (at <= 0 || at === target.length - 1) throw new UsageError(`remotes pin: '${target}' is not REMOTE@VERSION (for example groups@0.2.0).`);
      return { action, environment, name: target.slice(0, at), version: target.slice(at + 1), by, reason };
    }
    case 'rollback': {
      needs(2, 'an environment and a remote');
      const [environment, name] = positionals as [string, string];
      return { action, environment, name, by, reason };
    }
    case 'status':
      if (positionals.length > 1) throw new UsageError('remotes status takes at most one environment.');
      return positionals[0] === undefined ? { action } : { action, environment: positionals[0] };
    case 'history': {
      if (positionals.length < 1 || positionals.length > 2) throw new UsageError('remotes history needs an environment (and optionally a remote).');
      const [environment, name] = positionals as [string, string | undefined];
      return { action, environment, ...(name === undefined ? {} : { name }), csv: values.csv === true };
    }
    default:
      throw new UsageError(action === undefined ? 'remotes needs publish, pin, rollback, status or history.' : `Unknown remotes action '${action}'.`);
  }
}

async function remotes(settings: ServerSettings, command: RemotesCommand): Promise<void> {
  const storeDir = remoteStoreDir(settings);
  const result = await runCommand(settings, (db) => runRemotesCommand(db, storeDir, command), { command: 'remotes', remotes: command });
  process.stdout.write(result.text);
}

interface ProvisionOptions {
  action: 'status' | 'reconcile';
  dryRun: boolean;
  json: boolean;
}

function parseProvision(args: string[]): ProvisionOptions {
  const [action, ...rest] = args;
  if (action !== 'status' && action !== 'reconcile') {
    throw new UsageError(action === undefined ? 'provision needs status or reconcile.' : `Unknown provision action '${action}'.`);
  }
  let values: { 'dry-run'?: boolean; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: action === 'reconcile' ? { json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } : { json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { action, dryRun: values['dry-run'] === true, json: values.json === true };
}

async function provision(settings: ServerSettings, options: ProvisionOptions): Promise<void> {
  if (options.action === 'status') {
    const overview = await runCommand(settings, (db) => provisioningOverview(db), { command: 'provision-status' });
    process.stdout.write(options.json ? `${JSON.stringify(overview)}\n` : overviewText(overview));
    return;
  }
  const results = await runCommand(
    settings,
    async (db) => {
      // Run here, with targets of our own (the server's: registering others would drop its own); the
      // lease keeps a running server from reconciling at the same time.
      const engine = createProvisioningEngine({ db, targets: provisioningTargets(settings, listEngineOf(settings)), reconcileIntervalMs: 0, log: { info() {}, warn() {}, error() {} } });
      try {
        await engine.register();
        return await reconcileForCommand(engine, options.dryRun);
      } finally {
        await engine.stop();
      }
    },
    { command: 'provision-reconcile', dryRun: options.dryRun },
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  for (const r of results) {
    process.stdout.write(`${r.target}: ${r.summary}\n`);
    for (const line of r.drift) process.stdout.write(`  ${line}\n`);
    if (r.differences > r.drift.length) process.stdout.write(`  … and ${r.differences - r.drift.length} more\n`);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    if (command === undefined) process.exit(2);
    return;
  }
  const failure =
    command === 'mail'
      ? 'Cannot list the mail'
      : command === 'service-credentials'
        ? 'Cannot change the service credentials'
        : command === 'oidc-clients'
          ? args[0] === 'list'
            ? 'Cannot list the OpenID Connect clients'
            : 'Cannot change the OpenID Connect clients'
          : command === 'oidc-keys'
            ? args[0] === 'list'
              ? 'Cannot list the OpenID Connect signing keys'
              : 'Cannot rotate the OpenID Connect signing key'
          : command === 'backup'
          ? 'Cannot back up'
          : command === 'restore'
            ? 'Cannot restore'
            : command === 'remotes'
              ? `Cannot ${args[0] === 'status' || args[0] === 'history' ? 'read the pins' : (args[0] ?? 'change the remotes')}`
              : command === 'provision'
                ? `Cannot ${args[0] === 'reconcile' ? 'reconcile' : 'read the provisioning status'}`
                : 'Cannot create the administrator';
  try {
    if (command === 'create-admin') {
      const options = parseCreateAdmin(args);
      await createAdmin(loadServerSettings(), options);
    } else if (command === 'mail') {
      const options = parseMailList(args);
      await mailList(loadServerSettings(), options);
    } else if (command === 'service-credentials') {
      const options = parseServiceCredentials(args);
      await serviceCredentials(loadServerSettings(), options);
    } else if (command === 'oidc-clients') {
      const options = parseOidcClients(args);
      await oidcClients(loadServerSettings(), options);
    } else if (command === 'oidc-keys') {
      const options = parseOidcKeys(args);
      await oidcKeys(loadServerSettings(), options);
    } else if (command === 'backup' || command === 'restore') {
      const options = parseBackup(command, args);
      await (command === 'backup' ? backup : restore)(loadServerSettings(), options);
    } else if (command === 'remotes') {
      const options = parseRemotes(args);
      await remotes(loadServerSettings(), options);
    } else if (command === 'provision') {
      const options = parseProvision(args);
      await provision(loadServerSettings(), options);
    } else {
      throw new UsageError(`Unknown command '${command}'.`);
    }
  } catch (error) {
    if (error instanceof UsageError) exit(2, `${error.message}\n\n${USAGE}`);
    if (error instanceof ConfigError) exit(1, ['Configuration error:', ...error.problems.map((p) => `  - ${p}`)].join('\n'));
    if (error instanceof CommandError || error instanceof ProvisioningCommandError || error instanceof ProvisioningSetupError || error instanceof DomainError || error instanceof BuildError || error instanceof MigrationError || error instanceof ServiceCredentialError || error instanceof BackupError) {
      exit(1, `${failure}: ${error.message}`);
    }
    exit(1, `${failure}: ${(error as Error).message}`);
  }
}

await main(process.argv.slice(2));
