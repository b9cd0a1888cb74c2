/**
 * Debian's nginx on loopback, configured with the very file server/docs/service-sign-in.md shows
 * (server/docs/nginx-forward-auth.conf, its placeholders filled in), in front of a tiny service
 * that answers with the headers it received. Everything nginx writes goes to a folder of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DIR } from '../src/paths.js';

export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const NGINX_CONF = join(SERVER_DIR, 'docs', 'nginx-forward-auth.conf');
export const NGINX_MISSING = `nginx is not at ${NGINX_PATH}. Install it with: apt-get install nginx   (Debian; \`npm test\` run as root on Debian installs it itself), or set NGINX_PATH.`;

/** The headers a request reached the echo service with, and its path. */
export interface Echo {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A service that answers every request with what it received (JSON: its path and headers). */
export async function startEchoService(): Promise<{ url: string; received: readonly Echo[]; close(): Promise<void> }> {
  const received: Echo[] = [];
  const server: Server = createServer((request, response) => {
    const echo: Echo = { path: request.url ?? '', headers: request.headers };
    received.push(echo);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A port nobody listens on now, on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The documented server block with its placeholders filled in. */
export function forwardAuthConf(values: { listen: string; upstream: string; portal: string; service: string }): string {
  const text = readFileSync(NGINX_CONF, 'utf8');
  const filled = text
    .replaceAll('__LISTEN__', values.listen)
    .replaceAll('__UPSTREAM__', values.upstream)
    .replaceAll('__PORTAL__', values.portal)
    .replaceAll('__SERVICE__', values.service);
  if (/__[A-Z]+__/.test(filled.replace(/^\s*#.*$/gm, ''))) throw new Error(`${NGINX_CONF} has a placeholder this helper does not fill`);
  return filled;
}

export interface Nginx {
  /** Its address, http://127.0.0.1:<port>. */
  readonly url: string;
  /** What it wrote to its error log so far. */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground with the documented block for `service`, in front of `upstream`,
 * asking `portal`; on `port` when given (a portal that must name nginx's address before it starts).
 */
export async function startNginx(options: { portal: string; upstream: string; service: string; port?: number }): Promise<Nginx> {
  if (!existsSync(NGINX_PATH)) throw new Error(NGINX_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
  const port = options.port ?? (await freePort());
  const errorLog = join(dir, 'error.log');
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'service.conf'), forwardAuthConf({ listen: `127.0.0.1:${port}`, upstream: options.upstream, portal: options.portal, service: options.service }));
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `error_log ${errorLog} info;`,
      'events { worker_connections 64; }',
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((sub) => `    ${sub}_temp_path ${join(dir, sub)};`),
      `    include ${join(dir, 'service.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  let output = '';
  const child: ChildProcess = spawn(NGINX_PATH, ['-e', errorLog, '-c', join(dir, 'nginx.conf'), '-p', dir, '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errors = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGTERM');
      await exited;
      const log = errors();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start:\n${output}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
