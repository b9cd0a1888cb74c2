/**
 * Mail: the outbox written inside the causing transaction, header injection refused, and the
 * worker delivering to a real SMTP server (smtp-server on 127.0.0.1), retrying with back-off
 * while it is down and delivering exactly once when it comes back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../src/db/database.js';
import { allMails } from '../src/repositories/mail.js';
import { checkMail, enqueueMail, listMail, MailError } from '../src/services/mail.js';
import {
  CLAIM_LEASE_MS,
  createMailWorker,
  FIRST_RETRY_DELAY_MS,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
  smtpTransport,
  type MailTransport,
  type OutgoingMail,
  withoutSecrets,
} from '../src/services/mail-worker.js';
import { MINUTE, TestClock } from './auth-helpers.js';
import { DATABASE_KINDS, createTestDatabase } from './helpers.js';
import { downSmtpPort, startSmtpCatcher, waitFor, type SmtpCatcher } from './mail-helpers.js';

const FROM = 'web@example.test';
const CODE_MAIL = { to: 'Jane.Doe@Example.test', subject: 'Your verification code', text: 'Your code is 123456.\nIt expires in 10 minutes.' };

/** A transport whose every send fails with this message (and records what it was given). */
function failingTransport(message: string): MailTransport & { tried: OutgoingMail[] } {
  const tried: OutgoingMail[] = [];
  return {
    tried,
    async send(mail) {
      tried.push(mail);
      throw new Error(message);
    },
    close() {},
  };
}

describe('mail rules', () => {
  test('header injection and bad addresses are refused with an Error', () => {
    const refused = (mail: Partial<typeof CODE_MAIL>, message: RegExp) =>
      assert.throws(() => checkMail({ ...CODE_MAIL, ...mail }), (error: Error) => {
        assert.ok(error instanceof MailError && error instanceof Error);
        assert.match(error.message, message);
        return true;
      });
    refused({ to: 'jane@example.test\r\nBcc: all@example.test' }, /recipient .* line breaks/);
    refused({ to: 'jane@example.test\nBcc: all@example.test' }, /recipient .* line breaks/);
    refused({ to: 'jane@example.test\r' }, /recipient .* line breaks/);
    refused({ subject: 'Hello\r\nBcc: all@example.test' }, /subject .* line breaks/);
    refused({ subject: 'Hello\nX-Injected: yes' }, /subject .* line breaks/);
    refused({ subject: 'Hello\rthere' }, /subject .* line breaks/);
    refused({ to: 'jane@example.test, all@example.test' }, /one email address/);
    refused({ to: 'jane@example.test;all@example.test' }, /one email address/);
    refused({ to: 'Jane <jane@example.test>' }, /one email address/);
    refused({ to: 'not-an-address' }, /one email address/);
    refused({ to: '' }, /one email address/);
    refused({ subject: '   ' }, /needs a subject/);
    // The text may have line breaks: it is the body.
    checkMail(CODE_MAIL);
    checkMail({ ...CODE_MAIL, to: "o'brien+portal@mail.example.test" });
  });

  test('an SMTP error message loses the password of SMTP_URL', () => {
    const url = 'smtp://mailer:s3cret%21pw@mail.example.test:587';
    assert.equal(
      withoutSecrets(`Invalid login for ${url}: mailer:s3cret%21pw / s3cret!pw`, url),
      'Invalid login for ***: *** / ***',
    );
    assert.equal(withoutSecrets('connect ECONNREFUSED 127.0.0.1:587', 'smtp://127.0.0.1:587'), 'connect ECONNREFUSED 127.0.0.1:587');
  });

  test('the back-off doubles from 30 s and is capped at 15 minutes', () => {
    assert.equal(FIRST_RETRY_DELAY_MS, 30_000);
    assert.equal(MAX_RETRY_DELAY_MS, 15 * MINUTE);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20, 1000].map(retryDelayMs), [30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000, 900_000]);
  });
});

let smtp: SmtpCatcher;
before(async () => {
  smtp = await startSmtpCatcher();
});
after(async () => {
  await smtp.close();
});

