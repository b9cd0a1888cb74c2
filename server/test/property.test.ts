/**
 * Property tests (fast-check): random bodies and headers sent to the sign-in and challenge
 * endpoints never cause a 5xx, and no answer carries a stack trace or an internal message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { API, createAccount, solvedChallenge } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

/** Text that must never reach a caller: stack frames, internals, SQL and library messages. */
const LEAKS = /\bat [^\s]+ \(|\.ts:\d+|\.js:\d+|node_modules|stack|Internal server error|relation |syntax error|violates|TypeError|RangeError|ReferenceError|Cannot read|undefined is not|ERR_[A-Z_]+|argon2|pglite|postgres/i;

const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,24}$/)
  .filter((name) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade'].includes(name));
const headerValue = fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim());
const interestingHeaders = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'x/y'),
    'x-xsrf-token': headerValue,
    cookie: fc.oneof(headerValue, headerValue.map((v) => `portal-session=${v}`), headerValue.map((v) => `__Host-portal-session=${v}`)),
    'x-client-verify': fc.constantFrom('SUCCESS', 'FAILED', 'NONE', ''),
    'x-client-cert': fc.oneof(
      headerValue,
      fc.constant(encodeURIComponent('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')),
      fc.constant('%E0%A4%A'),
    ),
    'x-forwarded-proto': fc.constantFrom('https', 'http', 'ftp'),
    'x-forwarded-for': headerValue,
    accept: fc.constantFrom('application/json', 'text/html', '*/*'),
  },
  { requiredKeys: [] },
);
const randomHeaders = fc
  .tuple(interestingHeaders, fc.dictionary(headerName, headerValue, { maxKeys: 6 }))
  .map(([known, extra]) => ({ ...extra, ...known }));

/** Bodies: random JSON, random sign-in shapes, and sign-in shapes whose challenge response is base64 of random (or look-alike) JSON. */
const base64Of = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64');
const lookAlikePayload = fc.record({
  challenge: fc.record({
    parameters: fc.record(
      {
        algorithm: fc.constantFrom('PBKDF2/SHA-256', 'SHA-256', 'ARGON2ID', 'nope'),
        cost: fc.oneof(fc.integer(), fc.double(), fc.constant(1e12)),
        keyLength: fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.string()),
        keyPrefix: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,6}$/), fc.string()),
        nonce: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,40}$/), fc.string()),
        salt: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,40}$/), fc.string()),
        expiresAt: fc.oneof(fc.integer(), fc.constant(4_102_444_800), fc.string()),
      },
      { requiredKeys: [] },
    ),
    signature: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string()),
  }),
  solution: fc.record({ counter: fc.oneof(fc.integer(), fc.double(), fc.string()), derivedKey: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string()) }),
});
const challengeResponse = fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue().map(base64Of), lookAlikePayload.map(base64Of), fc.base64String({ maxLength: 400 }));
const signInBody = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('admin', 'ADMIN@example.test', ' admin '), fc.jsonValue()),
    token: fc.oneof(fc.string({ maxLength: 600 }), fc.jsonValue()),
    botChallengeResponse: fc.oneof(challengeResponse, fc.jsonValue()),
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof(fc.jsonValue(), signInBody, signInBody.chain((b) => fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 3 }).map((extra) => ({ ...extra, ...b }))));

function assertSafe(response: { statusCode: number; body: string; headers: Record<string, unknown> }, what: string): void {
  assert.ok(response.statusCode < 500, `${what}: ${response.statusCode} ${response.body}`);
  assert.doesNotMatch(response.body, LEAKS, what);
  if (response.statusCode >= 400) {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    // { error, code }, plus `fields` (each a field's message in words) when the error is about fields.
    assert.deepEqual(Object.keys(body).filter((k) => k !== 'fields').sort(), ['code', 'error'], what);
    assert.equal(typeof body.error, 'string', what);
    if ('fields' in body) {
      assert.ok(typeof body.fields === 'object' && body.fields !== null, what);
      for (const message of Object.values(body.fields as Record<string, unknown>)) assert.equal(typeof message, 'string', what);
    }
    // Never the validator's own words: they mean nothing to a person on a screen.
    assert.doesNotMatch(response.body, /must NOT|must have required|must be (integer|string|number|boolean|object|array)|body\/|params\//, what);
    assert.equal(body.code, response.statusCode, what);
  }
}

for (const kind of DATABASE_KINDS) {
  describe(`random requests on ${kind}`, () => {
    let db: Database;
    let app: App;

    before(async () => {
      db = await createTestDatabase(kind);
      // 127.0.0.1 (app.inject's address) is a trusted proxy here, so the certificate headers are read.
      app = createTestApp({ db, fixture, server: { trustedProxies: ['127.0.0.1'] } });
      await app.ready();
      await createAccount(db, { username: 'admin', roles: ['site-admin'] });
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    test('POST /sessions: random JSON bodies and headers', async () => {
      await fc.assert(
        fc.asyncProperty(bodies, randomHeaders, async (body, headers) => {
          const response = await app.inject({ method: 'POST', url: `${API}/sessions`, headers: { ...headers, 'content-type': headers['content-type'] ?? 'application/json' }, payload: JSON.stringify(body) });
          assertSafe(response, `POST /sessions ${JSON.stringify(body).slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });

    test('POST /sessions: a valid challenge with random credentials', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 255 }), fc.string({ maxLength: 512 }), async (id, token) => {
          const response = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { id, token, botChallengeResponse: await solvedChallenge(app) } });
          assertSafe(response, `POST /sessions id=${JSON.stringify(id)}`);
          assert.ok([401, 423].includes(response.statusCode), `${response.statusCode}`);
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    });

    test('POST /cert/sessions: random bodies and headers (certificate headers from a trusted proxy)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.option(bodies), randomHeaders, async (body, headers) => {
          const response = await app.inject({
            method: 'POST',
            url: `${API}/cert/sessions`,
            headers,
            ...(body === null ? {} : { payload: JSON.stringify(body) }),
          });
          assertSafe(response, `POST /cert/sessions ${JSON.stringify(headers).slice(0, 300)}`);
        }),
        { numRuns: RUNS },
      );
    });

    test('GET /accounts/botchallengeendpoint: random headers', async () => {
      await fc.assert(
        fc.asyncProperty(randomHeaders, fc.option(fc.string({ maxLength: 50 })), async (headers, query) => {
          const url = `${API}/accounts/botchallengeendpoint${query === null ? '' : `?${encodeURIComponent(query)}`}`;
          const response = await app.inject({ method: 'GET', url, headers });
          assertSafe(response, `GET ${url}`);
          assert.equal(response.statusCode, 200);
        }),
        { numRuns: RUNS },
      );
    });
  });
}
