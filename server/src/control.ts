/**
 * The local-only command channel of a running portal on the embedded database. Two processes
 * on one PGlite folder corrupt it, so while the portal holds the folder, the command line sends
 * its command here instead of opening the database: a Unix socket <dataDir>/portal.sock (mode
 * 0600: its owner only), one JSON request and one JSON answer per connection, each a line.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Database } from './db/database.js';
import { DomainError } from './errors.js';
import { createSiteAdmin, type CreatedAdmin } from './services/admin.js';
import { listMail, type ListedMail } from './services/mail.js';
import { BackupError, writeBackup, type BackupResult } from './services/backup.js';
import { BuildError } from './services/remote-store.js';
import { parseRemotesCommand, runRemotesCommand, type RemotesCommand, type RemotesCommandResult } from './services/remotes-command.js';
import type { ProvisioningEngine } from './services/provisioning/engine.js';
import { ProvisioningCommandError, reconcileForCommand, type ReconcileResult } from './services/provisioning/command.js';
import { provisioningOverview, type ProvisioningOverview } from './services/provisioning/status.js';
import { runServiceCredentialCommand, ServiceCredentialError, type ServiceCredentialAction, type ServiceCredentialResult } from './services/tokens/service-credentials.js';
import { parseOidcClientCommand, runOidcClientCommand, type OidcClientCommand, type OidcClientResult } from './services/service-sign-in/oidc/clients.js';
import { parseOidcKeyCommand, runOidcKeyCommand, type OidcKeyCommand, type OidcKeyResult } from './services/service-sign-in/oidc/keys.js';

export const CONTROL_SOCKET_NAME = 'portal.sock';
const MAX_REQUEST_BYTES = 64 * 1024;

export function controlSocketPath(dataDir: string): string {
  return join(dataDir, CONTROL_SOCKET_NAME);
}

export type ControlRequest =
  | { command: 'create-admin'; username: string; email: string }
  | { command: 'mail-list'; to: string }
  | { command: 'service-credentials'; action: ServiceCredentialAction; name?: string }
  | { command: 'oidc-clients'; oidcClients: OidcClientCommand }
  | { command: 'oidc-keys'; oidcKeys: OidcKeyCommand }
  | { command: 'backup'; file: string; force: boolean }
  | { command: 'remotes'; remotes: RemotesCommand }
  | { command: 'provision-status' }
  | { command: 'provision-reconcile'; dryRun: boolean };

/** What each command answers. */
export interface ControlResults {
  'create-admin': CreatedAdmin;
  'mail-list': ListedMail[];
  'service-credentials': ServiceCredentialResult;
  'oidc-clients': OidcClientResult;
  'oidc-keys': OidcKeyResult;
  backup: BackupResult;
  remotes: RemotesCommandResult;
  'provision-status': ProvisioningOverview;
  'provision-reconcile': ReconcileResult[];
}

export type ControlResponse<C extends ControlRequest['command'] = ControlRequest['command']> =
  | { ok: true; result: ControlResults[C] }
  | { ok: false; error: string };