for (const kind of DATABASE_KINDS) {
  describe(`mail outbox on ${kind}`, () => {
    let db: Database;
    let clock: TestClock;
    before(async () => {
      db = await createTestDatabase(kind);
    });
    after(async () => {
      await db.close();
    });
    const reset = async () => {
      await db.query('delete from mail_outbox');
      smtp.received.length = 0;
      clock = new TestClock(new Date('2030-01-01T12:00:00.000Z'));
    };

    test('a mail queued in a transaction that rolls back is not queued; one that commits is', async () => {
      await reset();
      await assert.rejects(
        db.transaction(async (tx) => {
          await enqueueMail(tx, CODE_MAIL, clock);
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      assert.deepEqual(await allMails(db), []);
      const id = await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const mails = await allMails(db);
      assert.deepEqual(mails, [
        {
          id,
          to: CODE_MAIL.to,
          subject: CODE_MAIL.subject,
          text: CODE_MAIL.text,
          createdAt: clock.now(),
          attempts: 0,
          nextAttemptAt: clock.now(),
          lastError: null,
          sentAt: null,
        },
      ]);
    });

    test('header injection is refused and nothing is queued', async () => {
      await reset();
      await assert.rejects(
        db.transaction((tx) => enqueueMail(tx, { ...CODE_MAIL, to: 'jane@example.test\r\nBcc: all@example.test' }, clock)),
        MailError,
      );
      await assert.rejects(db.transaction((tx) => enqueueMail(tx, { ...CODE_MAIL, subject: 'Code\nBcc: all@example.test' }, clock)), MailError);
      assert.deepEqual(await allMails(db), []);
    });

    test('the worker delivers to a real SMTP server: To, Subject and text', async () => {
      await reset();
      await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const worker = createMailWorker({ db, transport: smtpTransport(smtp.url), from: FROM, clock, pollMs: 60_000 });
      try {
        assert.deepEqual(await worker.runOnce(), { sent: 1, failed: 0 });
      } finally {
        await worker.stop();
      }
      assert.equal(smtp.received.length, 1);
      const [mail] = smtp.received;
      assert.ok(mail);
      // nodemailer writes the domain in lower case (the local part is kept as it is).
      assert.deepEqual(mail.rcptTo, ['Jane.Doe@example.test']);
      assert.equal(mail.from, FROM);
      assert.equal(mail.headers.to, 'Jane.Doe@example.test');
      assert.equal(mail.headers.from, FROM);
      assert.equal(mail.headers.subject, CODE_MAIL.subject);
      assert.equal(mail.headers['content-transfer-encoding'], '7bit');
      assert.equal(mail.text, CODE_MAIL.text);
      const [row] = await allMails(db);
      assert.deepEqual(row?.sentAt, clock.now());
      assert.equal(row?.attempts, 0);
      // Sent mail is not sent again.
      const again = createMailWorker({ db, transport: smtpTransport(smtp.url), from: FROM, clock, pollMs: 60_000 });
      try {
        clock.advance(60 * MINUTE);
        assert.deepEqual(await again.runOnce(), { sent: 0, failed: 0 });
      } finally {
        await again.stop();
      }
      assert.equal(smtp.received.length, 1);
      assert.deepEqual((await listMail(db, 'jane.doe@EXAMPLE.test')).map((m) => m.sent_at), [new Date('2030-01-01T12:00:00.000Z').toISOString()]);
    });

    test('with the SMTP server down the mail stays queued; when it is back and due it is delivered exactly once', async () => {
      await reset();
      const port = await downSmtpPort();
      await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const failures: number[] = [];
      const worker = createMailWorker({
        db,
        transport: smtpTransport(`smtp://127.0.0.1:${port}`),
        from: FROM,
        clock,
        pollMs: 60_000,
        onDeliveryFailed: (failure) => failures.push(failure.attempts),
      });
      let back: SmtpCatcher | undefined;
      try {
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 1 });
        const [queued] = await allMails(db);
        assert.ok(queued);
        assert.equal(queued.attempts, 1);
        assert.equal(queued.sentAt, null);
        assert.match(queued.lastError ?? '', /ECONNREFUSED/);
        assert.deepEqual(queued.nextAttemptAt, new Date(clock.now().getTime() + FIRST_RETRY_DELAY_MS));
        assert.ok(queued.nextAttemptAt > clock.now());
        assert.deepEqual(failures, [1]);

        back = await startSmtpCatcher(port);
        // Not due yet: nothing is tried.
        clock.advance(FIRST_RETRY_DELAY_MS - 1);
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 0 });
        assert.equal(back.received.length, 0);
        clock.advance(1);
        assert.deepEqual(await worker.runOnce(), { sent: 1, failed: 0 });
        clock.advance(60 * MINUTE);
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 0 });
        assert.equal(back.received.length, 1);
        assert.equal(back.received[0]?.headers.subject, CODE_MAIL.subject);
        const [sent] = await allMails(db);
        assert.equal(sent?.attempts, 1);
        assert.ok(sent?.sentAt);
      } finally {
        await worker.stop();
        await back?.close();
      }
    });

    test('each failure doubles the wait up to 15 minutes, keeps the error, and never loses the mail', async () => {
      await reset();
      await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const transport = failingTransport('454 Temporary failure\r\nsecond line');
      const worker = createMailWorker({ db, transport, from: FROM, clock, pollMs: 60_000 });
      const waits: number[] = [];
      try {
        for (let attempt = 1; attempt <= 8; attempt++) {
          assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 1 });
          const [mail] = await allMails(db);
          assert.ok(mail);
          assert.equal(mail.attempts, attempt);
          assert.equal(mail.lastError, '454 Temporary failure second line');
          waits.push(mail.nextAttemptAt.getTime() - clock.now().getTime());
          clock.advance(mail.nextAttemptAt.getTime() - clock.now().getTime());
        }
      } finally {
        await worker.stop();
      }
      assert.deepEqual(waits, [30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000]);
      assert.equal(transport.tried.length, 8);
      assert.deepEqual(transport.tried[0], { from: FROM, ...CODE_MAIL });
    });

    test('the error kept never holds the password of SMTP_URL', async () => {
      await reset();
      const port = await downSmtpPort();
      await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const worker = createMailWorker({ db, transport: smtpTransport(`smtp://mailer:s3cret%21pw@127.0.0.1:${port}`), from: FROM, clock, pollMs: 60_000 });
      try {
        await worker.runOnce();
      } finally {
        await worker.stop();
      }
      const [mail] = await allMails(db);
      assert.ok(mail?.lastError);
      assert.ok(!mail.lastError.includes('s3cret'));
    });

    test('two workers at once deliver each mail once (FOR UPDATE SKIP LOCKED)', async () => {
      await reset();
      for (let i = 0; i < 6; i++) await db.transaction((tx) => enqueueMail(tx, { ...CODE_MAIL, subject: `Mail ${i}` }, clock));
      const workers = [0, 1].map(() => createMailWorker({ db, transport: smtpTransport(smtp.url), from: FROM, clock, pollMs: 60_000 }));
      try {
        const runs = await Promise.all(workers.map((w) => w.runOnce()));
        assert.equal(runs.reduce((n, r) => n + r.sent, 0), 6);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
      }
      assert.deepEqual(smtp.received.map((m) => m.headers.subject).sort(), [0, 1, 2, 3, 4, 5].map((i) => `Mail ${i}`));
      assert.ok((await allMails(db)).every((m) => m.sentAt !== null));
    });

    test('a claimed mail is left alone for the lease, then retried (a worker that died while sending)', async () => {
      await reset();
      await db.transaction((tx) => enqueueMail(tx, CODE_MAIL, clock));
      const hanging: MailTransport = { send: () => new Promise(() => undefined), close() {} };
      const dead = createMailWorker({ db, transport: hanging, from: FROM, clock, pollMs: 60_000 });
      void dead.runOnce(); // never finishes: its process "died" while sending
      await waitFor('the claim', async () => (await allMails(db))[0]?.nextAttemptAt.getTime() === clock.now().getTime() + CLAIM_LEASE_MS || undefined);
      const worker = createMailWorker({ db, transport: smtpTransport(smtp.url), from: FROM, clock, pollMs: 60_000 });
      try {
        assert.deepEqual(await worker.runOnce(), { sent: 0, failed: 0 });
        clock.advance(CLAIM_LEASE_MS);
        assert.deepEqual(await worker.runOnce(), { sent: 1, failed: 0 });
      } finally {
        await worker.stop();
      }
      assert.equal(smtp.received.length, 1);
    });

    test('started, the worker polls and delivers; stopped, it sends nothing more', async () => {
      await reset();
      const worker = createMailWorker({ db, transport: smtpTransport(smtp.url), from: FROM, pollMs: 20 });
      worker.start();
      try {
        await db.transaction((tx) => enqueueMail(tx, CODE_MAIL));
        await waitFor('the delivery', () => smtp.received.length === 1 || undefined);
      } finally {
        await worker.stop();
      }
      await worker.stop(); // twice is fine
      await db.transaction((tx) => enqueueMail(tx, { ...CODE_MAIL, subject: 'After stop' }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(smtp.received.length, 1);
      assert.deepEqual((await allMails(db)).map((m) => m.sentAt === null), [false, true]);
    });
  });
}
