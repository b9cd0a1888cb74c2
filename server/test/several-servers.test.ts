/**
 * Several servers on one PostgreSQL: two real server processes (`src/main.ts`) on two
 * ports, one database schema, talked to over HTTP with one cookie jar, as a browser behind a
 * reverse proxy that sends each request to either. Everything a request leaves behind must be in
 * the database, so that the other server sees it: sessions, anti-forgery tokens, failed sign-in
 * counts and lockouts, used challenges, verification codes and their tries; the outbox is
 * delivered once (counted at a real SMTP server); both serve the same configuration.
 *
 * PostgreSQL only (the embedded database is one process's by design): skipped without DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as api from '@portal/api';
import { RATE_LIMIT_NAMES, type AnyEndpoint, type RateLimitName } from '@portal/api';
import type { Database } from '../src/db/database.js';
import { enqueueMail } from '../src/services/mail.js';
import { DEFAULT_RATE_LIMITS } from '../src/services/rate-limits.js';
import { API, createAccount, type TestAccount } from './auth-helpers.js';
import { POSTGRES_URL, createFixture, createPostgresSchema, type Fixture, type PostgresSchema } from './helpers.js';
import { Browser, solvedChallenge } from './http-browser.js';
import { startSmtpCatcher, waitFor, type SmtpCatcher } from './mail-helpers.js';
import { portalEnv, runningUrl, startMain, type Running } from './process-helpers.js';

const SKIP = POSTGRES_URL ? false : 'needs PostgreSQL: set DATABASE_URL (several servers share one PostgreSQL; the embedded database is one process\'s)';

const MAX_FAILURES = 4;
const MAIL_POLL_MS = 100;
const BRAND = 'Shared Platform';

const INVALID_CHALLENGE = { error: 'Invalid Security Challenge Response', code: 400 };
const INVALID_CREDENTIALS = { error: 'Invalid username or website token.', code: 401 };
const LOCKED = { error: 'This account is locked. Please request an unlock.', code: 423 };
const NOT_SIGNED_IN = { error: 'Not signed in', code: 401 };
const INVALID_CODE = { error: 'The verification code is invalid or has expired.', code: 401 };
const CODE_IN_MAIL = /Your verification code is ([0-9]{6})\./;

describe('several servers on one PostgreSQL', { skip: SKIP }, () => {
  let fixture: Fixture;
  let dataDir: string;
  let schema: PostgresSchema;
  let db: Database;
  let smtp: SmtpCatcher;
  let servers: Running[] = [];
  /** The two servers' addresses: a and b. */
  let a = '';
  let b = '';
  let accountNumber = 0;

  const account = (options: { token?: string } = {}): Promise<TestAccount> =>
    createAccount(db, { username: `several.${++accountNumber}`, ...options });

  before(async () => {
    fixture = createFixture();
    dataDir = mkdtempSync(join(tmpdir(), 'portal-several-'));
    const configFile = join(dataDir, 'portal.json');
    writeFileSync(configFile, JSON.stringify({ brand: BRAND, email_domain: 'example.test', wiki_url: 'https://wiki.example.test/' }));
    schema = await createPostgresSchema();
    db = schema.open();
    smtp = await startSmtpCatcher();
    const url = new URL(POSTGRES_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema.name}`);
    // Both start at once on an empty schema: they migrate it once between them (advisory lock).
    servers = ['a', 'b'].map((name) =>
      startMain({
        ...portalEnv(fixture, join(dataDir, name)),
        DATABASE_URL: url.toString(),
        PORTAL_CONFIG_FILE: configFile,
        PORTAL_CHALLENGE_COST: '1',
        PORTAL_LOGIN_MAX_FAILURES: String(MAX_FAILURES),
        // The test speaks for several client addresses through X-Forwarded-For, as a proxy would.
        PORTAL_TRUSTED_PROXIES: '127.0.0.1',
        SMTP_URL: smtp.url,
        // Each server's mail says which of them sent it (the envelope's sender).
        MAIL_FROM: `server-${name}@example.test`,
        PORTAL_MAIL_POLL_MS: String(MAIL_POLL_MS),
      }),
    );
    [a = '', b = ''] = await Promise.all(servers.map((running) => runningUrl(running)));
  });

  after(async () => {
    for (const running of servers) running.child.kill('SIGTERM');
    const exits = await Promise.all(servers.map((running) => running.exit));
    for (const running of servers) running.child.kill('SIGKILL');
    await smtp?.close();
    await schema?.drop();
    fixture?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    assert.deepEqual(exits, [{ code: 0, signal: null }, { code: 0, signal: null }], servers.map((s) => s.output()).join('\n'));
  });

  test('both started on the one schema, migrated once, and answer', async () => {
    assert.notEqual(a, b);
    for (const base of [a, b]) assert.deepEqual((await new Browser().get(base, '/health')).body, { status: 'ok', database: 'ok' });
    const { rows } = await db.query<{ n: number; distinct: number }>('select count(*)::int as n, count(distinct version)::int as distinct from schema_migrations');
    assert.equal(rows[0]?.n, rows[0]?.distinct, 'each migration recorded once');
  });

  test('a session started on one server continues on the other; its anti-forgery token is the same on both; ending it on one ends it on both', async () => {
    const person = await account();
    const browser = new Browser();
    const signedIn = await browser.post(a, '/sessions', { id: person.username, token: person.token, botChallengeResponse: await solvedChallenge(a) });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.deepEqual(browser.cookieNames(), ['portal-session']);
    const sessionCookie = browser.cookieHeader();
    assert.equal((await browser.get(b, '/xsrf')).status, 200);
    const tokenOfB = browser.xsrf;
    assert.equal((await browser.get(a, '/xsrf')).status, 200);
    assert.equal(browser.xsrf, tokenOfB, 'one anti-forgery token for the session, whichever server derives it');
    assert.equal(browser.cookieHeader(), sessionCookie, 'no new session was started');
    for (const base of [b, a, b]) {
      const current = await browser.get(base, '/sessions/current');
      assert.equal(current.status, 200, base);
      assert.equal((current.body as { username: string }).username, person.username);
    }

    // A POST to b with the token is accepted; without it, or with another session's, refused.
    const other = new Browser();
    await other.get(b, '/xsrf');
    assert.ok(other.xsrf !== undefined && other.xsrf !== browser.xsrf);
    for (const xsrf of [null, other.xsrf]) {
      const forged = await browser.post(b, '/sessions/end-all', {}, { xsrf });
      assert.equal(forged.status, 403, `with ${xsrf === null ? 'no token' : "another session's token"}`);
    }
    assert.equal((await browser.get(a, '/sessions/current')).status, 200, 'nothing ended');
    const ended = await browser.post(b, '/sessions/end-all', {});
    assert.equal(ended.status, 200, JSON.stringify(ended.body));
    assert.deepEqual(ended.body, { ok: true, ended: 1 });

    // The ended session's cookie and token sent again (a stale tab): neither server knows it any more.
    for (const base of [a, b]) {
      const stale = await fetch(`${base}${API}/sessions/current`, { headers: { cookie: sessionCookie, 'x-xsrf-token': tokenOfB ?? '' } });
      assert.equal(stale.status, 401, base);
      assert.deepEqual(await stale.json(), NOT_SIGNED_IN);
    }
  });

  test('a solved challenge is accepted once across both servers: signed by one, accepted by the other, then refused by both', async () => {
    const person = await account();
    const botChallengeResponse = await solvedChallenge(a);
    const payload = { id: person.username, token: person.token, botChallengeResponse };
    const first = await new Browser().post(b, '/sessions', payload);
    assert.equal(first.status, 200, 'a challenge of a is accepted by b (one generated secret, in the database)');
    for (const base of [a, b]) assert.deepEqual((await new Browser().post(base, '/sessions', payload)).body, INVALID_CHALLENGE, base);
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from server_secrets where name = 'challenge'");
    assert.deepEqual(rows, [{ n: 1 }]);
  });

  test('failed sign-ins count across both servers and lock the account on both, ending its sessions on both', async () => {
    const person = await account();
    const browser = new Browser();
    assert.equal((await browser.post(a, '/sessions', { id: person.username, token: person.token, botChallengeResponse: await solvedChallenge(a) })).status, 200);
    await browser.get(b, '/xsrf');
    assert.equal((await browser.get(b, '/sessions/current')).status, 200);
    const attempt = async (base: string, token: string) =>
      new Browser().post(base, '/sessions', { id: person.username, token, botChallengeResponse: await solvedChallenge(base) });
    const bases = [a, b, a, b];
    for (let i = 1; i < MAX_FAILURES; i++) {
      const base = bases[i - 1] ?? a;
      const failed = await attempt(base, 'wrong');
      assert.deepEqual(failed.body, INVALID_CREDENTIALS, `failure ${i} on ${base}`);
    }
    const last = await attempt(bases[MAX_FAILURES - 1] ?? b, 'wrong');
    assert.deepEqual(last.body, LOCKED, `the ${MAX_FAILURES}th failure, spread over both servers, locks`);
    for (const base of [a, b]) {
      assert.deepEqual((await attempt(base, person.token)).body, LOCKED, `${base}: locked, even with the right token`);
      assert.equal((await browser.get(base, '/sessions/current')).status, 401, `${base}: the session signed in on a ended`);
    }
  });

  test('an unknown identifier is locked out alike across both servers', async () => {
    const attempt = async (base: string) =>
      new Browser().post(base, '/sessions', { id: 'nobody.here', token: 'wrong', botChallengeResponse: await solvedChallenge(base) });
    for (let i = 1; i < MAX_FAILURES; i++) assert.deepEqual((await attempt(i % 2 === 1 ? a : b)).body, INVALID_CREDENTIALS, `failure ${i}`);
    assert.deepEqual((await attempt(b)).body, LOCKED);
    assert.deepEqual((await attempt(a)).body, LOCKED);
  });

  test('a verification code mailed through one server is good on the other; its wrong tries count across both', async () => {
    const person = await account();
    const mailedCode = async (via: string): Promise<string> => {
      const before = smtp.received.length;
      const asked = await new Browser().post(via, '/mail/verifywithbotchallenge', { email: person.email, botChallengeResponse: await solvedChallenge(via) });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      const mail = await waitFor(`the code mail to ${person.email}`, () =>
        smtp.received.slice(before).find((m) => m.rcptTo.includes(person.email) && CODE_IN_MAIL.test(m.text)),
      );
      return CODE_IN_MAIL.exec(mail.text)?.[1] ?? '';
    };
    const verify = (base: string, code: string) =>
      fetch(`${base}${API}/accounts/verifyrequestisvalid`, {
        method: 'POST',
        headers: { authorization: `Bearer ${code}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: person.email }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const code = await mailedCode(a);
    assert.equal((await verify(b, code)).status, 200, 'asked for on a, good on b');
    assert.equal((await verify(a, code)).status, 200, 'and on a');

    const next = await mailedCode(b);
    for (const base of [a, b, a, b]) assert.deepEqual((await verify(base, wrong(next))).body, INVALID_CODE);
    assert.equal((await verify(a, next)).status, 200, 'four wrong tries do not kill it');
    assert.deepEqual((await verify(b, wrong(next))).body, INVALID_CODE);
    for (const base of [a, b]) assert.deepEqual((await verify(base, next)).body, INVALID_CODE, `${base}: dead after the fifth wrong try, made on the two servers`);
  });

  test('the outbox is delivered once: two workers, each mail received exactly once by the SMTP server', async () => {
    const count = 60;
    const before = smtp.received.length;
    const subjects = Array.from({ length: count }, (_, i) => `Several servers ${i + 1}`);
    await db.transaction(async (tx) => {
      for (const subject of subjects) await enqueueMail(tx, { to: 'outbox.reader@example.test', subject, text: `${subject}.` });
    });
    await waitFor(`${count} mails`, () => smtp.received.length - before >= count || undefined, 30_000);
    // A few more polls of both workers: nothing is sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 10 * MAIL_POLL_MS));
    const received = smtp.received.slice(before).filter((m) => m.rcptTo.includes('outbox.reader@example.test'));
    assert.deepEqual(received.map((m) => m.headers.subject).sort(), [...subjects].sort(), 'each mail once');
    const bySender = new Map<string, number>();
    for (const mail of received) bySender.set(mail.from, (bySender.get(mail.from) ?? 0) + 1);
    assert.deepEqual([...bySender.keys()].sort(), ['server-a@example.test', 'server-b@example.test'], `both workers delivered: ${JSON.stringify([...bySender])}`);
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from mail_outbox where to_address = 'outbox.reader@example.test' and sent_at is null");
    assert.deepEqual(rows, [{ n: 0 }], 'all marked sent');
  });

  test('a flood of sign-ins from one address, spread over both servers, meets one limit; a person at another address still signs in', async () => {
    // The default limit (30 sign-ins a minute per address), counted in fixed minutes: start with
    // time to spare in this one, so that the flood falls in one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
    const flooder = new Browser({ 'x-forwarded-for': '198.51.100.66' });
    const statuses: number[] = [];
    for (let i = 0; i < 36; i++) {
      statuses.push((await flooder.post(i % 2 === 0 ? a : b, '/sessions', { id: 'nobody.here', token: 'wrong', botChallengeResponse: 'none' })).status);
    }
    assert.deepEqual(statuses.slice(0, 30), Array<number>(30).fill(400), 'the first 30 are answered (a challenge missing)');
    assert.deepEqual(statuses.slice(30), Array<number>(6).fill(429), 'then both servers refuse: the count is shared');
    const refused = await flooder.post(a, '/sessions', { id: 'nobody.here', token: 'wrong', botChallengeResponse: 'none' });
    assert.equal(refused.status, 429);
    assert.match((refused.body as { error: string }).error, /^Too many attempts from your network\. Please wait (\d+ seconds|1 minute) and try again\.$/);

    const person = await account();
    const elsewhere = { 'x-forwarded-for': '203.0.113.77' };
    const signedIn = await new Browser(elsewhere).post(b, '/sessions', { id: person.username, token: person.token, botChallengeResponse: await solvedChallenge(b, elsewhere) });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  });

  test('every limited call, flooded from one address over both servers, meets its one limit (the defaults)', async () => {
    const limited = Object.values(api).filter(
      (value): value is AnyEndpoint => typeof value === 'object' && value !== null && 'path' in value && 'limit' in value && value.limit !== undefined,
    );
    const seen = new Set<string>();
    for (const [i, endpoint] of limited.entries()) {
      const name = endpoint.limit as RateLimitName;
      if (seen.has(name)) continue; // one call of each limit (the others share its count)
      seen.add(name);
      const { max, windowSeconds } = DEFAULT_RATE_LIMITS[name] as { max: number; windowSeconds: number };
      // Fixed windows: start with time to spare in this one, so that the flood falls in one window.
      const windowMs = windowSeconds * 1000;
      const left = windowMs - (Date.now() % windowMs);
      if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
      // A new browser for each call: no cookie, so that a session start counts each time.
      const flooder = () => new Browser({ 'x-forwarded-for': `198.51.100.${100 + i}` });
      const path = endpoint.path.replace(/:([A-Za-z_]+)/g, 'x');
      const statuses: number[] = [];
      for (let n = 0; n <= max; n++) {
        const base = n % 2 === 0 ? a : b;
        statuses.push((await flooder().request(base, endpoint.method, path, endpoint.method === 'GET' ? { xsrf: null } : { body: {}, xsrf: null })).status);
      }
      assert.equal(statuses.filter((status) => status === 429).length, 1, `${name}: only the call past ${max} is refused (${statuses.join(' ')})`);
      assert.equal(statuses.at(-1), 429, `${name}: the call past the limit, on ${max % 2 === 0 ? 'a' : 'b'}`);
    }
    assert.deepEqual([...seen].sort(), [...RATE_LIMIT_NAMES].sort());
  });

  test('both serve the same portal configuration (from the one configuration file both are given)', async () => {
    const [fromA, fromB] = await Promise.all([a, b].map((base) => new Browser().get(base, '/configuration')));
    assert.equal(fromA?.status, 200);
    assert.deepEqual(fromB?.body, fromA?.body);
    assert.equal((fromA?.body as { brand: string }).brand, BRAND);
  });
});
