/** A browser over plain HTTP to a real server process (several-servers.test.ts, crash.test.ts). */
import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { API } from './auth-helpers.js';

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * A browser over plain HTTP as the host app uses the API: one cookie jar for both servers (as
 * behind one proxy), and the anti-forgery token from GET /xsrf sent with every later request.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();
  /** The anti-forgery token last read from GET /xsrf. */
  xsrf: string | undefined;

  /** `xsrf`: null sends none, a string that one; by default the browser's own. */
  /** Headers sent with every request (e.g. X-Forwarded-For, as a proxy in front would add). */
  constructor(private readonly extraHeaders: Record<string, string> = {}) {}

  async request(base: string, method: string, path: string, options: { body?: unknown; xsrf?: string | null } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const xsrf = options.xsrf === undefined ? this.xsrf : options.xsrf;
    if (xsrf !== null && xsrf !== undefined) headers['x-xsrf-token'] = xsrf;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${API}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const cleared = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (path === '/xsrf' && response.status === 200) this.xsrf = (body as { ok: string }).ok;
    return { status: response.status, body };
  }

  get(base: string, path: string): Promise<Answer> {
    return this.request(base, 'GET', path);
  }

  post(base: string, path: string, body: unknown, options: { xsrf?: string | null } = {}): Promise<Answer> {
    return this.request(base, 'POST', path, { body, ...options });
  }

  cookieNames(): string[] {
    return [...this.cookies.keys()];
  }

  /** The Cookie header the jar sends now. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A challenge from one server, solved and encoded as the altcha widget sends it. */
export async function solvedChallenge(base: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${base}${API}/accounts/botchallengeendpoint`, { headers });
  assert.equal(response.status, 200);
  const { ok: challenge } = (await response.json()) as { ok: { parameters: never; signature: string } };
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution, 'the challenge is solvable');
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}
