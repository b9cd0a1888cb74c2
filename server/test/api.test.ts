import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { ApiError } from '../src/errors.js';
import { REDACTED } from '../src/logger.js';
import { listApiRoutes } from '../src/plugins/route-access.js';
import {
  DATABASE_KINDS,
  createFixture,
  createTestApp,
  createTestDatabase,
  failingDatabase,
  parseLogs,
  type Fixture,
} from './helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

describe('GET /accounts/rest/configuration', () => {
  test("returns exactly the configuration fields (the spec's 14 and the portal's own 4) with the configured values", async () => {
    const app = createTestApp({
      db: failingDatabase(),
      fixture,
      portal: {
        brand: 'DevPlatform',
        email_domain: 'example.test',
        css_theme: 'dark',
        cac_support: false,
        supported_services: 'artifacts,jira',
        artifacts_token_default_expiry: 30,
      },
    });
    const response = await app.inject({ method: 'GET', url: '/accounts/rest/configuration' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.deepEqual(response.json(), {
      cac_support: false,
      auto_cert_registration_approval: true,
      brand: 'DevPlatform',
      email_domain: 'example.test',
      css_theme: 'dark',
      wiki_url: 'undefined',
      login_logo_filename: 'undefined',
      show_login_agreement: true,
      login_agreement_filename: 'undefined',
      supported_services: 'artifacts,jira',
      artifacts_token_max_expiry: 180,
      artifacts_token_default_expiry: 30,
      artifacts_token_revocable_expiry: 1,
      artifacts_profile_url: 'undefined',
      bitbucket_url: 'undefined',
      jira_url: 'undefined',
      login_help_url: 'undefined',
      service_origins: '',
    });
    assert.equal(Object.keys(response.json()).length, 18);
    await app.close();
  });
});

describe('GET /accounts/rest/health', () => {
  for (const kind of DATABASE_KINDS) {
    test(`200 when the database (${kind}) answers`, async () => {
      const db = await createTestDatabase(kind);
      const app = createTestApp({ db, fixture });
      const response = await app.inject({ method: 'GET', url: '/accounts/rest/health' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { status: 'ok', database: 'ok' });
      await app.close();
      await db.close();
    });
  }

  test('503 when the database does not answer, and the failure is logged', async () => {
    const logs: string[] = [];
    const app = createTestApp({ db: failingDatabase('connect ECONNREFUSED 10.0.0.5:5432'), fixture, logs });
    const response = await app.inject({ method: 'GET', url: '/accounts/rest/health' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.deepEqual(response.json(), { error: 'Database unavailable', code: 503 });
    assert.ok(!response.body.includes('ECONNREFUSED'));
    const entry = parseLogs(logs).find((l) => l.msg === 'health check: the database does not answer');
    assert.ok(entry, 'the failure is logged');
    assert.equal((entry.err as { message?: unknown }).message, 'connect ECONNREFUSED 10.0.0.5:5432');
    await app.close();
  });
});

describe('errors', () => {
  let app: App;
  let logs: string[];
  let db: Database;

  before(async () => {
    logs = [];
    db = await createTestDatabase();
    app = createTestApp({ db, fixture, logs });
    app.register(async (api) => {
      api.get('/boom', { config: { access: 'public', xsrf: false } }, async () => {
        throw new Error('relation "secrets" does not exist');
      });
      api.get('/teapot', { config: { access: 'public', xsrf: false } }, async () => {
        throw new ApiError(409, 'This email is already in use in the system.');
      });
      api.post(
        '/echo',
        {
          config: { access: 'public', xsrf: false },
          schema: {
            body: Type.Object({ name: Type.String({ minLength: 2, maxLength: 30 }) }, { additionalProperties: false }),
            response: { 200: Type.Object({ name: Type.String() }) },
          },
        },
        async (request) => request.body,
      );
      api.post('/login', { config: { access: 'public', xsrf: false } }, async (request) => {
        request.log.info({ headers: request.headers, body: request.body }, 'sign-in attempt');
        return { ok: true };
      });
    }, { prefix: '/accounts/rest/test' });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  test('an unknown API path is a 404 JSON error', async () => {
    for (const [method, url] of [['GET', '/accounts/rest/nothing-here'], ['GET', '/accounts/rest'], ['POST', '/accounts/rest/configuration'], ['DELETE', '/accounts/rest/health']] as const) {
      const response = await app.inject({ method, url, headers: { accept: 'text/html' } });
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(response.json(), { error: 'Not found', code: 404 });
    }
  });

  test('a thrown internal error is a 500 without its message or stack, and is logged', async () => {
    const response = await app.inject({ method: 'GET', url: '/accounts/rest/test/boom' });
    assert.equal(response.statusCode, 500);
    assert.equal(response.body, '{"error":"Internal server error","code":500}');
    const entry = parseLogs(logs).find((l) => l.msg === 'request failed');
    assert.ok(entry, 'the error is logged');
    const err = entry.err as { message?: unknown; stack?: unknown };
    assert.equal(err.message, 'relation "secrets" does not exist');
    assert.match(String(err.stack), /api\.test\.ts/);
  });

  test('an ApiError keeps its status and message', async () => {
    const response = await app.inject({ method: 'GET', url: '/accounts/rest/test/teapot' });
    assert.equal(response.statusCode, 409);
    assert.deepEqual(response.json(), { error: 'This email is already in use in the system.', code: 409 });
  });

  test('a validation error is a 400 in words a person understands, naming its field (never the validator text)', async () => {
    const missing = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json(), { error: 'Name: This field is required.', code: 400, fields: { name: 'This field is required.' } });

    const short = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: { name: 'x' } });
    assert.deepEqual(short.json(), { error: 'Name: Must be at least 2 characters', code: 400, fields: { name: 'Must be at least 2 characters' } });

    const long = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: { name: 'x'.repeat(31) } });
    assert.deepEqual(long.json(), { error: 'Name: Must be less than 30 characters (31/30)', code: 400, fields: { name: 'Must be less than 30 characters (31/30)' } });

    const wrongType = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: { name: { first: 'x' } } });
    assert.deepEqual(wrongType.json(), { error: 'Name: This value is not valid.', code: 400, fields: { name: 'This value is not valid.' } });

    const ok = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: { name: 'xy' } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { name: 'xy' });
  });

  test('an unknown body field is refused, not silently dropped', async () => {
    const response = await app.inject({ method: 'POST', url: '/accounts/rest/test/echo', payload: { name: 'xy', admin: true } });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: 'The field admin is not accepted.', code: 400 });
  });

  test('malformed JSON is a 400 without the parser message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/accounts/rest/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: 'Bad Request', code: 400 });
  });

  test('secrets in headers and bodies are redacted from the logs', async () => {
    logs.length = 0;
    const response = await app.inject({
      method: 'POST',
      url: '/accounts/rest/test/login',
      headers: { cookie: '__Host-portal=sess1', authorization: 'Bearer tok1', 'x-xsrf-token': 'xsrf1' },
      payload: { id: 'user', token: 'website-token-1', password: 'pw1' },
    });
    assert.equal(response.statusCode, 200);
    const text = logs.join('');
    for (const secret of ['sess1', 'tok1', 'xsrf1', 'website-token-1', 'pw1']) assert.ok(!text.includes(secret), secret);
    const entry = parseLogs(logs).find((l) => l.msg === 'sign-in attempt');
    assert.ok(entry);
    const headers = entry.headers as Record<string, unknown>;
    const body = entry.body as Record<string, unknown>;
    assert.equal(headers.cookie, REDACTED);
    assert.equal(headers.authorization, REDACTED);
    assert.equal(headers['x-xsrf-token'], REDACTED);
    assert.deepEqual(body, { id: 'user', token: REDACTED, password: REDACTED });
  });
});

