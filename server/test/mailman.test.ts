/**
 * The Mailman 3 list engine (PORTAL_LIST_ENGINE=mailman; server/docs/mailing-lists.md) against a
 * real Mailman 3 core, started here on loopback (test/mailman-helpers.ts): a list created on
 * approval, subscriptions and digests in Mailman's roster, a member joining or leaving the group
 * and an account locked or unlocked followed by the provisioning engine (Mailman's rosters are one
 * of its targets), its reconcile, held messages shown as plain text, each moderation action and
 * discard-deferred, and Mailman down answered with a message a person understands (a request) or
 * kept as a failure with its reason (a roster change).
 * Without Mailman installed, this fails saying what to install.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addMembership, insertUserGroup } from '../src/repositories/groups.js';
import { createMailmanEngine } from '../src/services/lists/mailman.js';
import { createProvisioningEngine, type ProvisioningEngine } from '../src/services/provisioning/engine.js';
import { createListsTarget } from '../src/services/provisioning/lists.js';
import { provisioningOverview } from '../src/services/provisioning/status.js';
import type { Principal, TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { startSmtpCatcher, waitFor, type SmtpCatcher } from './mail-helpers.js';
import { freePort, startMailman, type RunningMailman } from './mailman-helpers.js';
import { runCli, runningUrl, startMain } from './process-helpers.js';
import { call, createWorld, signedIn, type World } from './self-service-helpers.js';
import { quietLog, settled } from './provisioning-helpers.js';

let fixture: Fixture;
let mailman: RunningMailman;
let smtp: SmtpCatcher;

before(async () => {
  fixture = createFixture();
  smtp = await startSmtpCatcher();
  mailman = await startMailman({ smtpPort: smtp.port });
  process.stdout.write(`Mailman core answered after ${(mailman.startedInMs / 1000).toFixed(1)} s\n`);
});
after(async () => {
  await mailman?.stop();
  await smtp?.close();
  fixture?.remove();
});

interface Held {
  request_id: number;
  list_id: string;
  sender: string;
  subject: string;
  msg: string;
  reason: string;
  hold_date: string;
  original_size: number;
}



const post = (from: string, to: string, subject: string, body: string, html = false) =>
  [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Message-ID: <${subject.replace(/\W/g, '')}.${Date.now()}@elsewhere.test>`,
    'Date: Tue, 24 Nov 2026 15:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: ${html ? 'text/html' : 'text/plain'}; charset=utf-8`,
    '',
    body,
    '',
  ].join('\n');

for (const databaseKind of DATABASE_KINDS) {
  describe(`the Mailman list engine on ${databaseKind}`, () => {
    // Each database kind has a domain of its own in the one Mailman.
    const domain = `${databaseKind}.lists.example.test`;
    const dev = `alpha-dev@${domain}`;
    const news = `alpha-news@${domain}`;
    const mailmanId = (address: string) => address.replace('@', '.');
    let world: World;
    let engine: ProvisioningEngine;
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const who = (name: string) => people[name]!.who;
    const path = (id: string, rest = '') => `/mailinglists/${encodeURIComponent(id)}${rest}`;
    /** Mailman's roster of a list: [email, delivery_mode], sorted, once every recorded change is applied. */
    const roster = async (address: string) => {
      await settled(world.db);
      const answer = await mailman.rest('GET', `/lists/${mailmanId(address)}/roster/member`);
      assert.equal(answer.status, 200);
      return ((answer.body.entries ?? []) as { email: string; delivery_mode: string }[]).map((e) => [e.email, e.delivery_mode]).sort();
    };
    const heldIn = async (address: string) => ((await mailman.rest('GET', `/lists/${mailmanId(address)}/held`)).body.entries ?? []) as { request_id: number }[];
    const held = async (name: string, address: string) => {
      const answer = await call(world.app, who(name), 'GET', path(address, '/held'));
      assert.equal(answer.statusCode, 200, answer.body);
      return (answer.json() as { rows: Held[] }).rows;
    };

    async function approved(body: Record<string, unknown>): Promise<string> {
      const answer = await call(world.app, who('alice'), 'POST', '/requests/mailinglist', {
        user_group: 'ALPHA', list_name: 'dev', description: 'Developers', permission_group: 'ALPHA-team', posting_permissions: 'closed',
        automatic_subscription: true, reason: 'We need to talk', ...body,
      });
      assert.equal(answer.statusCode, 200, answer.body);
      const { list_id: listId } = answer.json() as { list_id: string };
      const { rows } = await world.db.query<{ id: string }>("select id from requests where kind = 'mailinglist' and details ->> 'list_id' = $1", [listId]);
      const decided = await call(world.app, who('judge'), 'POST', `/requests/mailinglist/${rows[0]!.id}/approved`, { comment: 'Fine' });
      assert.equal(decided.statusCode, 200, decided.body);
      return listId;
    }

    before(async () => {
      const listEngine = createMailmanEngine({ url: mailman.url, user: mailman.user, password: mailman.password });
      world = await createWorld(databaseKind, fixture, {
        portal: { email_domain: domain },
        listEngine,
        provisioning: (db) => {
          engine = createProvisioningEngine({ db, targets: [createListsTarget(listEngine)], reconcileIntervalMs: 3_600_000, pollMs: 25, log: quietLog });
          return engine;
        },
      });
      await engine.register();
      engine.start();
      for (const name of ['alice', 'bob', 'carol', 'dave']) people[name] = await signedIn(world, name);
      people.judge = await signedIn(world, 'judge', { roles: ['adjudicator'] });
      await insertUserGroup(world.db, {
        id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [],
      });
      for (const [name, group] of [['alice', 'ALPHA-admin'], ['bob', 'ALPHA-team'], ['carol', 'ALPHA-team'], ['dave', 'ALPHA-user']] as const) {
        await addMembership(world.db, 'ALPHA', people[name]!.account.id, group);
      }
    });
    after(async () => {
      await engine?.stop();
      await world?.close();
    });

    test('an approved request creates the list in Mailman (and its domain), configured, with the opt-out list’s eligible members', async () => {
      assert.equal((await mailman.rest('GET', `/domains/${domain}`)).status, 404, 'no domain before');
      assert.equal(await approved({}), dev);
      assert.equal((await mailman.rest('GET', `/domains/${domain}`)).status, 200);
      const config = (await mailman.rest('GET', `/lists/${mailmanId(dev)}/config`)).body;
      assert.equal(config.fqdn_listname, dev);
      assert.equal(config.description, 'Developers');
      assert.deepEqual([config.default_member_action, config.default_nonmember_action], ['defer', 'hold'], 'closed: subscribers post, others are held');
      assert.deepEqual([config.subscription_policy, config.send_welcome_message], ['moderate', false]);
      assert.deepEqual(await roster(dev), [
        ['alice@example.test', 'regular'],
        ['bob@example.test', 'regular'],
        ['carol@example.test', 'regular'],
      ]);
      // An opt-in, announce-only list for ALPHA-user starts empty.
      assert.equal(await approved({ list_name: 'news', automatic_subscription: false, permission_group: 'ALPHA-user', posting_permissions: 'announce' }), news);
      const newsConfig = (await mailman.rest('GET', `/lists/${mailmanId(news)}/config`)).body;
      assert.deepEqual([newsConfig.default_member_action, newsConfig.default_nonmember_action], ['hold', 'hold']);
      assert.deepEqual(await roster(news), []);
    });

    test('subscribing, the digest and unsubscribing (own, and by a moderator) are Mailman’s roster at once', async () => {
      const joined = await call(world.app, who('dave'), 'POST', path(news), { is_subscribed: true, is_regular_subscription: true });
      assert.equal(joined.statusCode, 200, joined.body);
      assert.deepEqual(await roster(news), [['dave@example.test', 'regular']]);

      const digest = await call(world.app, who('bob'), 'POST', path(dev), { is_subscribed: true, is_regular_subscription: false });
      assert.equal((digest.json() as { is_regular_subscription: boolean }).is_regular_subscription, false);
      assert.deepEqual((await roster(dev)).find(([email]) => email === 'bob@example.test'), ['bob@example.test', 'plaintext_digests']);

      await call(world.app, who('bob'), 'POST', path(dev), { is_subscribed: false, is_regular_subscription: false });
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'carol@example.test']);
      const back = await call(world.app, who('bob'), 'POST', path(dev), { is_subscribed: true, is_regular_subscription: false });
      assert.equal((back.json() as { is_regular_subscription: boolean }).is_regular_subscription, true, 'subscribing sets the digest off');
      assert.deepEqual((await roster(dev)).find(([email]) => email === 'bob@example.test'), ['bob@example.test', 'regular']);

      const off = await call(world.app, who('alice'), 'POST', path(dev), { is_subscribed: false, is_regular_subscription: true, user_email: 'carol@example.test' });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test']);
      await call(world.app, who('alice'), 'POST', path(dev), { is_subscribed: true, is_regular_subscription: true, user_email: 'carol@example.test' });
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test']);
    });

    test('a member who leaves the group is taken off the roster; a reconcile puts back what Mailman lost and takes off what it gained, and reports it', async () => {
      const leave = await call(world.app, who('carol'), 'POST', '/requests/membership/update', {
        user_group: 'ALPHA', username: 'carol', join: [], leave: ['ALPHA-team'], reason: '', updateIntent: 'leave',
      });
      assert.equal(leave.statusCode, 200, leave.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test']);

      // Changed behind the portal's back: bob unsubscribed in Mailman, a stranger subscribed there.
      const bob = ((await mailman.rest('GET', `/lists/${mailmanId(dev)}/roster/member`)).body.entries as { email: string; member_id: string }[]).find((e) => e.email === 'bob@example.test')!;
      assert.equal((await mailman.rest('DELETE', `/members/${bob.member_id}`, undefined, { pre_approved: 'true', pre_confirmed: 'true' })).status, 204);
      const stranger = await mailman.rest('POST', '/members', { list_id: mailmanId(dev), subscriber: 'stranger@elsewhere.test', pre_verified: true, pre_confirmed: true, pre_approved: true });
      assert.equal(stranger.status, 201);
      const drift = [`${dev}: 1 subscriber missing, 1 too many`];
      const [dry] = await engine.reconcile({ dryRun: true });
      assert.deepEqual([dry?.target, dry?.report.differences, dry?.report.drift], ['mailman', 2, drift]);
      assert.equal(dry?.summary, '2 differences from the portal, 1 would be created, 0 would be changed, 1 would be removed');
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'stranger@elsewhere.test'], 'a dry run changes nothing');
      const [done] = await engine.reconcile({ dryRun: false });
      assert.deepEqual([done?.report.differences, done?.report.drift], [2, drift]);
      assert.equal(done?.summary, '2 differences from the portal, 1 created, 0 changed, 1 removed');
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test']);
      const [again] = await engine.reconcile({ dryRun: false });
      assert.equal(again?.report.differences, 0, 'nothing left to do');
      const overview = await provisioningOverview(world.db);
      assert.deepEqual(
        overview.targets.map((t) => [t.name, t.kind, t.backlog, t.last_reconcile_differences]),
        [['mailman', 'lists', 0, 0]],
      );
    });

    test('joining the group (added by an admin, or a request approved) puts the member on the opt-out list’s roster at once', async () => {
      const membership = (username: string, join: string[], leave: string[], updateIntent: string) => ({ user_group: 'ALPHA', username, join, leave, reason: 'Back on the team', updateIntent });
      const added = await call(world.app, who('alice'), 'POST', '/requests/membership/new', membership('carol', ['ALPHA-team'], [], 'join'));
      assert.equal(added.statusCode, 200, added.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test']);

      const asked = await call(world.app, who('dave'), 'POST', '/requests/membership/update', membership('dave', ['ALPHA-team'], ['ALPHA-user'], 'update'));
      assert.equal((asked.json() as { status: string }).status, 'pending');
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test'], 'not before the approval');
      const decided = await call(world.app, who('alice'), 'POST', `/requests/membership/${(asked.json() as { id: number }).id}/approved`, {});
      assert.equal(decided.statusCode, 200, decided.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test', 'dave@example.test']);
      assert.deepEqual(await roster(news), [['dave@example.test', 'regular']], 'still eligible for the ALPHA-user list (a team member is), still subscribed');
    });

    test('a locked account is taken off every roster at once, and put back when it is unlocked', async () => {
      const boss = await signedIn(world, 'boss', { roles: ['site-admin'] });
      const locked = await call(world.app, boss.who, 'POST', '/accounts/dave/lock', { comment: 'Left the company' });
      assert.equal(locked.statusCode, 200, locked.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test']);
      assert.deepEqual(await roster(news), []);
      const unlocked = await call(world.app, boss.who, 'POST', '/accounts/dave/unlock', { comment: 'Back' });
      assert.equal(unlocked.statusCode, 200, unlocked.body);
      assert.deepEqual((await roster(dev)).map(([email]) => email), ['alice@example.test', 'bob@example.test', 'carol@example.test', 'dave@example.test']);
      assert.deepEqual(await roster(news), [['dave@example.test', 'regular']]);
    });

    test('held messages are Mailman’s, shown as plain text with their fields; each action, and discard-deferred', async () => {
      const delivered = smtp.received.length;
      await mailman.inject(dev, post('stranger@elsewhere.test', dev, 'First', '<p>Hello <b>all</b></p><script>alert(1)</script>', true));
      await waitFor('the first held message', async () => ((await heldIn(dev)).length === 1 ? true : undefined), 30_000);
      for (const [sender, subject] of [['friend@elsewhere.test', 'Second'], ['stranger@elsewhere.test', 'Third'], ['stranger@elsewhere.test', 'Fourth']] as const) {
        await mailman.inject(dev, post(sender, dev, subject, `Body of ${subject}`));
      }
      await waitFor('four held messages', async () => ((await heldIn(dev)).length === 4 ? true : undefined), 30_000);

      const rows = await held('alice', dev);
      assert.deepEqual(rows.map((r) => [r.subject, r.sender]), [
        ['First', 'stranger@elsewhere.test'],
        ['Second', 'friend@elsewhere.test'],
        ['Third', 'stranger@elsewhere.test'],
        ['Fourth', 'stranger@elsewhere.test'],
      ]);
      const first = rows[0]!;
      assert.equal(first.list_id, dev);
      assert.doesNotMatch(first.msg, /</, 'no markup reaches the page');
      assert.match(first.msg, /Hello all/);
      assert.equal(rows[1]!.msg, 'Body of Second');
      assert.equal(first.reason, 'The message is not from a list member');
      assert.ok(Math.abs(Date.parse(first.hold_date) - Date.now()) < 5 * 60_000, `held just now (${first.hold_date})`);
      assert.ok(first.original_size >= 0.1 && first.original_size < 2, `a small message in KB (${first.original_size})`);
      const lists = (await call(world.app, who('alice'), 'GET', '/mailinglists')).json() as { rows: { id: string; held_count?: number }[] };
      assert.equal(lists.rows.find((l) => l.id === dev)?.held_count, 4);
      assert.equal((await call(world.app, who('bob'), 'GET', path(dev, '/held'))).statusCode, 403, 'not a moderator');

      // accept and always-accept; the other two deferred (left held).
      const [second, third, fourth] = [rows[1]!, rows[2]!, rows[3]!];
      const acted = await call(world.app, who('alice'), 'POST', path(dev, '/held'), {
        messages: [
          { messageId: first.request_id, action: 'accept', sender: first.sender },
          { messageId: second.request_id, action: 'always-accept', sender: 'not-what-mailman-holds@elsewhere.test' },
          { messageId: third.request_id, action: 'defer', sender: third.sender },
          { messageId: fourth.request_id, action: 'defer', sender: fourth.sender },
        ],
      });
      assert.deepEqual(acted.json(), { ok: true, accepted: 2, discarded: 0 });
      assert.deepEqual((await held('alice', dev)).map((r) => r.subject), ['Third', 'Fourth']);
      const accepted = (await mailman.rest('GET', `/lists/${mailmanId(dev)}/config/accept_these_nonmembers`)).body.accept_these_nonmembers;
      assert.deepEqual(accepted, ['friend@elsewhere.test'], 'the sender Mailman held, not the one the caller named');
      // Mailman delivers the accepted posts to the list's subscribers through its SMTP server.
      const firstOut = await waitFor('the accepted post delivered', () => smtp.received.slice(delivered).find((m) => /First/.test(m.headers.subject ?? '')), 60_000);
      assert.deepEqual([...firstOut.rcptTo].sort(), ['alice@example.test', 'bob@example.test', 'carol@example.test', 'dave@example.test']);

      // Decided meanwhile: nothing happens a second time.
      const again = await call(world.app, who('alice'), 'POST', path(dev, '/held'), { messages: [{ messageId: first.request_id, action: 'discard', sender: first.sender }] });
      assert.deepEqual(again.json(), { ok: true, accepted: 0, discarded: 0 });

      const discarded = await call(world.app, who('alice'), 'POST', path(dev, '/held'), { messages: [{ messageId: third.request_id, action: 'discard', sender: third.sender }] });
      assert.deepEqual(discarded.json(), { ok: true, accepted: 0, discarded: 1 });
      assert.deepEqual((await held('alice', dev)).map((r) => r.subject), ['Fourth']);

      const deferred = await call(world.app, who('alice'), 'POST', path(dev, '/held'), {
        messages: [{ messageId: fourth.request_id, action: 'defer', sender: fourth.sender }],
        discard_deferred: true,
      });
      assert.deepEqual(deferred.json(), { ok: true, accepted: 0, discarded: 1 });
      assert.deepEqual(await heldIn(dev), []);
      assert.deepEqual((await call(world.app, who('alice'), 'GET', '/moderation/held')).json(), { rows: [] });

      // The always-accepted sender's next post is not held.
      await mailman.inject(dev, post('friend@elsewhere.test', dev, 'Fifth', 'Body of Fifth'));
      const fifth = await waitFor('the always-accepted sender’s post delivered', () => smtp.received.slice(delivered).find((m) => /Fifth/.test(m.headers.subject ?? '')), 60_000);
      assert.deepEqual([...fifth.rcptTo].sort(), ['alice@example.test', 'bob@example.test', 'carol@example.test', 'dave@example.test']);
      assert.deepEqual(await heldIn(dev), []);
    });

    test('Mailman down: a clear 503, never a stack, and nothing changes in the portal; a roster change waits as a failure with its reason', async () => {
      const downPort = await freePort();
      const downEngine = createMailmanEngine({ url: `http://127.0.0.1:${downPort}`, user: mailman.user, password: mailman.password, timeoutMs: 2000 });
      let provisioning: ProvisioningEngine | undefined;
      const down = await createWorld(databaseKind, fixture, {
        portal: { email_domain: domain },
        listEngine: downEngine,
        provisioning: (db) => {
          provisioning = createProvisioningEngine({ db, targets: [createListsTarget(downEngine)], reconcileIntervalMs: 3_600_000, pollMs: 25, log: quietLog });
          return provisioning;
        },
      });
      await provisioning?.register();
      provisioning?.start();
      try {
        const alice = await signedIn(down, 'alice');
        const judge = await signedIn(down, 'judge', { roles: ['adjudicator'] });
        await insertUserGroup(down.db, {
          id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [],
        });
        await addMembership(down.db, 'ALPHA', alice.account.id, 'ALPHA-admin');
        const requested = await call(down.app, alice.who, 'POST', '/requests/mailinglist', {
          user_group: 'ALPHA', list_name: 'ops', description: 'Operations', permission_group: 'ALPHA-team', posting_permissions: 'closed', automatic_subscription: true, reason: 'Ops',
        });
        assert.equal(requested.statusCode, 200, requested.body);
        const { rows } = await down.db.query<{ id: string }>("select id from requests where kind = 'mailinglist'");
        const approval = await call(down.app, judge.who, 'POST', `/requests/mailinglist/${rows[0]!.id}/approved`, { comment: '' });
        assert.equal(approval.statusCode, 503);
        assert.deepEqual(approval.json(), {
          error: `The mailing list server (Mailman) is not available: no connection while creating the list alpha-ops@${domain}. Please try again later.`,
          code: 503,
        });
        const state = await down.db.query<{ status: string }>('select status from requests where id = $1', [rows[0]!.id]);
        assert.equal(state.rows[0]!.status, 'pending', 'the request waits to be approved again');
        assert.equal((await down.db.query('select 1 from mailing_lists')).rows.length, 0);

        // A list the portal has (created while Mailman answered): its held messages and a subscription change.
        await down.db.query(
          `insert into mailing_lists (id, user_group_id, description, permission_group, posting_permissions, automatic_subscription, created_at)
           values ($1, 'ALPHA', 'Developers', 'ALPHA-team', 'closed', true, now())`,
          [dev],
        );
        const heldDown = await call(down.app, alice.who, 'GET', path(dev, '/held'));
        assert.equal(heldDown.statusCode, 503);
        assert.deepEqual(heldDown.json(), {
          error: `The mailing list server (Mailman) is not available: no connection while reading the held messages of ${dev}. Please try again later.`,
          code: 503,
        });
        const unsubscribe = await call(down.app, alice.who, 'POST', path(dev), { is_subscribed: false, is_regular_subscription: true });
        assert.equal(unsubscribe.statusCode, 503);
        assert.match((unsubscribe.json() as { error: string }).error, /^The mailing list server \(Mailman\) is not available: no connection while reading the members of alpha-dev@/);
        assert.equal((await down.db.query('select 1 from list_subscriptions')).rows.length, 0, 'the choice is not stored');
        assert.doesNotMatch(unsubscribe.body, /at .*\.ts|fetch failed|ECONNREFUSED/);

        // The new list's roster is owed to Mailman: kept, with its reason, for the next attempt.
        const failure = await waitFor('the list’s failure', async () => (await provisioningOverview(down.db)).failures.find((f) => f.object === `list ${dev}`), 30_000);
        assert.equal(failure.target, 'mailman');
        // Mailman not answering fails the rest of the worker's batch with the first change's reason.
        assert.match(failure.error, /^the list server \(Mailman\) is not available: no connection while (reading the members of|reading the subscriptions of) [^ ]+@[^ ]+\.$/);
        assert.doesNotMatch(failure.error, /ECONNREFUSED|fetch failed/);
        assert.ok(!failure.error.includes(mailman.password), 'never the password');
        const [target] = (await provisioningOverview(down.db)).targets;
        assert.deepEqual([target?.name, target?.kind], ['mailman', 'lists']);
        assert.ok((target?.failing ?? 0) >= 1);
      } finally {
        await provisioning?.stop();
        await down.close();
      }
    });
  });
}