async function handle(db: Database, storeDir: string, request: unknown, provisioning: ProvisioningEngine | undefined): Promise<ControlResponse> {
  if (typeof request !== 'object' || request === null) return { ok: false, error: 'The request is not a JSON object.' };
  const { command, username, email, to, action, name, file, force, remotes, dryRun, oidcClients, oidcKeys } = request as Record<string, unknown>;
  try {
    switch (command) {
      case 'create-admin':
        if (typeof username !== 'string' || typeof email !== 'string') return { ok: false, error: 'create-admin needs a username and an email.' };
        return { ok: true, result: await createSiteAdmin(db, { username, email }) };
      case 'mail-list':
        if (typeof to !== 'string') return { ok: false, error: 'mail-list needs an address.' };
        return { ok: true, result: await listMail(db, to) };
      case 'service-credentials':
        if (!['create', 'rotate', 'delete', 'list'].includes(action as string) || (name !== undefined && typeof name !== 'string')) {
          return { ok: false, error: 'service-credentials needs an action (create, rotate, delete, list) and a name.' };
        }
        return { ok: true, result: await runServiceCredentialCommand(db, action as ServiceCredentialAction, name as string | undefined, new Date()) };
      case 'oidc-clients': {
        const parsed = parseOidcClientCommand(oidcClients);
        if (!parsed) return { ok: false, error: 'oidc-clients needs an action (add, list, remove, rotate-secret) and its arguments.' };
        return { ok: true, result: await runOidcClientCommand(db, parsed, new Date()) };
      }
      case 'oidc-keys': {
        const parsed = parseOidcKeyCommand(oidcKeys);
        if (!parsed) return { ok: false, error: 'oidc-keys needs an action (rotate, list).' };
        return { ok: true, result: await runOidcKeyCommand(db, parsed, new Date()) };
      }
      case 'backup':
        // The command line sends an absolute path; the portal writes the file (mode 0600).
        if (typeof file !== 'string' || !file.startsWith('/') || typeof force !== 'boolean') return { ok: false, error: 'backup needs an absolute file path.' };
        return { ok: true, result: await writeBackup(db, file, { force }) };
      case 'remotes': {
        const parsed = parseRemotesCommand(remotes);
        if (!parsed) return { ok: false, error: 'remotes needs an action (publish, pin, rollback, status, history) and its arguments.' };
        return { ok: true, result: await runRemotesCommand(db, storeDir, parsed) };
      }
      case 'provision-status':
        return { ok: true, result: await provisioningOverview(db) };
      case 'provision-reconcile':
        if (typeof dryRun !== 'boolean') return { ok: false, error: 'provision-reconcile needs dryRun.' };
        return { ok: true, result: await reconcileForCommand(provisioning, dryRun) };
      default:
        return { ok: false, error: `Unknown command '${String(command)}'.` };
    }
  } catch (error) {
    if (
      error instanceof DomainError ||
      error instanceof ServiceCredentialError ||
      error instanceof BackupError ||
      error instanceof BuildError ||
      error instanceof ProvisioningCommandError
    ) {
      return { ok: false, error: error.message };
    }
    throw error;
  }
}

export interface ControlServer {
  readonly path: string;
  close(): Promise<void>;
}

/** Listens on <dataDir>/portal.sock (replacing a stale one: the caller holds the folder's lock). */
export async function startControlServer(
  dataDir: string,
  db: Database,
  onError: (error: unknown) => void,
  /** The remote store the remotes commands publish into (this portal's). */
  storeDir: string = join(dataDir, 'remotes'),
  /** This portal's provisioning, which `provision reconcile` runs. */
  provisioning?: ProvisioningEngine,
): Promise<ControlServer> {
  const path = controlSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path);
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) {
        socket.end(`${JSON.stringify({ ok: false, error: 'The request is too large.' })}\n`);
        return;
      }
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      socket.pause();
      let request: unknown;
      try {
        request = JSON.parse(buffer.slice(0, newline));
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'The request is not JSON.' })}\n`);
        return;
      }
      handle(db, storeDir, request, provisioning).then(
        (response) => socket.end(`${JSON.stringify(response)}\n`),
        (error: unknown) => {
          onError(error);
          socket.end(`${JSON.stringify({ ok: false, error: 'The portal could not carry out the command; see its log.' })}\n`);
        },
      );
    });
  });
  // The socket file is created by listen(): with this umask it is never readable by others.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve())).finally(() => {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      });
      return closing;
    },
  };
}

/** Sends one command to a running portal; rejects when nothing listens on the socket. */
export function sendControlRequest<R extends ControlRequest>(dataDir: string, request: R, timeoutMs = 30_000): Promise<ControlResponse<R['command']>> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('The running portal did not answer in time.')));
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(JSON.parse(answer) as ControlResponse<R['command']>);
      } catch {
        reject(new Error('The running portal gave an answer that is not JSON.'));
      }
    });
  });
}
