/**
 * What the OpenID provider's tests share (oidc.test.ts, oidc-sign-ins.test.ts): a browser simulated
 * by following the portal's redirects with its cookies, a relying party's code flow with PKCE
 * through openid-client, a JWT verified against the JWKS, and a back-channel logout receiver.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

export const REDIRECT_URI = 'https://rp.example.test/callback';
export const SCOPE = 'openid profile email groups';

export interface Registered {
  id: string;
  secret: string;
}

/** Where a browser ends up: a redirect out of the portal (location), or a page of the portal (url, status, body). */
export interface Landing {
  location?: string;
  url: string;
  status: number;
  body: string;
  headers: Headers;
}

/**
 * A browser: follows the portal's redirects with its cookie jar until it leaves the portal (the
 * relying party's redirect URI) or a page answers.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** Adds a cookie given as name=value (the portal's session from the sign-in helpers). */
  set(cookie: string): void {
    const at = cookie.indexOf('=');
    this.cookies.set(cookie.slice(0, at), cookie.slice(at + 1));
  }

  /** The Cookie header the browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async open(start: string, method = 'GET', form?: URLSearchParams): Promise<Landing> {
    let url = start;
    let verb = method;
    let body = form;
    for (let hops = 0; hops < 10; hops++) {
      const cookie = this.cookieHeader();
      const response = await fetch(url, { method: verb, redirect: 'manual', headers: cookie ? { cookie } : {}, ...(body ? { body } : {}) });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const name = pair.slice(0, pair.indexOf('=')).trim();
        const value = pair.slice(pair.indexOf('=') + 1).trim();
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        return { url, status: response.status, body: await response.text(), headers: response.headers };
      }
      await response.body?.cancel();
      const next = new URL(location, url).href;
      if (!next.startsWith(`${this.base}/`)) return { location: next, url, status: response.status, body: '', headers: response.headers };
      url = next;
      verb = 'GET';
      body = undefined;
    }
    throw new Error(`more than 10 redirects from ${start}`);
  }
}

export interface Jwks {
  keys: (Record<string, unknown> & { kid?: string })[];
}

/**
 * A JWT's header and claims, its RS256 signature verified with the key of the JWKS its kid names
 * (as a relying party verifies an ID token); throws when there is no such key or it does not verify.
 */
export function verifiedJwt(jwt: string, jwks: Jwks): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
  assert.equal(head['alg'], 'RS256');
  const jwk = jwks.keys.find((key) => key.kid === head['kid']);
  if (!jwk) throw new Error(`no published key has the kid ${String(head['kid'])}`);
  const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))) throw new Error('the signature does not verify');
  return { header: head, payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown> };
}

/** A relying party's back-channel logout endpoint: keeps each logout token posted to it. */
export interface Receiver {
  url: string;
  tokens: string[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const tokens: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token');
      if (req.method === 'POST' && req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') && token) tokens.push(token);
      res.writeHead(token ? 200 : 400, { 'cache-control': 'no-store' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel-logout`,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The relying party's side of the flow against a listening portal (`where` read at each call: the
 * tests learn the address in their before hook); each code is added to `secrets` (the log test
 * checks none is written).
 */
export function relyingParty(where: () => { base: string; issuer: string; secrets: Set<string> }) {
  /** The relying party's configuration from discovery (plain http on loopback: allowed here only). */
  const discover = (client: Registered, secret = client.secret) =>
    oidc.discovery(new URL(where().issuer), client.id, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

  /** An authorization request as the relying party makes it, with PKCE and a state. */
  async function authorization(config: oidc.Configuration, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    return { url: url.href, verifier, state };
  }

  /** The whole flow for a signed-in browser: the relying party's callback URL with the code. */
  async function codeFor(browser: Browser, config: oidc.Configuration) {
    const request = await authorization(config);
    const landing = await browser.open(request.url);
    const location = landing.location ?? '';
    assert.ok(location.startsWith(`${REDIRECT_URI}?`), `back at the relying party: ${JSON.stringify(landing)}`);
    where().secrets.add(new URL(location).searchParams.get('code') ?? '');
    return { ...request, callback: new URL(location) };
  }

  const exchange = (config: oidc.Configuration, flow: { callback: URL; verifier: string; state: string }, verifier = flow.verifier) =>
    oidc.authorizationCodeGrant(config, flow.callback, { pkceCodeVerifier: verifier, expectedState: flow.state });

  /** The protocol's error of a refused call (openid-client's ResponseBodyError). */
  async function refusal(promise: Promise<unknown>): Promise<{ error: string; status: number }> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof oidc.ResponseBodyError) return { error: error.error, status: error.status };
      // A 401 carries its error in WWW-Authenticate as well, which openid-client reports instead.
      if (error instanceof oidc.WWWAuthenticateChallengeError) return { error: error.cause[0]?.parameters.error ?? '', status: error.status };
      throw error;
    }
    assert.fail('the call was not refused');
  }

  return { discover, authorization, codeFor, exchange, refusal };
}
