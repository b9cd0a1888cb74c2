/**
 * The command line (src/cli.ts, run as its bundle, as dist/cli.mjs is run): create-admin with
 * the portal stopped (it opens the database itself) and with the portal running on the
 * embedded database (through the portal's socket). Both admins sign in with the printed token.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { enqueueMail } from '../src/services/mail.js';
import { ADMIN_CREATED_COMMENT } from '../src/services/admin.js';
import { permissionsOf } from '../src/services/roles.js';
import { API, MINUTE, TestClock, postSignIn } from './auth-helpers.js';
import { startSmtpCatcher, waitFor } from './mail-helpers.js';
import { portalEnv, runCli, runningUrl, startMain } from './process-helpers.js';
import { POSTGRES_URL, createFixture, createPostgresSchema, createTestApp, type Fixture } from './helpers.js';


let fixture: Fixture;
let dir: string;
before(() => {
  fixture = createFixture();
  dir = mkdtempSync(join(tmpdir(), 'portal-cli-'));
});
after(() => {
  fixture.remove();
  rmSync(dir, { recursive: true, force: true });
});

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

describe('portal create-admin', () => {
  test('bad input: a non-zero exit and a clear message, nothing opened', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'never') };
    const bad = await runCli(['create-admin', '--username', '1st', '--email', 'not-an-email'], env);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, '');
    assert.equal(
      bad.stderr,
      "Cannot create the administrator: The username '1st' is not valid: 2 to 20 characters, starting with a letter, then letters, digits, '.', '-' or '_'.\nThe email 'not-an-email' is not a valid email address.\n",
    );
    const long = await runCli(['create-admin', '--username', 'a'.repeat(21), '--email', 'a@example.test'], env);
    assert.equal(long.code, 1);
    assert.match(long.stderr, /The username 'a{21}' is not valid/);
    const missing = await runCli(['create-admin', '--username', 'ok.name'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^create-admin needs --email\.\n\nUsage: portal <command>/);
    const unknown = await runCli(['make-coffee'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^Unknown command 'make-coffee'\./);
    const option = await runCli(['create-admin', '--username', 'ok.name', '--email', 'a@example.test', '--admin'], env);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /Unknown option '--admin'/);
  });

  test('with the portal stopped: opens the embedded database itself; --json prints exactly one JSON line', async () => {
    const dataDir = join(dir, 'stopped');
    const result = await runCli(['create-admin', '--username', 'Root.Admin', '--email', 'root@example.test', '--json'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
    const lines = result.stdout.split('\n');
    assert.equal(lines.length, 2);
    assert.equal(lines[1], '');
    const printed = JSON.parse(lines[0] ?? '') as { username: string; token: string };
    assert.deepEqual(Object.keys(printed), ['username', 'token']);
    assert.equal(printed.username, 'Root.Admin');
    assert.match(printed.token, TOKEN);

    const again = await runCli(['create-admin', '--username', 'root.admin', '--email', 'other@example.test'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(again.code, 1);
    assert.equal(again.stderr, "Cannot create the administrator: An account with the username 'root.admin' already exists.\n");
    const sameEmail = await runCli(['create-admin', '--username', 'other', '--email', 'ROOT@example.test'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(sameEmail.code, 1);
    assert.equal(sameEmail.stderr, "Cannot create the administrator: An account with the email 'ROOT@example.test' already exists.\n");

    const db = await openPglite({ dataDir });
    try {
      const { rows } = await db.query<{ username: string; email: string; active: boolean; token_hash: string; roles: string[]; comment: string }>(
        `select a.username, a.email, a.active, a.token_hash,
                array(select role from account_roles r where r.account_id = a.id) as roles,
                (select comment from account_updates u where u.account_id = a.id) as comment
           from accounts a`,
      );
      assert.equal(rows.length, 1);
      assert.deepEqual({ ...rows[0], token_hash: undefined }, {
        username: 'Root.Admin',
        email: 'root@example.test',
        active: true,
        token_hash: undefined,
        roles: ['site-admin'],
        comment: ADMIN_CREATED_COMMENT,
      });
      assert.ok(!rows[0]?.token_hash.includes(printed.token), 'only the hash is stored');
      const app = createTestApp({ db, fixture });
      try {
        const signIn = await postSignIn(app, 'root.admin', printed.token);
        assert.equal(signIn.statusCode, 200);
        assert.deepEqual(signIn.json(), { username: 'Root.Admin', permissions: permissionsOf(['site-admin']) });
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  });

  test('with the portal running on the embedded database: goes through its socket', async () => {
    const dataDir = join(dir, 'running');
    const portal = startMain({ ...portalEnv(fixture, dataDir), PORTAL_CHALLENGE_COST: '1' });
    try {
      const url = await runningUrl(portal);

      const result = await runCli(['create-admin', '--username', 'live.admin', '--email', 'live@example.test'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(result.stderr, '');
      assert.equal(result.code, 0);
      const match = /^Site administrator 'live\.admin' created\.\nWebsite token \(shown only now; store it securely\): ([A-Za-z0-9_-]{43})\n$/.exec(result.stdout);
      assert.ok(match?.[1], result.stdout);
      const duplicate = await runCli(['create-admin', '--username', 'LIVE.ADMIN', '--email', 'x@example.test', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(duplicate.code, 1);
      assert.equal(duplicate.stdout, '');
      assert.equal(duplicate.stderr, "Cannot create the administrator: An account with the username 'LIVE.ADMIN' already exists.\n");

      // Sign in on the running portal with the printed token.
      const challengeResponse = await fetch(`${url}${API}/accounts/botchallengeendpoint`);
      const { ok: challenge } = (await challengeResponse.json()) as { ok: { parameters: never; signature: string } };
      const solution = await solveChallenge({ challenge, deriveKey });
      const botChallengeResponse = Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
      const signIn = await fetch(`${url}${API}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'live@example.test', token: match[1], botChallengeResponse }),
      });
      assert.equal(signIn.status, 200);
      assert.deepEqual(await signIn.json(), { username: 'live.admin', permissions: permissionsOf(['site-admin']) });
    } finally {
      portal.child.kill('SIGTERM');
      await portal.exit;
    }
  });

  const postgresUrl = POSTGRES_URL;
  if (postgresUrl) {
    test('with DATABASE_URL: connects to PostgreSQL directly', async () => {
      const schema = await createPostgresSchema();
      try {
        const url = new URL(postgresUrl);
        url.searchParams.set('options', `-c search_path=${schema.name}`);
        const result = await runCli(['create-admin', '--username', 'pg.admin', '--email', 'pg@example.test', '--json'], {
          DATABASE_URL: url.toString(),
          PORTAL_DATA_DIR: join(dir, 'unused'),
        });
        assert.equal(result.stderr, '');
        assert.equal(result.code, 0);
        const printed = JSON.parse(result.stdout) as { username: string; token: string };
        const db = schema.open();
        const app = createTestApp({ db, fixture });
        try {
          const signIn = await postSignIn(app, 'pg.admin', printed.token);
          assert.equal(signIn.statusCode, 200);
        } finally {
          await app.close();
        }
      } finally {
        await schema.drop();
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// mail list

/** In the past: the mails are due at once for a running portal (which goes by the system clock). */
const T0 = new Date('2020-01-01T12:00:00.000Z');
const MAILS = [
  { to: 'Jane.Doe@Example.test', subject: 'Your verification code', text: 'Your code is 123456.\nIt expires in 10 minutes.' },
  { to: 'someone.else@example.test', subject: 'Not for Jane', text: 'Other.' },
  { to: 'jane.doe@example.test', subject: 'Your new code', text: 'Your code is 654321.' },
];