describe('the portal started with PORTAL_LIST_ENGINE=mailman', () => {
  test('starts no SMTP listener, says Mailman runs the lists, and provisioning creates the demo lists in Mailman with their rosters', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-mailman-main-'));
    const running = startMain({
      PORT: '0',
      PORTAL_HOST_DIR: fixture.hostDir,
      PORTAL_REMOTES_DIR: fixture.remotesDir,
      PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile,
      PORTAL_DATA_DIR: dataDir,
      PORTAL_SEED_DEMO: 'true',
      PORTAL_EMAIL_DOMAIN: 'example.test',
      PORTAL_LIST_ENGINE: 'mailman',
      PORTAL_MAILMAN_URL: mailman.url,
      PORTAL_MAILMAN_USER: mailman.user,
      PORTAL_MAILMAN_PASSWORD: mailman.password,
    });
    try {
      await runningUrl(running);
      assert.match(running.output(), new RegExp(`Mailing lists are run by Mailman at ${mailman.url.replace(/\./g, '\\.')}\n`));
      assert.doesNotMatch(running.output(), /receive posts at smtp/);
      const roster = await waitFor(
        'the demo list in Mailman',
        async () => {
          const answer = await mailman.rest('GET', '/lists/portal-dev.example.test/roster/member');
          return answer.status === 200 && answer.body.total_size === 4 ? (answer.body.entries as { email: string }[]).map((e) => e.email).sort() : undefined;
        },
        60_000,
      );
      // PORTAL-user's opt-out list: its users and the roles above them.
      assert.deepEqual(roster, ['adjudicator@example.test', 'admin@example.test', 'helpdesk@example.test', 'user@example.test']);
      // The opt-in list has no subscriber yet: it is created by its own recorded change.
      await waitFor('the demo announce list in Mailman', async () => ((await mailman.rest('GET', '/lists/portal-announce.example.test')).status === 200 ? true : undefined), 30_000);
      const status = await runCli(['provision', 'status', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(status.code, 0, status.stderr);
      const overview = JSON.parse(status.stdout) as { targets: { name: string; kind: string }[] };
      assert.deepEqual(overview.targets.map((t) => [t.name, t.kind]), [['mailman', 'lists']], 'Mailman’s rosters are a provisioning target');
      assert.equal(running.output().includes(mailman.password), false, 'the password is never printed');
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null });
    } finally {
      running.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('PORTAL_LIST_ENGINE=mailman without its address and credentials stops the server with the reason', async () => {
    const running = startMain({ PORT: '0', PORTAL_DATA_DIR: join(tmpdir(), 'portal-never'), PORTAL_LIST_ENGINE: 'mailman', PORTAL_MAILMAN_URL: mailman.url });
    assert.equal((await running.exit).code, 1);
    assert.equal(
      running.output(),
      'Configuration error:\n  - PORTAL_LIST_ENGINE=mailman needs PORTAL_MAILMAN_URL, PORTAL_MAILMAN_USER and PORTAL_MAILMAN_PASSWORD\n',
    );
  });
});
