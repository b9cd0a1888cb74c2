/**
 * A real Mailman 3 core for the Mailman engine's tests: Debian's mailman3 package (installed by
 * `npm test` as root on Debian: scripts/lib.mjs ensureMailman), started here on loopback in a
 * temporary folder of its own (SQLite there, the REST API on a free port, no MTA for incoming
 * mail, outgoing mail to the given SMTP port), and stopped with its whole process group.
 *
 * Not installed: startMailman throws, saying what to install. The tests fail; they never skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Mailman's master and runner are: Debian's place, or MAILMAN_BIN_DIR for another install. */
export const MAILMAN_BIN_DIR = process.env.MAILMAN_BIN_DIR ?? '/usr/lib/mailman3/bin';
const MASTER = join(MAILMAN_BIN_DIR, 'master');

export const MAILMAN_NOT_INSTALLED = [
  'Mailman 3 core is not installed: the Mailman list engine is tested against a real one.',
  `  ${MASTER} was not found.`,
  '  Install it with: apt-get install mailman3   (Debian; `npm test` run as root on Debian installs it itself)',
].join('\n');

export interface RunningMailman {
  /** The REST address to give PORTAL_MAILMAN_URL, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  readonly dir: string;
  /** How long it took until the REST API answered, in ms. */
  readonly startedInMs: number;
  /** A REST call with the admin credentials (under /3.1); the parsed body (undefined when empty). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Mailman's JSON, read field by field by the tests
  rest(method: string, path: string, body?: Record<string, unknown>, form?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Puts a raw message in Mailman's incoming queue for the list (as the MTA would). */
  inject(listAddress: string, raw: string): Promise<void>;
  /** Stops the master and every runner (SIGTERM to the process group, SIGKILL after 10 s) and removes the folder. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function config(dir: string, port: number, password: string, smtpPort: number): string {
  return `# Written by server/test/mailman-helpers.ts for one test run.
[mailman]
layout: custom
site_owner: postmaster@example.test

[paths.custom]
var_dir: ${dir}/var
bin_dir: ${MAILMAN_BIN_DIR}
etc_dir: ${dir}
log_dir: ${dir}/var/logs
lock_dir: ${dir}/var/locks
pid_file: ${dir}/var/master.pid
lock_file: ${dir}/var/locks/master.lck

[database]
class: mailman.database.sqlite.SQLiteDatabase
url: sqlite:///${dir}/var/mailman.db

[webservice]
hostname: 127.0.0.1
port: ${port}
admin_user: restadmin
admin_pass: ${password}
api_version: 3.1

[mta]
incoming: mailman.mta.null.NullMTA
outgoing: mailman.mta.deliver.deliver
smtp_host: 127.0.0.1
smtp_port: ${smtpPort}

[archiver.prototype]
enable: no
`;
}

/** Starts Mailman core (the master and its runners) and waits until its REST API answers. */
export async function startMailman(options: { smtpPort: number; timeoutMs?: number }): Promise<RunningMailman> {
  if (!existsSync(MASTER)) throw new Error(MAILMAN_NOT_INSTALLED);
  const dir = mkdtempSync(join(tmpdir(), 'portal-mailman-'));
  mkdirSync(join(dir, 'var', 'logs'), { recursive: true });
  const port = await freePort();
  const user = 'restadmin';
  const password = `pw-${process.pid}-${Date.now()}`;
  const configFile = join(dir, 'mailman.cfg');
  writeFileSync(configFile, config(dir, port, password, options.smtpPort));
  const started = Date.now();
  // The master itself (not `mailman start`, which forks it away): detached, so it leads a process
  // group of its own with its runners, and that group is what stop() ends.
  const child: ChildProcess = spawn(process.env.PYTHON ?? '/usr/bin/python3', [MASTER, '-C', configFile], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MAILMAN_VAR_DIR: join(dir, 'var') },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  let exited: number | string | null | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = code ?? signal;
      resolve();
    });
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // gone already
    }
  };
  // Never leave a Mailman behind, whatever ends this test process.
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  const url = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  async function rest(method: string, path: string, body?: Record<string, unknown>, form?: Record<string, string>) {
    const type = body ? 'application/json' : form ? 'application/x-www-form-urlencoded' : undefined;
    const response = await fetch(`${url}/3.1${path}`, {
      method,
      headers: { authorization, accept: 'application/json', ...(type ? { 'content-type': type } : {}) },
      ...(body ? { body: JSON.stringify(body) } : form ? { body: new URLSearchParams(form).toString() } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    return { status: response.status, body: text.trim() === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (exited === undefined) {
        killGroup('SIGTERM');
        const timer = setTimeout(() => killGroup('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
        // Runners that outlived the master (they share its group).
        killGroup('SIGKILL');
      }
      process.removeListener('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const deadline = started + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (exited !== undefined) {
      const log = existsSync(join(dir, 'var', 'logs', 'mailman.log')) ? readFileSync(join(dir, 'var', 'logs', 'mailman.log'), 'utf8').slice(-2000) : '';
      await stop();
      throw new Error(`Mailman core exited (${String(exited)}) before its REST API answered.\n${stderr}\n${log}`);
    }
    try {
      if ((await rest('GET', '/system/versions')).status === 200) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Mailman core's REST API did not answer on ${url} within ${options.timeoutMs ?? 90_000} ms.\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    url,
    user,
    password,
    dir,
    startedInMs: Date.now() - started,
    rest,
    async inject(listAddress, raw) {
      const answer = await rest('POST', '/queues/in', { list_id: listAddress.replace('@', '.'), text: raw });
      if (answer.status !== 201) throw new Error(`injecting a message answered HTTP ${answer.status}`);
    },
    stop,
  };
}
