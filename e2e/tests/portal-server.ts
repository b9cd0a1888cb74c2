/**
 * A portal under test as a process of its own: the production build (server/dist/main.mjs) on the
 * embedded database in a data folder of its own, started the way `npm start` starts it, with the
 * demo configuration and demo data. It listens on ports the system picks (port 0) and says which
 * on its first lines, so any number of portals run side by side: one per Playwright worker, and
 * the few a spec starts for a configuration of its own (HTTPS with smart cards, no artifact
 * repository).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export interface PortalServer {
  /** Its address, e.g. http://localhost:40123 (https:// with TLS). */
  readonly url: string;
  /** The data folder (its database, remote store and demo-accounts.json). */
  readonly dataDir: string;
  /** The port of its mailing lists' SMTP listener. */
  readonly listSmtpPort: number;
  /** Everything it printed so far (for a failure's message). */
  output(): string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface PortalServerOptions {
  /** Its data folder (created when missing); an existing one is opened as it is. */
  dataDir: string;
  /** More environment variables (PORTAL_TLS_CERT …, PORTAL_SUPPORTED_SERVICES …). */
  env?: Record<string, string>;
  /** How long it may take to say it runs. */
  timeoutMs?: number;
  /** The checkout whose server/dist/main.mjs runs (default: this one), e.g. a copy with files added. */
  root?: string;
}

const RUNNING = /Portal running at (https?:\/\/\S+) /;
const LIST_SMTP = /Mailing lists receive posts at smtp:\/\/\S+:(\d+)/;

export async function startPortalServer(options: PortalServerOptions): Promise<PortalServer> {
  mkdirSync(options.dataDir, { recursive: true });
  const root = options.root ?? repoRoot;
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', join(root, 'server', 'dist', 'main.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: '0',
      PORTAL_LIST_SMTP_PORT: '0',
      PORTAL_DATA_DIR: options.dataDir,
      PORTAL_CONFIG_FILE: join(root, 'server', 'config', 'demo.json'),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = new Promise<{ url: string; listSmtpPort: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The portal did not start within ${options.timeoutMs ?? 90_000} ms:\n${output}`)), options.timeoutMs ?? 90_000);
    const look = (chunk: string) => {
      output += chunk;
      // Warnings and errors go to the test's output as they come; the demo's sign-in text does not.
      const url = RUNNING.exec(output)?.[1];
      const smtp = LIST_SMTP.exec(output)?.[1];
      if (url && smtp) {
        clearTimeout(timer);
        resolve({ url, listSmtpPort: Number(smtp) });
      }
    };
    child.stdout?.setEncoding('utf8').on('data', look);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      look(chunk);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The portal exited (${code ?? signal}) before it ran:\n${output}`));
    });
  });
  const { url, listSmtpPort } = await started;
  return {
    url,
    dataDir: options.dataDir,
    listSmtpPort,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
