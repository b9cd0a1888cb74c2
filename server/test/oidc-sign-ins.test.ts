/**
 * The sign-ins to services (server/docs/service-sign-in.md, "Sign-ins to services"): made through
 * the provider with openid-client and a simulated browser (oidc-helpers.ts), listed for the user
 * (GET /service-sign-ins) and for an administrator (GET /accounts/{username}/service-sign-ins,
 * LOCK_ACCOUNT), and ended by either: the client's refresh token is refused from then on, its
 * back-channel receiver gets a logout token, the other services' sign-ins stay, and an
 * administrator's ending is in the account's history (on PGlite, and PostgreSQL when DATABASE_URL
 * is set).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import type { ServiceSignIn } from '@portal/api';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { runOidcClientCommand } from '../src/services/service-sign-in/oidc/clients.js';
import { HOUR } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { Browser, REDIRECT_URI, relyingParty, startReceiver, verifiedJwt, type Jwks, type Receiver, type Registered } from './oidc-helpers.js';
import { call, count, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

interface Listed {
  available: boolean;
  sign_ins: ServiceSignIn[];
}

for (const kind of DATABASE_KINDS) {
  describe(`sign-ins to services on ${kind}`, () => {
    let world: World;
    let base: string;
    let issuer: string;
    const secrets = new Set<string>();
    let beforeAnyClient: Listed;
    let wiki: Registered;
    let jira: Registered;
    let receiver: Receiver;
    const { discover, codeFor, exchange, refusal } = relyingParty(() => ({ base, issuer, secrets }));

    let serial = 0;
    const unique = (name: string) => `${name}${++serial}`;

    before(async () => {
      world = await createWorld(kind, fixture, { portal: { supported_services: 'jira,jenkins,confluence,artifacts' } });
      await world.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(world.app.server.address() as AddressInfo).port}`;
      issuer = `${base}/oidc`;
      const { who } = await signedIn(world, 'early');
      beforeAnyClient = JSON.parse((await call(world.app, who, 'GET', '/service-sign-ins')).body) as Listed;
      receiver = await startReceiver();
      const wikiAdded = await runOidcClientCommand(world.db, { action: 'add', name: 'team-wiki', redirectUris: [REDIRECT_URI], backchannelLogoutUri: receiver.url, consent: false }, new Date());
      const jiraAdded = await runOidcClientCommand(world.db, { action: 'add', name: 'jira', redirectUris: [REDIRECT_URI], service: 'jira', consent: false }, new Date());
      wiki = { id: wikiAdded.client_id ?? '', secret: wikiAdded.client_secret ?? '' };
      jira = { id: jiraAdded.client_id ?? '', secret: jiraAdded.client_secret ?? '' };
    });
    after(async () => {
      await receiver.close();
      await world.close();
    });

    /** A user signed in to the wiki: the account, its portal session, its browser, the wiki's configuration and tokens. */
    async function signedInToWiki(name: string) {
      const { account, who } = await signedIn(world, unique(name));
      const browser = new Browser(base);
      browser.set(who.cookie);
      const wikiConfig = await discover(wiki);
      const wikiTokens = await exchange(wikiConfig, await codeFor(browser, wikiConfig));
      return { account, who, browser, wikiConfig, wikiTokens };
    }

    const listOwn = async (who: Parameters<typeof call>[1]) => {
      const answer = await call(world.app, who, 'GET', '/service-sign-ins');
      assert.equal(answer.statusCode, 200, answer.body);
      return JSON.parse(answer.body) as Listed;
    };

    test('without any OpenID client registered: the list is empty and says none is available', () => {
      assert.deepEqual(beforeAnyClient, { available: false, sign_ins: [] });
    });

    test("the user's own list and the administrator's name the client, its service, when the sign-in was made and when it ends", async () => {
      const started = Date.now();
      const { account, who, wikiTokens } = await signedInToWiki('lister');
      assert.ok(wikiTokens.refresh_token);
      const own = await listOwn(who);
      assert.equal(own.available, true);
      assert.deepEqual(own.sign_ins.map((row) => [row.client, row.service]), [['team-wiki', null]]);
      const [row] = own.sign_ins;
      const signedInAt = Date.parse(row?.signed_in_at ?? '');
      assert.ok(signedInAt >= Math.floor(started / 1000) * 1000 && signedInAt <= Date.now(), row?.signed_in_at);
      // The grant lasts as long as a portal session may (12 hours in the tests).
      const expiresAt = Date.parse(row?.expires_at ?? '');
      assert.ok(Math.abs(expiresAt - signedInAt - 12 * HOUR) < 5000, `${row?.signed_in_at} → ${row?.expires_at}`);

      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const listed = await call(world.app, admin.who, 'GET', `/accounts/${account.username}/service-sign-ins`);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(JSON.parse(listed.body), own);
    });

    test("refusals: without LOCK_ACCOUNT 403; an unknown account 404; an unknown client's name 404 with a message in words", async () => {
      const { account, who } = await signedInToWiki('refused');
      const other = await signedIn(world, unique('other'));
      assert.equal((await call(world.app, other.who, 'GET', `/accounts/${account.username}/service-sign-ins`)).statusCode, 403);
      assert.equal((await call(world.app, other.who, 'DELETE', `/accounts/${account.username}/service-sign-ins/team-wiki`)).statusCode, 403);
      assert.equal((await call(world.app, other.who, 'DELETE', `/accounts/${account.username}/service-sign-ins`)).statusCode, 403);
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const unknownAccount = await call(world.app, admin.who, 'GET', '/accounts/nobody-here/service-sign-ins');
      assert.equal(unknownAccount.statusCode, 404);
      assert.equal(JSON.parse(unknownAccount.body).error, 'Account not found.');
      assert.equal((await call(world.app, admin.who, 'DELETE', '/accounts/nobody-here/service-sign-ins/jira')).statusCode, 404);
      for (const answer of [
        await call(world.app, admin.who, 'DELETE', `/accounts/${account.username}/service-sign-ins/Nothing`),
        await call(world.app, who, 'DELETE', '/service-sign-ins/Nothing'),
      ]) {
        assert.equal(answer.statusCode, 404);
        assert.equal(JSON.parse(answer.body).error, 'No service called “Nothing” signs in through the portal.');
      }
      assert.equal((await listOwn(who)).sign_ins.length, 1, 'nothing ended');
    });

    test("an administrator ends one service's sign-in: its refresh token is refused, its client gets a verified logout token with the session's sid, the other service's sign-in and the provider session stay, and the history records it", async () => {
      const { account, who, browser, wikiTokens, wikiConfig } = await signedInToWiki('ended');
      // A second service, signed in to from the same browser (the same provider session).
      const group = unique('JIRAGROUP');
      await insertUserGroup(world.db, { id: group, name: group, description: 'Jira users', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: ['jira'] });
      await addMembership(world.db, group, account.id, `${group}-dev`);
      const jiraConfig = await discover(jira);
      const jiraTokens = await exchange(jiraConfig, await codeFor(browser, jiraConfig));
      assert.ok(wikiTokens.refresh_token && jiraTokens.refresh_token);
      assert.deepEqual((await listOwn(who)).sign_ins.map((row) => [row.client, row.service]), [['jira', 'jira'], ['team-wiki', null]]);

      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const told = receiver.tokens.length;
      const ended = await call(world.app, admin.who, 'DELETE', `/accounts/${account.username}/service-sign-ins/${'team-wiki'}`);
      assert.equal(ended.statusCode, 200, ended.body);
      const body = JSON.parse(ended.body) as { ended: number; sign_ins: ServiceSignIn[] };
      assert.equal(body.ended, 1);
      assert.deepEqual(body.sign_ins.map((row) => row.client), ['jira']);

      const sub = String(account.id);
      assert.deepEqual(await refusal(oidc.refreshTokenGrant(wikiConfig, wikiTokens.refresh_token)), { error: 'invalid_grant', status: 400 });
      assert.deepEqual(await refusal(oidc.fetchUserInfo(wikiConfig, wikiTokens.access_token, sub)), { error: 'invalid_token', status: 401 });
      assert.equal((await oidc.refreshTokenGrant(jiraConfig, jiraTokens.refresh_token)).claims()?.sub, sub);
      const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as Jwks;
      const logout = receiver.tokens.slice(told).map((token) => verifiedJwt(token, jwks).payload);
      assert.deepEqual(logout.map((payload) => [payload['aud'], payload['sub'], payload['sid']]), [[wiki.id, sub, wikiTokens.claims()?.sid]]);
      assert.equal(await count(world.db, "select 1 from oidc_models where model = 'Session' and payload->>'accountId' = $1", [sub]), 1, 'the provider session stays');
      assert.deepEqual((await listOwn(who)).sign_ins.map((row) => row.client), ['jira']);

      const history = await world.db.query<{ action: string; comment: string; username: string }>(
        'select action, comment, username from account_updates where account_id = $1 order by id',
        [account.id],
      );
      assert.deepEqual(history.rows.at(-1), { action: 'Service sign-in ended', comment: 'Sign-in to team-wiki ended by an account administrator.', username: admin.account.username });

      // Again: nothing is left to end, nothing is recorded.
      const again = await call(world.app, admin.who, 'DELETE', `/accounts/${account.username}/service-sign-ins/${'team-wiki'}`);
      assert.equal(again.statusCode, 200);
      assert.equal((JSON.parse(again.body) as { ended: number }).ended, 0);
      assert.equal(await count(world.db, 'select 1 from account_updates where account_id = $1', [account.id]), history.rows.length);

      // The browser signs in to the wiki again: the provider session is still signed in to the portal's account.
      const back = await exchange(wikiConfig, await codeFor(browser, wikiConfig));
      assert.equal(back.claims()?.sub, sub);
    });

    test('an administrator ends all of them: every refresh token is refused and the history names the services', async () => {
      const { account, wikiTokens, wikiConfig } = await signedInToWiki('all');
      assert.ok(wikiTokens.refresh_token);
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const ended = await call(world.app, admin.who, 'DELETE', `/accounts/${account.username}/service-sign-ins`);
      assert.equal(ended.statusCode, 200, ended.body);
      assert.deepEqual(JSON.parse(ended.body), { ended: 1, sign_ins: [] });
      assert.deepEqual(await refusal(oidc.refreshTokenGrant(wikiConfig, wikiTokens.refresh_token)), { error: 'invalid_grant', status: 400 });
      assert.equal(await count(world.db, "select 1 from oidc_models where model in ('Session', 'Grant') and payload->>'accountId' = $1", [String(account.id)]), 0);
      const [last] = (await world.db.query<{ comment: string }>('select comment from account_updates where account_id = $1 order by id desc limit 1', [account.id])).rows;
      assert.equal(last?.comment, 'Sign-in to team-wiki ended by an account administrator.');
    });

    test('the user signs out of a service from the profile: its refresh token is refused; the history has nothing of it', async () => {
      const { account, who, wikiTokens, wikiConfig } = await signedInToWiki('self');
      assert.ok(wikiTokens.refresh_token);
      const updates = await count(world.db, 'select 1 from account_updates where account_id = $1', [account.id]);
      const ended = await call(world.app, who, 'DELETE', `/service-sign-ins/${'team-wiki'}`);
      assert.equal(ended.statusCode, 200, ended.body);
      assert.deepEqual(JSON.parse(ended.body), { ended: 1, sign_ins: [] });
      assert.deepEqual(await refusal(oidc.refreshTokenGrant(wikiConfig, wikiTokens.refresh_token)), { error: 'invalid_grant', status: 400 });
      assert.equal(await count(world.db, 'select 1 from account_updates where account_id = $1', [account.id]), updates);
      // The portal's own session goes on.
      assert.equal((await call(world.app, who, 'GET', '/sessions/current')).statusCode, 200);
    });

    test('a sign-in past its expiry is not listed', async () => {
      const { account } = await signedInToWiki('expired');
      const admin = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const listedNow = JSON.parse((await call(world.app, admin.who, 'GET', `/accounts/${account.username}/service-sign-ins`)).body) as Listed;
      assert.equal(listedNow.sign_ins.length, 1);
      world.clock.advance(13 * HOUR);
      const later = await signedIn(world, unique('admin'), { roles: ['site-admin'] });
      const listedLater = JSON.parse((await call(world.app, later.who, 'GET', `/accounts/${account.username}/service-sign-ins`)).body) as Listed;
      assert.deepEqual(listedLater, { available: true, sign_ins: [] });
    });
  });
}
