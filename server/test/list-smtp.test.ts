/**
 * The embedded list engine over real SMTP (server/docs/mailing-lists.md): nodemailer talks to
 * the portal's listener. Posts by subscribers go out through the mail outbox at once; others
 * wait for a moderator as the list's posting permissions say; a forged sender is held; HTML
 * arrives as text; other recipients are refused (no open relay); a message over the limit is
 * refused at SMTP time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import type { Database } from '../src/db/database.js';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { insertMailingList } from '../src/repositories/mailing-lists.js';
import { startListSmtpServer, type ListSmtpServer } from '../src/services/list-smtp.js';
import { createAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createTestDatabase } from './helpers.js';

const LIMIT = 64 * 1024;

for (const kind of DATABASE_KINDS) {
  describe(`the list SMTP listener on ${kind}`, () => {
    let db: Database;
    let listener: ListSmtpServer;
    const errors: unknown[] = [];
    const send = (mail: { from: string; to: string; subject?: string; text?: string; html?: string; envelopeFrom?: string }) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
        .sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject ?? 'Hello',
          ...(mail.text !== undefined ? { text: mail.text } : {}),
          ...(mail.html !== undefined ? { html: mail.html } : {}),
          ...(mail.envelopeFrom ? { envelope: { from: mail.envelopeFrom, to: mail.to } } : {}),
        });
    const held = async () => (await db.query<{ sender: string; subject: string; text_body: string; reason: string }>('select sender, subject, text_body, reason from held_messages order by id')).rows;
    const queued = async (subject: string) =>
      (await db.query<{ to_address: string; body: string }>('select to_address, body from mail_outbox where subject = $1 order by to_address', [subject])).rows;

    before(async () => {
      db = await createTestDatabase(kind);
      const ids: Record<string, number> = {};
      for (const name of ['mod', 'sub', 'quiet']) ids[name] = (await createAccount(db, { username: name })).id;
      await insertUserGroup(db, { id: 'ALPHA', name: 'Alpha', description: 'Alpha', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [] });
      await addMembership(db, 'ALPHA', ids.mod!, 'ALPHA-admin');
      await addMembership(db, 'ALPHA', ids.sub!, 'ALPHA-team');
      await addMembership(db, 'ALPHA', ids.quiet!, 'ALPHA-team');
      for (const [id, posting] of [['alpha-dev@lists.test', 'closed'], ['alpha-open@lists.test', 'open'], ['alpha-news@lists.test', 'announce']] as const) {
        await insertMailingList(db, {
          id, userGroupId: 'ALPHA', description: `The ${posting} list`, permissionGroup: 'ALPHA-team', postingPermissions: posting, automaticSubscription: true, createdAt: new Date(), requestId: null,
        });
      }
      await db.query('insert into list_subscriptions (list_id, account_id, subscribed, digest, updated_at) values ($1, $2, false, false, now())', ['alpha-dev@lists.test', ids.quiet]);
      listener = await startListSmtpServer({ db, host: '127.0.0.1', port: 0, maxMessageBytes: LIMIT, onError: (error) => errors.push(error) });
    });
    after(async () => {
      await listener.close();
      await db.close();
    });

    test('a subscriber’s post to a closed list goes at once to each subscriber but those who left', async () => {
      await send({ from: 'sub@example.test', to: 'Alpha-Dev@lists.test', subject: 'Build is green', text: 'All good.' });
      const mails = await queued('[alpha-dev] Build is green');
      // The team list reaches the group's admin too (a higher role), but not quiet, who left.
      assert.deepEqual(mails.map((m) => m.to_address), ['mod@example.test', 'sub@example.test']);
      assert.match(mails[1]!.body, /^From: sub@example\.test\nList: alpha-dev@lists\.test\n\nAll good\./);
      assert.deepEqual(await held(), []);
    });

    test('a non-subscriber’s post to a closed list and a forged sender are held, as text', async () => {
      await send({ from: 'stranger@elsewhere.test', to: 'alpha-dev@lists.test', subject: 'Offer', html: '<p>Buy <b>now</b></p><script>alert(1)</script>' });
      await send({ from: 'sub@example.test', envelopeFrom: 'spoofer@elsewhere.test', to: 'alpha-dev@lists.test', subject: 'Forged', text: 'Trust me.' });
      const rows = await held();
      assert.equal(rows.length, 2);
      assert.deepEqual(rows.map((r) => [r.sender, r.subject, r.reason]), [
        ['stranger@elsewhere.test', 'Offer', 'Post by a non-subscriber to a list that only subscribers may post to.'],
        ['sub@example.test', 'Forged', 'The envelope sender and the From: address differ.'],
      ]);
      assert.ok(!rows[0]!.text_body.includes('<'), `no markup: ${rows[0]!.text_body}`);
      assert.match(rows[0]!.text_body, /Buy NOW|Buy now/i);
      assert.deepEqual(await queued('[alpha-dev] Forged'), []);
    });

    test('open lists take anyone; announce lists only their moderators', async () => {
      await send({ from: 'stranger@elsewhere.test', to: 'alpha-open@lists.test', subject: 'Hi all', text: 'Hello.' });
      assert.deepEqual((await queued('[alpha-open] Hi all')).map((m) => m.to_address), ['mod@example.test', 'quiet@example.test', 'sub@example.test']);
      await send({ from: 'sub@example.test', to: 'alpha-news@lists.test', subject: 'Not mine to say', text: 'x' });
      await send({ from: 'mod@example.test', to: 'alpha-news@lists.test', subject: 'Release today', text: 'y' });
      assert.deepEqual(await queued('[alpha-news] Not mine to say'), []);
      assert.equal((await queued('[alpha-news] Release today')).length, 3);
      assert.equal((await held()).at(-1)?.reason, 'Post by a non-moderator to an announce-only list.');
    });

    test('no open relay: any other recipient is refused with 550, and nothing is stored', async () => {
      const before = (await held()).length;
      await assert.rejects(send({ from: 'sub@example.test', to: 'victim@gmail.example', text: 'relay me' }), (error: Error & { responseCode?: number }) => {
        assert.equal(error.responseCode, 550);
        assert.match(error.message, /Relay access denied/);
        return true;
      });
      assert.equal((await held()).length, before);
    });

    test('a message over the size limit is refused at SMTP time with 552', async () => {
      await assert.rejects(send({ from: 'sub@example.test', to: 'alpha-dev@lists.test', subject: 'Huge', text: 'x'.repeat(LIMIT + 1000) }), (error: Error & { responseCode?: number }) => {
        assert.equal(error.responseCode, 552);
        return true;
      });
      assert.deepEqual(await queued('[alpha-dev] Huge'), []);
      assert.deepEqual(errors, []);
    });
  });
}
