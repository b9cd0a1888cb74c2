/**
 * The OpenID Connect provider under /oidc, with openid-client (the library the platform's Node
 * services would use) as the relying party against a listening server: discovery and the JWKS;
 * the code flow with PKCE, the browser simulated by following redirects with its cookies (the
 * portal's session among them); the ID token's claims, userinfo and refresh; a visitor sent to
 * the portal's /login and back; a client bound to a service; and each refusal with the protocol's
 * error (on PGlite, and PostgreSQL when DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { runOidcClientCommand } from '../src/services/service-sign-in/oidc/clients.js';
import { ACTIVATION_SECONDS, KEY_CHECK_SECONDS, PUBLISHED_GENERATIONS, runOidcKeyCommand } from '../src/services/service-sign-in/oidc/keys.js';
import { postSignIn, signIn } from './auth-helpers.js';
import { Browser, REDIRECT_URI, relyingParty, startReceiver, verifiedJwt, type Jwks, type Receiver, type Registered } from './oidc-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, type Fixture } from './helpers.js';
import { call, count, createWorld, signedIn, type World } from './self-service-helpers.js';
import type { Principal } from './auth-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

/** The sign-out form of the provider's page (oidc-provider's op.logoutForm): where it posts, its anti-forgery field. */
function logoutForm(html: string): { action: string; xsrf: string } {
  const action = /<form id="op\.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(action && xsrf, html);
  return { action, xsrf };
}