describe('route access declarations', () => {
  test('the API routes and their declared access can be listed', async () => {
    const app = createTestApp({ db: failingDatabase(), fixture });
    await app.ready();
    assert.deepEqual(listApiRoutes(app), [
      { method: 'GET', url: '/accounts/rest/accounts/:username', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/accounts/:username', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/accounts/:username/history.csv', access: { kind: 'permission', permission: 'VIEW_ACCOUNT' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/accounts/:username/lock', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/accounts/:username/service-sign-ins', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/accounts/:username/service-sign-ins', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/accounts/:username/service-sign-ins/:client', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/accounts/:username/tokens', access: { kind: 'permission', permission: 'VIEW_ACCOUNT' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/accounts/:username/tokens/:id', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/accounts/:username/unlock', access: { kind: 'permission', permission: 'UNLOCK_ACCOUNT' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/accounts/botchallengeendpoint', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/accounts/credentials/reset', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/accounts/search', access: { kind: 'permission', permission: 'SEARCH_ACCOUNTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/accounts/verifyrequestisvalid', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/cert/requests/authchange', access: { kind: 'permission', permission: 'allow-authchange' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/cert/requests/authchange/token', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/cert/requests/new', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/cert/sessions', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/configuration', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/federation', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/federation/history', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/federation/history.csv', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/federation/pins', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/federation/previews/:remote', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'PUT', url: '/accounts/rest/federation/previews/:remote', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/federation/rollbacks', access: { kind: 'permission', permission: 'MANAGE_REMOTES' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/forward-auth/:service', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/health', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/login-agreement', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/mail/verifywithbotchallenge', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/mailinglists', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/mailinglists/:id', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/mailinglists/:id', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/mailinglists/:id/held', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/mailinglists/:id/held', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/mailinglists/:id/members', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/memberships/search', access: { kind: 'session' }, xsrf: true, groupPermission: 'VIEW_MEMBERSHIP' },
      { method: 'GET', url: '/accounts/rest/moderation/held', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/openapi.json', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/provisioning', access: { kind: 'permission', permission: 'MANAGE_PROVISIONING' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/provisioning/history.csv', access: { kind: 'permission', permission: 'MANAGE_PROVISIONING' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/provisioning/reconcile', access: { kind: 'permission', permission: 'MANAGE_PROVISIONING' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/provisioning/retry', access: { kind: 'permission', permission: 'MANAGE_PROVISIONING' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests', access: { kind: 'permission', permission: 'VIEW_REQUEST_SUMMARY' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/authchange', access: { kind: 'permission', permission: 'LIST_AUTH_CHANGE_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/authchange', access: { kind: 'permission', permission: 'allow-authchange' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/authchange/:id', access: { kind: 'permission', permission: 'VIEW_AUTH_CHANGE_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/authchange/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_AUTH_CHANGE_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/authchange/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_AUTH_CHANGE_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/close', access: { kind: 'permission', permission: 'SUBMIT_SURROGATE_REQUEST' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/mailinglist', access: { kind: 'permission', permission: 'LIST_MAILING_LIST_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/mailinglist', access: { kind: 'session' }, xsrf: true, groupPermission: 'SUBMIT_MAILING_LIST_REQUEST' },
      { method: 'GET', url: '/accounts/rest/requests/mailinglist/:id', access: { kind: 'permission', permission: 'VIEW_MAILING_LIST_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/mailinglist/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_MAILING_LIST_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/mailinglist/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_MAILING_LIST_REQUEST' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/membership', access: { kind: 'session' }, xsrf: true, groupPermission: 'LIST_MEMBERSHIP_REQUESTS' },
      { method: 'GET', url: '/accounts/rest/requests/membership/:id', access: { kind: 'session' }, xsrf: true, groupPermission: 'VIEW_MEMBERSHIP_REQUEST' },
      { method: 'POST', url: '/accounts/rest/requests/membership/:id/approved', access: { kind: 'session' }, xsrf: true, groupPermission: 'ADJUDICATE_MEMBERSHIP_REQUEST' },
      { method: 'POST', url: '/accounts/rest/requests/membership/:id/denied', access: { kind: 'session' }, xsrf: true, groupPermission: 'ADJUDICATE_MEMBERSHIP_REQUEST' },
      { method: 'POST', url: '/accounts/rest/requests/membership/new', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/membership/update', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/new', access: { kind: 'permission', permission: 'LIST_NEW_ACCOUNT_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/new', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/requests/new/:id', access: { kind: 'permission', permission: 'VIEW_NEW_ACCOUNT_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/new/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_NEW_ACCOUNT_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/new/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_NEW_ACCOUNT_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/new/:id/incomplete', access: { kind: 'permission', permission: 'ADJUDICATE_NEW_ACCOUNT_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/new/pending', access: { kind: 'public' }, xsrf: false },
      { method: 'POST', url: '/accounts/rest/requests/new/status', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/requests/profilechange', access: { kind: 'permission', permission: 'LIST_EMAIL_CHANGE_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/profilechange', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/profilechange/:id', access: { kind: 'permission', permission: 'VIEW_EMAIL_CHANGE_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/profilechange/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_EMAIL_CHANGE_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/profilechange/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_EMAIL_CHANGE_REQUEST' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/profilechange/email-exists', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/renewal', access: { kind: 'permission', permission: 'RENEW_ACCOUNT' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/search-denied', access: { kind: 'permission', permission: 'LIST_NEW_ACCOUNT_REQUESTS' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/unlock', access: { kind: 'permission', permission: 'LIST_UNLOCK_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/unlock', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/requests/unlock/:id', access: { kind: 'permission', permission: 'VIEW_UNLOCK_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/unlock/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_UNLOCK_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/unlock/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_UNLOCK_REQUEST' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/usergroup', access: { kind: 'permission', permission: 'LIST_USER_GROUP_REQUESTS' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/usergroup', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/requests/usergroup/:id', access: { kind: 'permission', permission: 'VIEW_USER_GROUP_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/usergroup/:id/approved', access: { kind: 'permission', permission: 'ADJUDICATE_USER_GROUP_REQUEST' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/requests/usergroup/:id/denied', access: { kind: 'permission', permission: 'ADJUDICATE_USER_GROUP_REQUEST' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/service-access/:username', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/service-sign-ins', access: { kind: 'session' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/service-sign-ins/:client', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/sessions', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/sessions/current', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/sessions/end-all', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/sessions/httpsession', access: { kind: 'public' }, xsrf: false },
      { method: 'GET', url: '/accounts/rest/sessions/logout', access: { kind: 'public' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/subscriptions/:username', access: { kind: 'session' }, xsrf: true },
      { method: 'PUT', url: '/accounts/rest/subscriptions/:username', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/tokens', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/tokens', access: { kind: 'session' }, xsrf: true },
      { method: 'DELETE', url: '/accounts/rest/tokens/:id', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/tokens/groups', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/usergroups', access: { kind: 'session' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/usergroups/:id', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/usergroups/:id', access: { kind: 'session' }, xsrf: true, groupPermission: 'EDIT_USER_GROUP' },
      { method: 'POST', url: '/accounts/rest/usergroups/:id/candidates', access: { kind: 'session' }, xsrf: true, groupPermission: 'ADJUDICATE_MEMBERSHIP_REQUEST' },
      { method: 'GET', url: '/accounts/rest/usergroups/:id/mailinglists', access: { kind: 'session' }, xsrf: true, groupPermission: 'VIEW_MEMBERSHIP' },
      { method: 'DELETE', url: '/accounts/rest/usergroups/:id/permission-group/:group', access: { kind: 'session' }, xsrf: true, groupPermission: 'EDIT_USER_GROUP' },
      { method: 'POST', url: '/accounts/rest/usergroups/:id/permission-group/:group', access: { kind: 'session' }, xsrf: true, groupPermission: 'EDIT_USER_GROUP' },
      { method: 'GET', url: '/accounts/rest/xsrf', access: { kind: 'public' }, xsrf: false },
    ]);
    await app.close();
  });

  test('session and permission declarations are recorded', async () => {
    const app = createTestApp({ db: failingDatabase(), fixture });
    app.register(async (api) => {
      api.get('/accounts/rest/test/mine', { config: { access: 'session' } }, async () => ({}));
      api.post('/accounts/rest/test/:username/lock', { config: { permission: 'LOCK_ACCOUNT' } }, async () => ({}));
      api.post('/accounts/rest/test/open', { config: { access: 'public', xsrf: false } }, async () => ({}));
    });
    await app.ready();
    const routes = listApiRoutes(app).filter((r) => r.url.includes('/test/'));
    assert.deepEqual(routes, [
      { method: 'POST', url: '/accounts/rest/test/:username/lock', access: { kind: 'permission', permission: 'LOCK_ACCOUNT' }, xsrf: true },
      { method: 'GET', url: '/accounts/rest/test/mine', access: { kind: 'session' }, xsrf: true },
      { method: 'POST', url: '/accounts/rest/test/open', access: { kind: 'public' }, xsrf: false },
    ]);
    await app.close();
  });

  const broken: [string, Record<string, unknown>, RegExp][] = [
    ['no declaration', {}, /GET \/accounts\/rest\/forgotten: every route under \/accounts\/rest must declare config\.access \('public' or 'session'\) or config\.permission/],
    ['both', { access: 'public', permission: 'VIEW_ACCOUNT' }, /declare either config\.access or config\.permission, not both/],
    ['an unknown permission', { permission: 'VIEW_EVERYTHING' }, /'VIEW_EVERYTHING' is not a permission/],
    ['an unknown access', { access: 'anyone' }, /config\.access must be 'public' or 'session', not 'anyone'/],
    ['a non-boolean xsrf', { access: 'public', xsrf: 'no' }, /config\.xsrf must be true or false, not 'no'/],
  ];
  for (const [name, config, message] of broken) {
    test(`a route under /accounts/rest with ${name} stops the app from starting`, async () => {
      const app = createTestApp({ db: failingDatabase(), fixture });
      app.register(async (api) => {
        api.get('/forgotten', { config }, async () => ({}));
      }, { prefix: '/accounts/rest' });
      await assert.rejects(async () => void (await app.ready()), (error: Error) => {
        assert.equal(error.name, 'RouteDeclarationError');
        assert.match(error.message, message);
        return true;
      });
      await app.close();
    });
  }

  test('routes outside /accounts/rest need no declaration', async () => {
    const app = createTestApp({ db: failingDatabase(), fixture });
    app.register(async (other) => {
      other.get('/accounts/restless', async () => ({}));
    });
    await app.ready();
    assert.ok(listApiRoutes(app).every((r) => r.url.startsWith('/accounts/rest/')));
    await app.close();
  });
});
