/**
 * Smart-card sign-in (POST /accounts/rest/cert/sessions) with certificates made here: a test CA,
 * DoD-style client certificates, the real server listening with HTTPS + requestCert, and real TLS
 * requests from node's https module; plus the reverse-proxy headers, trusted only from the
 * configured proxy address.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { bindCertificate } from '../src/repositories/certificates.js';
import { permissionsOf } from '../src/services/roles.js';
import { API, createAccount, sessionCookieOf } from './auth-helpers.js';
import { createTestCa, dodSubject, type TestCa, type TestCertificate } from './certificate-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

interface TlsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function tlsRequest(
  port: number,
  options: { method: string; path: string; ca: string; client?: TestCertificate; headers?: Record<string, string> },
): Promise<TlsResponse> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port,
        method: options.method,
        path: options.path,
        ca: options.ca,
        agent: false,
        headers: options.headers ?? {},
        ...(options.client ? { cert: options.client.pem, key: options.client.keyPem } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let fixture: Fixture;
let ca: TestCa;
let otherCa: TestCa;
let serverCert: TestCertificate;
let cards: Record<'john' | 'renamed' | 'stranger' | 'locked' | 'nameOnly' | 'foreign', TestCertificate>;

before(async () => {
  fixture = createFixture();
  ca = await createTestCa();
  otherCa = await createTestCa('CN=Somebody Else CA, O=Elsewhere, C=US');
  serverCert = await ca.issue('CN=localhost', { usage: 'server' });
  cards = {
    john: await ca.issue(dodSubject('DOE.JOHN.QUINCY.1234567890')),
    renamed: await ca.issue(dodSubject('SMITH.JOHN.QUINCY.1234567890')),
    stranger: await ca.issue(dodSubject('ROE.RICHARD.1111111111')),
    locked: await ca.issue(dodSubject('LOCK.LARRY.2222222222')),
    nameOnly: await ca.issue('CN=Jane Contractor, OU=CONTRACTOR, O=Example Corp, C=US'),
    foreign: await otherCa.issue(dodSubject('DOE.JOHN.QUINCY.1234567890')),
  };
});
after(() => fixture.remove());

const NO_CERTIFICATE = { error: 'No verified client certificate was presented.', code: 400 };
const UNKNOWN = { error: 'No account is registered for this certificate.', code: 404 };
const UNUSABLE = { error: 'This account is locked or closed.', code: 401 };
const SMART_CARDS_OFF = { error: 'Smart cards are not supported on this portal.', code: 404 };

for (const kind of DATABASE_KINDS) {
  describe(`smart-card sign-in on ${kind}`, () => {
    let db: Database;
    let johnId: number;

    before(async () => {
      db = await createTestDatabase(kind);
      const john = await createAccount(db, { username: 'john.doe', roles: ['adjudicator'] });
      johnId = john.id;
      await bindCertificate(db, john.id, { identity: '1234567890', fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
      const locked = await createAccount(db, { username: 'larry.lock', state: 'locked' });
      await bindCertificate(db, locked.id, { identity: '2222222222', fingerprint: null, subject: null, issuer: null, validFrom: null, validUntil: null });
      const jane = await createAccount(db, { username: 'jane', roles: ['user'] });
      const fingerprint = Buffer.from(await cards.nameOnly.cert.getThumbprint('SHA-256')).toString('hex');
      await bindCertificate(db, jane.id, { identity: fingerprint, fingerprint, subject: null, issuer: null, validFrom: null, validUntil: null });
    });
    after(async () => {
      await db.close();
    });

    describe('over the server\'s own HTTPS listener (requestCert)', () => {
      let app: App;
      let port: number;

      before(async () => {
        app = createTestApp({ db, fixture, tls: { cert: serverCert.pem, key: serverCert.keyPem, clientCa: ca.pem } });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const address = app.server.address();
        port = typeof address === 'object' && address ? address.port : 0;
      });
      after(async () => {
        await app.close();
      });

      const signInWith = (client?: TestCertificate) => tlsRequest(port, { method: 'POST', path: `${API}/cert/sessions`, ca: ca.pem, ...(client ? { client } : {}) });

      test('a bound certificate signs in: a new session in a __Host- cookie, Secure', async () => {
        const response = await signInWith(cards.john);
        assert.equal(response.status, 200, response.body);
        assert.deepEqual(JSON.parse(response.body), { username: 'john.doe', permissions: permissionsOf(['adjudicator']) });
        const setCookie = String(response.headers['set-cookie']);
        assert.match(setCookie, /^__Host-portal-session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
        const cookie = setCookie.split(';')[0] ?? '';
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from sessions where account_id = $1', [johnId]);
        assert.equal(rows[0]?.n, 1);
        // The session works over TLS: its token, then the current user.
        const xsrf = await tlsRequest(port, { method: 'GET', path: `${API}/xsrf`, ca: ca.pem, headers: { cookie } });
        const token = (JSON.parse(xsrf.body) as { ok: string }).ok;
        const current = await tlsRequest(port, { method: 'GET', path: `${API}/sessions/current`, ca: ca.pem, headers: { cookie, 'x-xsrf-token': token } });
        assert.equal(current.status, 200);
        assert.equal((JSON.parse(current.body) as { username: string }).username, 'john.doe');
        // The plain cookie name means nothing over TLS.
        const plain = await tlsRequest(port, { method: 'GET', path: `${API}/sessions/current`, ca: ca.pem, headers: { cookie: `portal-session=${cookie.split('=')[1]}`, 'x-xsrf-token': token } });
        assert.equal(plain.status, 403);
      });

      test('without a card the site still works over TLS (the certificate is asked for, not required)', async () => {
        const response = await tlsRequest(port, { method: 'GET', path: `${API}/xsrf`, ca: ca.pem });
        assert.equal(response.status, 200);
        assert.match(String(response.headers['set-cookie']), /^__Host-portal-session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
        const certless = await signInWith();
        assert.equal(certless.status, 400);
        assert.deepEqual(JSON.parse(certless.body), NO_CERTIFICATE);
      });

      test('a certificate of another CA → 400', async () => {
        const response = await signInWith(cards.foreign);
        assert.equal(response.status, 400);
        assert.deepEqual(JSON.parse(response.body), NO_CERTIFICATE);
      });

      test('an unbound certificate → 404; a locked account → 401', async () => {
        const unknown = await signInWith(cards.stranger);
        assert.equal(unknown.status, 404);
        assert.deepEqual(JSON.parse(unknown.body), UNKNOWN);
        const locked = await signInWith(cards.locked);
        assert.equal(locked.status, 401);
        assert.deepEqual(JSON.parse(locked.body), UNUSABLE);
        assert.equal(locked.headers['set-cookie'], undefined);
      });

      test('the binding is the identity number, not the name: a renamed CN with the same number signs in', async () => {
        const response = await signInWith(cards.renamed);
        assert.equal(response.status, 200, response.body);
        assert.equal((JSON.parse(response.body) as { username: string }).username, 'john.doe');
        const { rows } = await db.query<{ subject: string; fingerprint: string }>("select subject, fingerprint from account_certificates where identity = '1234567890'");
        assert.match(rows[0]?.subject ?? '', /CN=SMITH\.JOHN\.QUINCY\.1234567890/);
        assert.equal(rows[0]?.fingerprint, Buffer.from(await cards.renamed.cert.getThumbprint('SHA-256')).toString('hex'));
      });

      test('a certificate without an identity number binds by its SHA-256 fingerprint', async () => {
        const response = await signInWith(cards.nameOnly);
        assert.equal(response.status, 200, response.body);
        assert.equal((JSON.parse(response.body) as { username: string }).username, 'jane');
      });

      test('a closed account → 401', async () => {
        await db.query("update accounts set closed = true, active = false where username = 'jane'");
        try {
          const response = await signInWith(cards.nameOnly);
          assert.equal(response.status, 401);
          assert.deepEqual(JSON.parse(response.body), UNUSABLE);
        } finally {
          await db.query("update accounts set closed = false, active = true where username = 'jane'");
        }
      });
    });

    describe('with smart cards off (cac_support false)', () => {
      let app: App;
      let port: number;

      before(async () => {
        app = createTestApp({ db, fixture, portal: { cac_support: false }, tls: { cert: serverCert.pem, key: serverCert.keyPem, clientCa: ca.pem } });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const address = app.server.address();
        port = typeof address === 'object' && address ? address.port : 0;
      });
      after(async () => {
        await app.close();
      });

      test('a bound card does not sign in: 404 and no session', async () => {
        const sessionsBefore = await db.query<{ n: number }>('select count(*)::int as n from sessions where account_id = $1', [johnId]);
        const response = await tlsRequest(port, { method: 'POST', path: `${API}/cert/sessions`, ca: ca.pem, client: cards.john });
        assert.equal(response.status, 404);
        assert.deepEqual(JSON.parse(response.body), SMART_CARDS_OFF);
        assert.equal(response.headers['set-cookie'], undefined);
        const sessionsAfter = await db.query<{ n: number }>('select count(*)::int as n from sessions where account_id = $1', [johnId]);
        assert.deepEqual(sessionsAfter.rows, sessionsBefore.rows);
      });

      test('every /cert and authentication-change route answers 404, whoever calls; the other routes still work', async () => {
        const cardRoutes = app.apiRoutes.filter((route) => route.url.startsWith(`${API}/cert/`) || route.url.startsWith(`${API}/requests/authchange`));
        assert.deepEqual(cardRoutes.map((route) => `${route.method} ${route.url}`).sort(), [
          'GET /accounts/rest/requests/authchange',
          'GET /accounts/rest/requests/authchange/:id',
          'POST /accounts/rest/cert/requests/authchange',
          'POST /accounts/rest/cert/requests/authchange/token',
          'POST /accounts/rest/cert/requests/new',
          'POST /accounts/rest/cert/sessions',
          'POST /accounts/rest/requests/authchange',
          'POST /accounts/rest/requests/authchange/:id/approved',
          'POST /accounts/rest/requests/authchange/:id/denied',
        ]);
        for (const route of cardRoutes) {
          const path = route.url.replace(':id', '1');
          const response = await tlsRequest(port, { method: route.method, path, ca: ca.pem, client: cards.john });
          assert.equal(response.status, 404, path);
          assert.deepEqual(JSON.parse(response.body), SMART_CARDS_OFF, path);
        }
        const configuration = await tlsRequest(port, { method: 'GET', path: `${API}/configuration`, ca: ca.pem });
        assert.equal(configuration.status, 200);
        assert.equal((JSON.parse(configuration.body) as { cac_support: boolean }).cac_support, false);
        // Another queue is still there: refused by the anti-forgery check, not absent.
        const emailQueue = await tlsRequest(port, { method: 'GET', path: `${API}/requests/profilechange`, ca: ca.pem });
        assert.deepEqual(JSON.parse(emailQueue.body), { error: 'Invalid anti-forgery token', code: 403 });
      });
    });

    describe('behind a reverse proxy (X-Client-Cert, X-Client-Verify)', () => {
      let app: App;
      before(async () => {
        app = createTestApp({ db, fixture, server: { trustedProxies: ['10.0.0.5'] } });
        await app.ready();
      });
      after(async () => {
        await app.close();
      });

      const viaProxy = (remoteAddress: string, card: TestCertificate, extra: Record<string, string> = {}) =>
        app.inject({
          method: 'POST',
          url: `${API}/cert/sessions`,
          remoteAddress,
          headers: { 'x-client-cert': encodeURIComponent(card.pem), 'x-client-verify': 'SUCCESS', ...extra },
        });

      test('honoured from the trusted proxy address; Secure __Host- cookie when it says https', async () => {
        const plain = await viaProxy('10.0.0.5', cards.john);
        assert.equal(plain.statusCode, 200, plain.body);
        assert.equal((plain.json() as { username: string }).username, 'john.doe');
        assert.ok(sessionCookieOf(plain)?.startsWith('portal-session='));
        const secure = await viaProxy('::ffff:10.0.0.5', cards.john, { 'x-forwarded-proto': 'https' });
        assert.equal(secure.statusCode, 200);
        const cookie = secure.cookies.find((c) => c.name === '__Host-portal-session');
        assert.ok(cookie);
        assert.equal(cookie.secure, true);
        assert.equal(cookie.httpOnly, true);
        assert.equal(cookie.sameSite, 'Lax');
        assert.equal(cookie.path, '/');
      });

      test('ignored from any other address, and when the proxy did not verify the certificate', async () => {
        const untrusted = await viaProxy('10.0.0.6', cards.john, { 'x-forwarded-proto': 'https' });
        assert.equal(untrusted.statusCode, 400);
        assert.deepEqual(untrusted.json(), NO_CERTIFICATE);
        assert.equal(untrusted.cookies.length, 0);
        const unverified = await viaProxy('10.0.0.5', cards.john, { 'x-client-verify': 'FAILED' });
        assert.deepEqual(unverified.json(), NO_CERTIFICATE);
        const garbage = await app.inject({ method: 'POST', url: `${API}/cert/sessions`, remoteAddress: '10.0.0.5', headers: { 'x-client-cert': 'not%20a%20certificate', 'x-client-verify': 'SUCCESS' } });
        assert.deepEqual(garbage.json(), NO_CERTIFICATE);
      });

      test('unknown and locked answer as over TLS', async () => {
        assert.deepEqual((await viaProxy('10.0.0.5', cards.stranger)).json(), UNKNOWN);
        assert.deepEqual((await viaProxy('10.0.0.5', cards.locked)).json(), UNUSABLE);
      });
    });
  });
}