const kidOf = (jwt: string | undefined): unknown => JSON.parse(Buffer.from((jwt ?? '').split('.')[0] ?? '', 'base64url').toString('utf8')).kid;

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
      secrets.add(added.client_secret);
      return { id: added.client_id, secret: added.client_secret };
    };

    /** The server's log lines, and the secrets and codes it must never write (the last test reads them). */
    const logs: string[] = [];
    const secrets = new Set<string>();

    before(async () => {
      world = await createWorld(kind, fixture, { portal: { supported_services: 'jira,jenkins,confluence,artifacts' }, logs });
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

    const { discover, authorization, codeFor, exchange, refusal } = relyingParty(() => ({ base, issuer, secrets }));

    /** A signed-in user's browser (the portal's session cookie in its jar). */
    async function browserOf(username: string) {
      const { account, who } = await signedIn(world, username);
      const browser = new Browser(base);
      browser.set(who.cookie);
      return { account, who, browser };
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
      assert.equal(await count(world.db, 'select 1 from oidc_signing_keys'), 1);
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
        // The forms' answers end in a redirect to the client: a browser lets it through only when
        // the page's form-action names the client's origin (it was 'self' alone).
        const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        const policy = (await fetch(page.url, { headers: { cookie } })).headers.get('content-security-policy') ?? '';
        assert.match(policy, /(^|; )form-action 'self' https:\/\/rp\.example\.test(;|$)/, policy);
        assert.match(policy, /(^|; )script-src 'none'(;|$)/, policy);
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

    test('oidc-keys rotate: the new key is published at once (by a running server within KEY_CHECK_SECONDS) and signs from ACTIVATION_SECONDS after; the previous keys stay published, the newest 3, so an ID token signed before still verifies; a second server on the database publishes the same keys', async () => {
      const jwksAt = async (at = base) => (await (await fetch(`${at}/oidc/jwks`)).json()) as Jwks;
      const kids = (jwks: Jwks) => jwks.keys.map((key) => key.kid).sort();
      const { browser } = await browserOf(unique('rotating'));
      const config = await discover(rp);
      const before = await exchange(config, await codeFor(browser, config));
      assert.ok(before.id_token && before.refresh_token);
      const oldKid = verifiedJwt(before.id_token, await jwksAt()).header['kid'];

      const rotated = await runOidcKeyCommand(world.db, { action: 'rotate' }, world.clock.now());
      const added = rotated.keys[0];
      assert.ok(added);
      assert.notEqual(added.kid, oldKid);
      assert.deepEqual(rotated.keys.map((key) => key.signing), [false, true], 'the previous key signs until the new one is published everywhere');
      assert.deepEqual(rotated.dropped, []);

      // Past KEY_CHECK_SECONDS the running server publishes the new key, and still signs with the previous one.
      world.clock.advance(KEY_CHECK_SECONDS * 1000);
      const published = await jwksAt();
      assert.deepEqual(kids(published), [String(oldKid), added.kid].sort());
      assert.ok(published.keys.every((key) => key['d'] === undefined), 'no private part is published');
      const during = await exchange(config, await codeFor(browser, config));
      assert.equal(kidOf(during.id_token), oldKid);

      // From ACTIVATION_SECONDS after the rotation, the new key signs; what the previous one signed still verifies.
      world.clock.advance((ACTIVATION_SECONDS - KEY_CHECK_SECONDS) * 1000);
      const after = await exchange(config, await codeFor(browser, config));
      assert.equal(verifiedJwt(after.id_token ?? '', await jwksAt()).header['kid'], added.kid);
      assert.equal(verifiedJwt(before.id_token, await jwksAt()).payload['sub'], after.claims()?.sub);
      const refreshed = await oidc.refreshTokenGrant(config, before.refresh_token);
      assert.equal(kidOf(refreshed.id_token), added.kid, 'a refresh token issued before the rotation still works, and gets an ID token of the new key');

      // A second server on the same database publishes the same keys and signs with the same one.
      const second = createTestApp({ db: world.db, fixture, clock: world.clock, portal: { supported_services: 'jira,jenkins,confluence,artifacts' }, server: { publicUrl: base } });
      await second.listen({ host: '127.0.0.1', port: 0 });
      try {
        const secondBase = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
        assert.deepEqual(await jwksAt(secondBase), await jwksAt());
      } finally {
        await second.close();
      }

      // Only the newest PUBLISHED_GENERATIONS stay: two more rotations drop the first key.
      assert.equal(PUBLISHED_GENERATIONS, 3);
      await runOidcKeyCommand(world.db, { action: 'rotate' }, world.clock.now());
      const third = await runOidcKeyCommand(world.db, { action: 'rotate' }, world.clock.now());
      assert.equal(third.keys.length, 3);
      assert.equal(third.dropped?.length, 1);
      assert.ok(!third.keys.some((key) => key.kid === oldKid));
      world.clock.advance(KEY_CHECK_SECONDS * 1000);
      const latest = await jwksAt();
      assert.deepEqual(kids(latest), third.keys.map((key) => key.kid).sort());
      assert.throws(() => verifiedJwt(before.id_token ?? '', latest), /no published key/, 'a token of a dropped key no longer verifies');
      assert.equal(verifiedJwt(after.id_token ?? '', latest).header['kid'], added.kid);
      assert.deepEqual((await runOidcKeyCommand(world.db, { action: 'list' }, world.clock.now())).keys.map((key) => key.generation), third.keys.map((key) => key.generation));
      world.clock.advance(ACTIVATION_SECONDS * 1000);
    });

    const POST_LOGOUT_URI = 'https://rp.example.test/signed-out';

    /** A client with a post-logout address and a back-channel logout receiver. */
    async function registerWithLogout(name: string) {
      const receiver = await startReceiver();
      const added = await runOidcClientCommand(
        world.db,
        { action: 'add', name, redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI], backchannelLogoutUri: receiver.url, consent: false },
        new Date(),
      );
      const client = { id: added.client_id ?? '', secret: added.client_secret ?? '' };
      secrets.add(client.secret);
      return { name, client, receiver, config: await discover(client) };
    }

    /**
     * The logout tokens a receiver got, each verified as a relying party does (OpenID Connect
     * Back-Channel Logout 1.0, 2.6): signed by a published key, this issuer, for the client, the
     * logout event, no nonce; answers their sub and sid.
     */
    async function logoutTokens(receiver: Receiver, clientId: string): Promise<{ sub: unknown; sid: unknown }[]> {
      const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as Jwks;
      return receiver.tokens.map((token) => {
        const { header, payload } = verifiedJwt(token, jwks);
        assert.equal(header['typ'], 'logout+jwt');
        assert.equal(payload['iss'], issuer);
        assert.equal(payload['aud'], clientId);
        assert.deepEqual(payload['events'], { 'http://schemas.openid.net/event/backchannel-logout': {} });
        assert.equal(payload['nonce'], undefined);
        assert.equal(typeof payload['jti'], 'string');
        return { sub: payload['sub'], sid: payload['sid'] };
      });
    }

    test('RP-initiated logout with an id_token_hint of this browser\'s sign-in: discovery names the end-session endpoint; no question asked, the browser is back at the registered post-logout address with its state; the portal session ends too, the refresh token is refused and the client is told by back-channel', async () => {
      const { client, receiver, config } = await registerWithLogout(unique('leaving'));
      try {
        assert.equal(config.serverMetadata().end_session_endpoint, `${issuer}/session/end`);
        assert.equal(config.serverMetadata().backchannel_logout_supported, true);
        const { account, who, browser } = await browserOf(unique('rpout'));
        const tokens = await exchange(config, await codeFor(browser, config));
        assert.ok(tokens.id_token && tokens.refresh_token);
        const sid = tokens.claims()?.sid;
        assert.equal(typeof sid, 'string', 'the ID token of a client with back-channel logout names its session');

        const end = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'st-1' });
        const page = await browser.open(end.href);
        assert.equal(page.status, 200);
        assert.match(page.body, /<meta name="color-scheme" content="light dark">/);
        assert.match(page.body, /name="logout" value="yes"/, 'the whole sign-out is sent at once');
        const script = /<script>([^<]*)<\/script>/.exec(page.body)?.[1] ?? '';
        const policy = page.headers.get('content-security-policy') ?? '';
        assert.match(policy, /script-src 'sha256-[\w+/=]+'(;|$)/, 'only its own script runs');
        assert.ok(policy.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`));
        assert.match(policy, /form-action 'self' https:\/\/rp\.example\.test(;|$)/);

        const form = logoutForm(page.body);
        const back = await browser.open(new URL(form.action, base).href, 'POST', new URLSearchParams({ xsrf: form.xsrf, logout: 'yes' }));
        assert.equal(back.location, `${POST_LOGOUT_URI}?state=st-1`);
        assert.equal((await call(world.app, who, 'GET', '/sessions/current')).statusCode, 401, 'the portal session ended');
        assert.ok(![...browser.cookies.keys()].includes(who.cookie.split('=')[0] ?? ''), "the portal's cookie is cleared");
        assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token)), { error: 'invalid_grant', status: 400 });
        assert.deepEqual(await logoutTokens(receiver, client.id), [{ sub: String(account.id), sid }]);
        // The next sign-in at the client asks for the portal's sign-in again.
        const again = await browser.open((await authorization(config)).url);
        assert.equal(new URL(again.url).pathname, '/login');
      } finally {
        await receiver.close();
      }
    });

    test('RP-initiated logout without a hint asks first, on a page like the consent page; "Sign out of <client> only" ends that client\'s sign-in alone (the portal session stays); a post-logout address not registered exactly is refused with an error page', async () => {
      const { name, receiver, config } = await registerWithLogout(unique('asking-out'));
      try {
        const { who, browser } = await browserOf(unique('asked'));
        const tokens = await exchange(config, await codeFor(browser, config));
        assert.ok(tokens.refresh_token);

        for (const uri of [`${POST_LOGOUT_URI}/`, `${POST_LOGOUT_URI}?x=1`, REDIRECT_URI]) {
          const refused = await browser.open(oidc.buildEndSessionUrl(config, { post_logout_redirect_uri: uri }).href);
          assert.equal(refused.status, 400, uri);
          assert.equal(refused.location, undefined, uri);
          assert.match(refused.body, /invalid_request/, uri);
        }

        const page = await browser.open(oidc.buildEndSessionUrl(config, { post_logout_redirect_uri: POST_LOGOUT_URI, state: 'st-2' }).href);
        assert.equal(page.status, 200);
        assert.match(page.body, /<meta name="color-scheme" content="light dark">/);
        assert.match(page.body, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
        assert.match(page.body, /<button type="submit" form="op\.logoutForm" name="logout" value="yes" autofocus>Sign out<\/button>/);
        assert.match(page.body, new RegExp(`<button type="submit" form="op\\.logoutForm">Sign out of ${name} only</button>`));
        assert.doesNotMatch(page.body, /<script/);
        assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; script-src 'none'; form-action 'self' https:\/\/rp\.example\.test; frame-ancestors 'none'; base-uri 'none'$/);

        const form = logoutForm(page.body);
        const back = await browser.open(new URL(form.action, base).href, 'POST', new URLSearchParams({ xsrf: form.xsrf }));
        assert.equal(back.location, `${POST_LOGOUT_URI}?state=st-2`);
        assert.equal((await call(world.app, who, 'GET', '/sessions/current')).statusCode, 200, 'the portal session stays');
        assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token)), { error: 'invalid_grant', status: 400 });
        assert.equal(receiver.tokens.length, 1, 'the client is told');

        // Without a post-logout address the provider's own page says what happened.
        const second = await exchange(config, await codeFor(browser, config));
        assert.ok(second.refresh_token);
        const asked = await browser.open(oidc.buildEndSessionUrl(config, {}).href);
        const done = await browser.open(new URL(logoutForm(asked.body).action, base).href, 'POST', new URLSearchParams({ xsrf: logoutForm(asked.body).xsrf, logout: 'yes' }));
        assert.equal(done.status, 200);
        assert.match(done.body, /<h1>Signed out<\/h1>/);
        assert.match(done.body, /<meta name="color-scheme" content="light dark">/);
        assert.equal((await call(world.app, who, 'GET', '/sessions/current')).statusCode, 401);
      } finally {
        await receiver.close();
      }
    });

    for (const action of ['sign-out', 'sign-out-everywhere', 'lock', 'closure', 'failed-sign-ins-lock'] as const) {
      test(`the portal's ${action} ends the account's sign-ins to services: ${action === 'sign-out' ? "this browser's" : 'every'} provider session and grant (the refresh token is refused: invalid_grant), and a verified back-channel logout token reaches the client for each`, async () => {
        const { client, receiver, config } = await registerWithLogout(unique(`told-${action}`));
        try {
          const { account, who, browser } = await browserOf(unique(action.replace(/-/g, '')));
          const first = await exchange(config, await codeFor(browser, config));
          // The same account signed in in another browser.
          const other = new Browser(base);
          const otherWho: Principal = await signIn(world.app, account.username, account.token);
          other.set(otherWho.cookie);
          const second = await exchange(config, await codeFor(other, config));
          assert.ok(first.refresh_token && second.refresh_token);
          const [firstSid, secondSid] = [first.claims()?.sid, second.claims()?.sid];
          assert.notEqual(firstSid, secondSid);

          if (action === 'sign-out') {
            // The portal's sign-out as the browser calls it (its cookies: the portal's and the provider's).
            const out = await call(world.app, who, 'GET', '/sessions/logout', undefined, { headers: { cookie: browser.cookieHeader() } });
            assert.equal(out.statusCode, 200, out.body);
          } else if (action === 'sign-out-everywhere') {
            assert.equal((await call(world.app, who, 'POST', '/sessions/end-all')).statusCode, 200);
          } else if (action === 'failed-sign-ins-lock') {
            // Someone guessing at the account's website token: the fifth failure locks it.
            const statuses: number[] = [];
            for (let attempt = 1; attempt <= 5; attempt++) statuses.push((await postSignIn(world.app, account.username, 'wrong-token')).statusCode);
            assert.deepEqual(statuses, [401, 401, 401, 401, 423]);
            assert.equal(await count(world.db, 'select 1 from accounts where id = $1 and not active', [account.id]), 1, 'locked');
          } else {
            const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
            const done =
              action === 'lock'
                ? await call(world.app, admin.who, 'POST', `/accounts/${account.username}/lock`, { comment: 'Left the team.' })
                : await call(world.app, admin.who, 'POST', '/requests/close', { username: account.username, reason: 'Left the company.' });
            assert.equal(done.statusCode, 200, done.body);
          }

          const sub = String(account.id);
          assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, first.refresh_token)), { error: 'invalid_grant', status: 400 });
          assert.deepEqual(await refusal(oidc.fetchUserInfo(config, first.access_token, sub)), { error: 'invalid_token', status: 401 });
          if (action === 'sign-out') {
            // The other browser's sign-in to the service is not this browser's: it stays.
            assert.equal((await oidc.refreshTokenGrant(config, second.refresh_token)).claims()?.sub, sub);
            assert.deepEqual(await logoutTokens(receiver, client.id), [{ sub, sid: firstSid }]);
            assert.equal(await count(world.db, "select 1 from oidc_models where model = 'Session' and payload->>'accountId' = $1", [sub]), 1);
          } else {
            assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, second.refresh_token)), { error: 'invalid_grant', status: 400 });
            const told = await logoutTokens(receiver, client.id);
            assert.deepEqual(told.map((t) => t.sub), [sub, sub]);
            assert.deepEqual(told.map((t) => t.sid).sort(), [firstSid, secondSid].sort());
            assert.equal(await count(world.db, "select 1 from oidc_models where model in ('Session', 'Grant') and payload->>'accountId' = $1", [sub]), 0);
          }
        } finally {
          await receiver.close();
        }
      });
    }

    test('a client whose back-channel logout endpoint does not answer: the sign-out stands, its tokens are refused', async () => {
      const added = await runOidcClientCommand(
        world.db,
        { action: 'add', name: unique('unreachable'), redirectUris: [REDIRECT_URI], backchannelLogoutUri: 'http://127.0.0.1:9/nothing-listens', consent: false },
        new Date(),
      );
      const config = await discover({ id: added.client_id ?? '', secret: added.client_secret ?? '' });
      const { who, browser } = await browserOf(unique('unheard'));
      const tokens = await exchange(config, await codeFor(browser, config));
      assert.ok(tokens.refresh_token);
      assert.equal((await call(world.app, who, 'POST', '/sessions/end-all')).statusCode, 200);
      assert.deepEqual(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token)), { error: 'invalid_grant', status: 400 });
      const warned = logs.filter((line) => line.includes('a back-channel logout token could not be delivered'));
      assert.equal(warned.length, 1);
      assert.match(warned[0] ?? '', /ECONNREFUSED/);
      assert.doesNotMatch(warned[0] ?? '', /eyJ|logout_token/, 'never the token');
    });

    test("the server's log holds no client secret and no code of this run", () => {
      secrets.delete('');
      assert.ok(secrets.size > 10);
      assert.ok(logs.length > 0);
      for (const secret of secrets) assert.ok(!logs.some((line) => line.includes(secret)), 'a secret or a code is in the log');
    });
  });
}
