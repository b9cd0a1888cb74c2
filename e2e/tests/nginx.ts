/**
 * The end-to-end side of forward auth: a tiny service whose page lists the X-Remote-* headers it
 * received, for a browser to read. nginx itself is started as the server tests start it
 * (server/test/nginx-helpers.ts: the documented configuration file, its placeholders filled in).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HEADERS = ['X-Remote-User', 'X-Remote-Email', 'X-Remote-Name', 'X-Remote-Groups'];

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A service whose page shows the identity headers it received, one line each ('X-Remote-User: user'). */
export async function startStandInService(title: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const lines = HEADERS.map((name) => `<li>${escape(`${name}: ${String(request.headers[name.toLowerCase()] ?? '')}`)}</li>`);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(request.url ?? '')}</p><ul>${lines.join('')}</ul>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export { freePort, startNginx, type Nginx } from '../../server/test/nginx-helpers';
