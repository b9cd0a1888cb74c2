/**
 * The OpenID Connect provider under /oidc, with openid-client (the library the platform's Node
 * services would use) as the relying party against a listening server: discovery and the JWKS;
 * the code flow with PKCE, the browser simulated by following redirects with its cookies (the
 * portal's session among them); the ID token's claims, userinfo and refresh; a visitor sent to
 * the portal's /login and back; a client bound to a service; and each refusal with the protocol's
 * error (on PGlite, and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { runOidcClientCommand } from '../src/services/service-sign-in/oidc/clients.js';
import { signIn } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, type Fixture } from './helpers.js';
import { call, count, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const REDIRECT_URI = 'https://rp.example.test/callback';
const SCOPE = 'openid profile email groups';

interface Registered {
  id: string;
  secret: string;
}

/** Where a browser ends up: a redirect out of the portal (location), or a page of the portal (url, status, body). */
interface Landing {
  location?: string;
  url: string;
  status: number;
  body: string;
}

/**
 * A browser: follows the portal's redirects with its cookie jar until it leaves the portal (the
 * relying party's redirect URI) or a page answers.
 */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** Adds a cookie given as name=value (the portal's session from the sign-in helpers). */
  set(cookie: string): void {
    const at = cookie.indexOf('=');
    this.cookies.set(cookie.slice(0, at), cookie.slice(at + 1));
  }

  async open(start: string, method = 'GET'): Promise<Landing> {
    let url = start;
    let verb = method;
    for (let hops = 0; hops < 10; hops++) {
      const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(url, { method: verb, redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const name = pair.slice(0, pair.indexOf('=')).trim();
        const value = pair.slice(pair.indexOf('=') + 1).trim();
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        return { url, status: response.status, body: await response.text() };
      }
      await response.body?.cancel();
      const next = new URL(location, url).href;
      if (!next.startsWith(`${this.base}/`)) return { location: next, url, status: response.status, body: '' };
      url = next;
      verb = 'GET';
    }
    throw new Error(`more than 10 redirects from ${start}`);
  }
}

for (const kind of DATABASE_KINDS) {
  describe(`OpenID Connect provider on ${kind}`, () => {
    let world: World;
    let base: string;
    let issuer: string;
    let rp: Registered;
    let jiraRp: Registered;

    const register = async (name: string, service?: string): Promise<Registered> => {
      const added = await runOidcClientCommand(world.db, { action: 'add', name, redirectUris: [REDIRECT_URI], consent: false, ...(service ? { service } : {}) }, new Date());
      assert.ok(added.client_id && added.client_secret);
      return { id: added.client_id, secret: added.client_secret };
    };

    before(async () => {
      world = await createWorld(kind, fixture, { portal: { supported_services: 'jira,jenkins,confluence,artifacts' } });
      await world.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(world.app.server.address() as AddressInfo).port}`;
      issuer = `${base}/oidc`;
      rp = await register('wiki');
      jiraRp = await register('jira', 'jira');
      await insertUserGroup(world.db, { id: 'ALPHA', name: 'ALPHA', description: 'ALPHA group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'] });
      await insertUserGroup(world.db, { id: 'BETA', name: 'BETA', description: 'BETA group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jenkins'] });
    });
    after(async () => world.close());

    let serial = 0;
    const unique = (name: string) => `${name}${++serial}`;

    /** The relying party's configuration from discovery (plain http on loopback: allowed here only). */
    const discover = (client: Registered, secret = client.secret) =>
      oidc.discovery(new URL(issuer), client.id, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

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

    /** A signed-in user's browser (the portal's session cookie in its jar). */
    async function browserOf(username: string) {
      const { account, who } = await signedIn(world, username);
      const browser = new Browser(base);
      browser.set(who.cookie);
      return { account, who, browser };
    }

    /** The whole flow for a signed-in browser: the relying party's callback URL with the code. */
    async function codeFor(browser: Browser, config: oidc.Configuration) {
      const request = await authorization(config);
      const landing = await browser.open(request.url);
      const location = landing.location ?? '';
      assert.ok(location.startsWith(`${REDIRECT_URI}?`), `back at the relying party: ${JSON.stringify(landing)}`);
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

    test('discovery at /oidc/.well-known/openid-configuration: the issuer, code flow with S256 PKCE, client_secret_basic, the scopes and claims; one RS256 key stored and published', async () => {
      const config = await discover(rp);
      const metadata = config.serverMetadata();
      assert.equal(metadata.issuer, issuer);
      assert.equal(metadata.authorization_endpoint, `${issuer}/auth`);
      assert.equal(metadata.token_endpoint, `${issuer}/token`);
      assert.equal(metadata.userinfo_endpoint, `${issuer}/me`);
      assert.equal(metadata.jwks_uri, `${issuer}/jwks`);
      assert.deepEqual(metadata.response_types_supported, ['code']);
      assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ['client_secret_basic']);
      assert.deepEqual([...(metadata.scopes_supported ?? [])].sort(), ['email', 'groups', 'offline_access', 'openid', 'profile']);
      for (const claim of ['sub', 'preferred_username', 'name', 'email', 'groups']) assert.ok(metadata.claims_supported?.includes(claim), claim);
      const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0]?.alg, 'RS256');
      assert.equal(jwks.keys[0]?.d, undefined, 'no private part is published');
      assert.equal(await count(world.db, 'select count(*) from oidc_signing_keys'), 1);
    });

    test('a signed-in user is not asked again: the code flow gives an ID token with sub, preferred_username, name, email and groups, the same from userinfo, and a refresh token', async () => {
      const { account, browser } = await browserOf(unique('alice'));
      await addMembership(world.db, 'ALPHA', account.id, 'ALPHA-dev');
      await addMembership(world.db, 'BETA', account.id, 'BETA-ops');
      const config = await discover(rp);
      const tokens = await exchange(config, await codeFor(browser, config));
      const expected = { sub: String(account.id), preferred_username: account.username, name: 'Test Person', email: account.email, groups: ['ALPHA-dev', 'BETA-ops'] };
      const claims = tokens.claims();
      assert.ok(claims);
      assert.equal(claims.iss, issuer);
      assert.equal(claims.aud, rp.id);
      assert.deepEqual(
        { sub: claims.sub, preferred_username: claims.preferred_username, name: claims.name, email: claims.email, groups: claims.groups },
        expected,
      );
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, String(account.id));
      assert.deepEqual({ ...userinfo }, expected);
      assert.ok(tokens.refresh_token, 'a refresh token');
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
      assert.equal(refreshed.claims()?.sub, String(account.id));
      assert.deepEqual(refreshed.claims()?.groups, expected.groups);
      // Nothing the provider keeps holds the secret or the code in the clear.
      const stored = await world.db.query<{ text: string }>('select payload::text as text from oidc_models');
      assert.ok(stored.rows.every((row) => !row.text.includes(rp.secret)));
      const [clientRow] = (await world.db.query<{ secret_hash: string }>('select secret_hash from oidc_clients where client_id = $1', [rp.id])).rows;
      assert.notEqual(clientRow?.secret_hash, rp.secret);
    });

    test('a visitor is sent to /login?redirect=<the interaction>; once signed in, that address sends them back to the relying party with a code', async () => {
      const { account } = await browserOf(unique('visitor'));
      const browser = new Browser(base);
      const config = await discover(rp);
      const request = await authorization(config);
      const landing = await browser.open(request.url);
      const login = new URL(landing.url);
      assert.equal(login.pathname, '/login');
      const redirect = login.searchParams.get('redirect') ?? '';
      assert.match(redirect, /^\/oidc\/interaction\/[\w-]+$/);
      const session = await signIn(world.app, account.username, account.token);
      browser.set(session.cookie);
      const back = await browser.open(`${base}${redirect}`);
      const location = back.location ?? '';
      assert.ok(location.startsWith(`${REDIRECT_URI}?`), JSON.stringify(back));
      const tokens = await exchange(config, { ...request, callback: new URL(location) });
      assert.equal(tokens.claims()?.preferred_username, account.username);
    });

    test("a user signed out of the portal is asked to sign in again, although the provider's own session remains", async () => {
      const { browser, who } = await browserOf(unique('leaver'));
      const config = await discover(rp);
      await codeFor(browser, config);
      assert.equal((await call(world.app, who, 'GET', '/sessions/logout')).statusCode, 200);
      const landing = await browser.open((await authorization(config)).url);
      assert.equal(new URL(landing.url).pathname, '/login');
    });

    test("an account locked by an administrator: its access token is refused at userinfo (invalid_token) and its refresh token at the token endpoint (invalid_grant)", async () => {
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const { account, browser } = await browserOf(unique('locked'));
      const config = await discover(rp);
      const tokens = await exchange(config, await codeFor(browser, config));
      assert.ok(tokens.refresh_token);
      const locked = await call(world.app, admin.who, 'POST', `/accounts/${account.username}/lock`, { comment: 'Left the team.' });
      assert.equal(locked.statusCode, 200, locked.body);
      assert.deepEqual(await refusal(oidc.fetchUserInfo(config, tokens.access_token, String(account.id))), { error: 'invalid_token', status: 401 });
      assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token)), { error: 'invalid_grant', status: 400 });
    });

    test('a client bound to a service: an account without it is sent to the Subscriptions page naming the service; with a subscription it signs in, with that service\'s groups only', async () => {
      const { account, who, browser } = await browserOf(unique('bound'));
      await addMembership(world.db, 'BETA', account.id, 'BETA-ops');
      const config = await discover(jiraRp);
      const refused = await browser.open((await authorization(config)).url);
      assert.equal(refused.location, undefined);
      assert.equal(new URL(refused.url).pathname + new URL(refused.url).search, '/subscriptions?service=jira');
      assert.equal((await call(world.app, who, 'PUT', `/subscriptions/${account.username}`, { service: 'jira', subscribed: true })).statusCode, 200);
      await addMembership(world.db, 'ALPHA', account.id, 'ALPHA-dev');
      const tokens = await exchange(config, await codeFor(browser, config));
      assert.deepEqual(tokens.claims()?.groups, ['ALPHA-dev']);
    });

    test('a client added with consent: the user is shown what it will learn; Allow signs them in (and is not asked again), Deny answers access_denied', async () => {
      const added = await runOidcClientCommand(world.db, { action: 'add', name: unique('asking'), redirectUris: [REDIRECT_URI], consent: true }, new Date());
      const asking = await discover({ id: added.client_id ?? '', secret: added.client_secret ?? '' });
      for (const answer of ['deny', 'allow'] as const) {
        const { browser } = await browserOf(unique(answer));
        const request = await authorization(asking);
        const page = await browser.open(request.url);
        assert.equal(page.status, 200);
        assert.match(page.body, /will learn your username, your name, your email address and your groups\./);
        assert.match(new URL(page.url).pathname, /^\/oidc\/interaction\/[\w-]+$/);
        const back = new URL((await browser.open(`${page.url}/${answer}`, 'POST')).location ?? 'about:blank');
        assert.equal(back.origin + back.pathname, REDIRECT_URI);
        if (answer === 'deny') {
          assert.equal(back.searchParams.get('error'), 'access_denied');
          assert.equal(back.searchParams.get('code'), null);
        } else {
          const tokens = await exchange(asking, { ...request, callback: back });
          assert.ok(tokens.claims()?.sub);
          await codeFor(browser, asking);
        }
      }
    });

    test('two servers on one database are one provider: a code one issued is redeemed at the other, which signs with the same published key', async () => {
      // The second server is reached at another address; PORTAL_PUBLIC_URL names the first, as one address in front of both would.
      const second = createTestApp({ db: world.db, fixture, portal: { supported_services: 'jira,jenkins,confluence,artifacts' }, server: { publicUrl: base } });
      await second.listen({ host: '127.0.0.1', port: 0 });
      try {
        const secondBase = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
        const jwks = async (at: string) => (await fetch(`${at}/oidc/jwks`)).json();
        assert.deepEqual(await jwks(secondBase), await jwks(base));
        const { account, browser } = await browserOf(unique('shared'));
        const flow = await codeFor(browser, await discover(rp));
        const viaSecond = await oidc.discovery(new URL(issuer), rp.id, undefined, oidc.ClientSecretBasic(rp.secret), {
          execute: [oidc.allowInsecureRequests],
          [oidc.customFetch]: (url, options) => fetch(url.replace(base, secondBase), options as RequestInit),
        });
        const tokens = await exchange(viaSecond, flow);
        assert.equal(tokens.claims()?.sub, String(account.id));
      } finally {
        await second.close();
      }
    });

    test('refusals at the token endpoint: wrong secret and unknown client (invalid_client), reused code and PKCE mismatch (invalid_grant)', async () => {
      const { browser } = await browserOf(unique('refused'));
      const config = await discover(rp);

      const wrongSecret = await refusal(exchange(await discover(rp, `${rp.secret}x`), await codeFor(browser, config)));
      assert.deepEqual(wrongSecret, { error: 'invalid_client', status: 401 });

      const unknown = await refusal(exchange(await discover({ id: 'nobody', secret: rp.secret }), await codeFor(browser, config)));
      assert.deepEqual(unknown, { error: 'invalid_client', status: 401 });

      const { account } = await browserOf(unique('reuser'));
      const reuser = new Browser(base);
      reuser.set((await signIn(world.app, account.username, account.token)).cookie);
      const flow = await codeFor(reuser, config);
      const first = await exchange(config, flow);
      assert.deepEqual(await refusal(exchange(config, flow)), { error: 'invalid_grant', status: 400 });
      // The code's reuse revokes what it gave the first time.
      assert.deepEqual(await refusal(oidc.fetchUserInfo(config, first.access_token, String(account.id))), { error: 'invalid_token', status: 401 });

      const mismatch = await codeFor(browser, config);
      assert.deepEqual(await refusal(exchange(config, mismatch, oidc.randomPKCECodeVerifier())), { error: 'invalid_grant', status: 400 });
    });

    test('refusals at the authorization endpoint: an unknown client and a redirect_uri not exactly registered get an error page, never a redirect; no PKCE is invalid_request', async () => {
      const { browser } = await browserOf(unique('authz'));
      const config = await discover(rp);
      const unknown = await browser.open((await authorization(await discover({ id: 'nobody', secret: 'x' }))).url);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.location, undefined);
      assert.match(unknown.body, /invalid_client/);

      for (const uri of [`${REDIRECT_URI}/`, `${REDIRECT_URI}?x=1`, REDIRECT_URI.replace('https', 'http')]) {
        const landing = await browser.open((await authorization(config, { redirect_uri: uri })).url);
        assert.equal(landing.status, 400, uri);
        assert.equal(landing.location, undefined, uri);
        assert.match(landing.body, /invalid_redirect_uri/, uri);
      }

      const url = new URL((await authorization(config)).url);
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      const landing = await browser.open(url.href);
      const back = new URL(landing.location ?? 'about:blank');
      assert.equal(back.origin + back.pathname, REDIRECT_URI);
      assert.equal(back.searchParams.get('error'), 'invalid_request');
      assert.equal(back.searchParams.get('code'), null);
    });
  });
}