/** Queues MAILS a minute apart (from T0) into an embedded database folder, then closes it. */
async function queueMails(dataDir: string): Promise<void> {
  const db = await openPglite({ dataDir });
  try {
    await migrate(db);
    const clock = new TestClock(T0);
    for (const mail of MAILS) {
      await db.transaction((tx) => enqueueMail(tx, mail, clock));
      clock.advance(MINUTE);
    }
  } finally {
    await db.close();
  }
}

const JANE_JSON = [
  '{"to":"jane.doe@example.test","subject":"Your new code","text":"Your code is 654321.","created_at":"2020-01-01T12:02:00.000Z","sent_at":null}',
  '{"to":"Jane.Doe@Example.test","subject":"Your verification code","text":"Your code is 123456.\\nIt expires in 10 minutes.","created_at":"2020-01-01T12:00:00.000Z","sent_at":null}',
  '',
].join('\n');

describe('portal mail list', () => {
  test('usage errors', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'never') };
    const noTo = await runCli(['mail', 'list'], env);
    assert.equal(noTo.code, 2);
    assert.match(noTo.stderr, /^mail list needs --to ADDRESS\.\n\nUsage: portal <command>/);
    const noSub = await runCli(['mail'], env);
    assert.equal(noSub.code, 2);
    assert.match(noSub.stderr, /^mail needs a subcommand: list\./);
    const badSub = await runCli(['mail', 'send', '--to', 'a@b.test'], env);
    assert.equal(badSub.code, 2);
    assert.match(badSub.stderr, /^Unknown mail subcommand 'send'\./);
    const option = await runCli(['mail', 'list', '--to', 'a@b.test', '--all'], env);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /Unknown option '--all'/);
  });

  test('with the portal stopped: reads the embedded database itself, newest first, any letter case', async () => {
    const dataDir = join(dir, 'mail-stopped');
    await queueMails(dataDir);
    const json = await runCli(['mail', 'list', '--to', 'JANE.DOE@example.TEST', '--json'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(json.stderr, '');
    assert.equal(json.code, 0);
    assert.equal(json.stdout, JANE_JSON);
    for (const line of json.stdout.trim().split('\n')) {
      assert.deepEqual(Object.keys(JSON.parse(line) as object), ['to', 'subject', 'text', 'created_at', 'sent_at']);
    }

    const text = await runCli(['mail', 'list', '--to', 'jane.doe@example.test'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(text.code, 0);
    assert.equal(
      text.stdout,
      [
        '2020-01-01T12:02:00.000Z  queued',
        'To: jane.doe@example.test',
        'Subject: Your new code',
        '',
        '  Your code is 654321.',
        '',
        '2020-01-01T12:00:00.000Z  queued',
        'To: Jane.Doe@Example.test',
        'Subject: Your verification code',
        '',
        '  Your code is 123456.',
        '  It expires in 10 minutes.',
        '',
        '',
      ].join('\n'),
    );
    const none = await runCli(['mail', 'list', '--to', 'nobody@example.test', '--json'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    const noneText = await runCli(['mail', 'list', '--to', 'nobody@example.test'], { PORTAL_DATA_DIR: dataDir });
    assert.equal(noneText.stdout, 'No mail to nobody@example.test.\n');
  });

  test('with the portal running: through its socket; with SMTP_URL the portal delivers the outbox and stops cleanly', async () => {
    const dataDir = join(dir, 'mail-running');
    await queueMails(dataDir);
    const smtp = await startSmtpCatcher();
    const portal = startMain({ ...portalEnv(fixture, dataDir), SMTP_URL: smtp.url, MAIL_FROM: 'portal@example.test', PORTAL_MAIL_POLL_MS: '100' });
    try {
      await runningUrl(portal);
      await waitFor('the delivery of the three mails', () => smtp.received.length === 3 || undefined);
      assert.deepEqual(smtp.received.map((m) => m.headers.subject), MAILS.map((m) => m.subject));
      assert.ok(smtp.received.every((m) => m.from === 'portal@example.test' && m.headers.from === 'portal@example.test'));
      assert.equal(smtp.received[0]?.text, MAILS[0]?.text);

      // The database is held by the portal: the command goes through its socket.
      const json = await runCli(['mail', 'list', '--to', 'jane.doe@EXAMPLE.test', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(json.stderr, '');
      assert.equal(json.code, 0);
      const lines = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { subject: string; created_at: string; sent_at: string | null });
      assert.deepEqual(lines.map((l) => [l.subject, l.created_at]), [
        ['Your new code', '2020-01-01T12:02:00.000Z'],
        ['Your verification code', '2020-01-01T12:00:00.000Z'],
      ]);
      assert.ok(lines.every((l) => typeof l.sent_at === 'string' && !Number.isNaN(Date.parse(l.sent_at))), json.stdout);
      assert.equal(
        json.stdout.replace(/"sent_at":"[^"]+"/g, '"sent_at":null'),
        JANE_JSON,
      );
    } finally {
      portal.child.kill('SIGTERM');
      assert.equal((await portal.exit).code, 0, portal.output());
      await smtp.close();
    }
    assert.equal(smtp.received.length, 3, 'each mail delivered once');
    assert.doesNotMatch(portal.output(), /error|failed/i);
  });

  const pgUrl = POSTGRES_URL;
  if (pgUrl) {
    test('with DATABASE_URL: reads PostgreSQL directly', async () => {
      const schema = await createPostgresSchema();
      try {
        const db = schema.open();
        await migrate(db);
        const clock = new TestClock(T0);
        for (const mail of MAILS) {
          await db.transaction((tx) => enqueueMail(tx, mail, clock));
          clock.advance(MINUTE);
        }
        const url = new URL(pgUrl);
        url.searchParams.set('options', `-c search_path=${schema.name}`);
        const result = await runCli(['mail', 'list', '--to', 'JANE.DOE@example.test', '--json'], { DATABASE_URL: url.toString(), PORTAL_DATA_DIR: join(dir, 'unused') });
        assert.equal(result.stderr, '');
        assert.equal(result.code, 0);
        assert.equal(result.stdout, JANE_JSON);
      } finally {
        await schema.drop();
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// service-credentials

describe('portal service-credentials', () => {
  const SECRET = /psc_[A-Za-z0-9_-]{43}/;
  const introspect = (url: string, name: string, secret: string) =>
    fetch(`${url}/oauth2/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` },
      body: 'token=ptk_unknown',
    });

  test('create, list, rotate and delete with the portal stopped; bad input is refused with a reason', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'credentials-stopped') };
    const created = await runCli(['service-credentials', 'create', 'artifact-proxy'], env);
    assert.equal(created.stderr, '');
    assert.equal(created.code, 0);
    assert.match(created.stdout, /^Credential 'artifact-proxy' created\.\nSecret \(shown only now; store it in the service's configuration\): psc_[A-Za-z0-9_-]{43}\n/);
    const again = await runCli(['service-credentials', 'create', 'artifact-proxy'], env);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, "Cannot change the service credentials: A credential for 'artifact-proxy' exists already. Use 'service-credentials rotate artifact-proxy' for a new secret.\n");
    const bad = await runCli(['service-credentials', 'create', 'Bad Name'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /'Bad Name' is not a service name/);
    const missing = await runCli(['service-credentials', 'rotate'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^service-credentials rotate needs a service name\./);

    const rotated = await runCli(['service-credentials', 'rotate', 'artifact-proxy', '--json'], env);
    assert.equal(rotated.code, 0);
    const printed = JSON.parse(rotated.stdout) as { name: string; secret: string };
    assert.equal(printed.name, 'artifact-proxy');
    assert.match(printed.secret, SECRET);
    assert.notEqual(printed.secret, SECRET.exec(created.stdout)?.[0]);

    const listed = await runCli(['service-credentials', 'list', '--json'], env);
    const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(rows.map((r) => r.name), ['artifact-proxy']);
    assert.ok(!listed.stdout.includes('psc_'), 'no secret is listed');
    const deleted = await runCli(['service-credentials', 'delete', 'artifact-proxy'], env);
    assert.equal(deleted.stdout, "Credential 'artifact-proxy' deleted.\n");
    assert.equal((await runCli(['service-credentials', 'list'], env)).stdout, 'No service credentials.\n');
  });

  test('with the portal running: the credential made through its socket authenticates introspection at once', async () => {
    const dataDir = join(dir, 'credentials-running');
    const portal = startMain(portalEnv(fixture, dataDir));
    try {
      const url = await runningUrl(portal);
      const created = await runCli(['service-credentials', 'create', 'wiki', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(created.stderr, '');
      const { secret } = JSON.parse(created.stdout) as { secret: string };
      const answer = await introspect(url, 'wiki', secret);
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { active: false });
      const rotated = await runCli(['service-credentials', 'rotate', 'wiki', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal((await introspect(url, 'wiki', secret)).status, 401, 'the old secret stops working at once');
      assert.equal((await introspect(url, 'wiki', (JSON.parse(rotated.stdout) as { secret: string }).secret)).status, 200);
    } finally {
      portal.child.kill('SIGTERM');
      await portal.exit;
    }
  });
});
