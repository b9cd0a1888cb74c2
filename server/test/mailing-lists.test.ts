/**
 * Mailing lists (server/docs/mailing-lists.md): the request for a new list with every rule of
 * the form, its approval creating the list, the caller's lists and subscriptions (opt-out and
 * opt-in, digest), eligibility following the group at once, member administration and held
 * messages with the moderators' actions, delivered through the mail outbox.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMembership, insertPermissionGroup, insertUserGroup } from '../src/repositories/groups.js';
import { insertHeldMessage } from '../src/repositories/mailing-lists.js';
import { runListDigests } from '../src/services/list-digests.js';
import type { Principal, TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { FORBIDDEN, call, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const NOT_FOUND = { error: 'Mailing list not found.', code: 404 };

for (const databaseKind of DATABASE_KINDS) {
  describe(`mailing lists on ${databaseKind}`, () => {
    let world: World;
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const who = (name: string) => people[name]!.who;
    const member = (name: string, groupName: string) => addMembership(world.db, groupName.split('-')[0]!, people[name]!.account.id, groupName);
    const request = (name: string, body: Record<string, unknown> = {}) =>
      call(world.app, who(name), 'POST', '/requests/mailinglist', {
        user_group: 'ALPHA', list_name: 'dev', description: 'Developers', permission_group: 'ALPHA-team', posting_permissions: 'closed',
        automatic_subscription: true, reason: 'We need to talk', ...body,
      });
    const lists = async (name: string) => ((await call(world.app, who(name), 'GET', '/mailinglists')).json() as { rows: Record<string, unknown>[] }).rows;
    const path = (id: string, rest = '') => `/mailinglists/${encodeURIComponent(id)}${rest}`;
    const outbox = async (subjectLike: string) =>
      (await world.db.query<{ to_address: string }>('select to_address from mail_outbox where subject like $1 order by to_address', [subjectLike])).rows.map((r) => r.to_address);

    async function approved(name: string, body: Record<string, unknown>): Promise<string> {
      const answer = await request(name, body);
      assert.equal(answer.statusCode, 200, answer.body);
      const { list_id: listId } = answer.json() as { list_id: string };
      const { rows } = await world.db.query<{ id: string }>("select id from requests where kind = 'mailinglist' and details ->> 'list_id' = $1", [listId]);
      const decided = await call(world.app, who('judge'), 'POST', `/requests/mailinglist/${rows[0]!.id}/approved`, { comment: 'Fine' });
      assert.equal(decided.statusCode, 200, decided.body);
      return listId;
    }

    before(async () => {
      world = await createWorld(databaseKind, fixture, { portal: { email_domain: 'Lists.Example.test' } });
      for (const name of ['alice', 'bob', 'carol', 'dave']) people[name] = await signedIn(world, name);
      people.judge = await signedIn(world, 'judge', { roles: ['adjudicator'] });
      await insertUserGroup(world.db, {
        id: 'ALPHA', name: 'Alpha', description: 'The alpha group', open_access: false, visibility: 'site-approved', member_constraint: 'None', services: [],
      });
      await member('alice', 'ALPHA-admin');
      await member('bob', 'ALPHA-team');
      await member('carol', 'ALPHA-team');
      await member('dave', 'ALPHA-user');
    });
    after(() => world.close());

    test('the request form’s rules, again on the server, with the spec’s messages; nothing is stored', async () => {
      const cases: [string, Record<string, unknown>, string, string][] = [
        ['no name', { list_name: ' ' }, 'list_name', 'Please enter a list name'],
        ['a space in the name', { list_name: 'dev team' }, 'list_name', 'alpha-dev team@lists.example.test must be a valid email'],
        ['an empty segment', { list_name: 'dev..team' }, 'list_name', 'alpha-dev..team@lists.example.test must be a valid email'],
        ['no description', { description: '' }, 'description', 'Please enter a description'],
        ['no reason', { reason: '' }, 'reason', 'Please enter a reason'],
        ['a reason over 150', { reason: 'x'.repeat(151) }, 'reason', 'Must be less than 150 characters (151/150)'],
        ['another group’s permission group', { permission_group: 'BETA-team' }, 'permission_group', "The permission group must be one of ALPHA's groups."],
      ];
      for (const [what, body, field, message] of cases) {
        const answer = await request('alice', body);
        assert.equal(answer.statusCode, 400, what);
        assert.equal((answer.json() as { fields: Record<string, string> }).fields[field], message, what);
      }
      assert.deepEqual((await request('bob')).json(), FORBIDDEN, 'a team member may not request a list');
      assert.equal((await request('alice', { user_group: 'NOPE' })).statusCode, 404);
      const { rows } = await world.db.query("select 1 from requests where kind = 'mailinglist'");
      assert.equal(rows.length, 0);
    });

    test('an approved request creates the list at its lower-case address; a second request for it is refused', async () => {
      const listId = await approved('alice', { list_name: 'Dev.Team' });
      assert.equal(listId, 'alpha-dev.team@lists.example.test');
      const again = await request('alice', { list_name: 'dev.team' });
      assert.equal(again.statusCode, 409);
      assert.deepEqual(again.json(), { error: 'The mailing list alpha-dev.team@lists.example.test already exists or is requested.', code: 409 });
      const groupLists = await call(world.app, who('alice'), 'GET', '/usergroups/ALPHA/mailinglists');
      assert.deepEqual(groupLists.json(), {
        rows: [{ id: listId, description: 'Developers', permission_group: 'ALPHA-team', posting_permissions: 'closed', automatic_subscription: true }],
      });
      const moderator = await world.db.query('select 1 from list_moderators m join accounts a on a.id = m.account_id where a.username = $1 and m.list_id = $2', ['alice', listId]);
      assert.equal(moderator.rows.length, 1, 'the requester moderates it');
    });

    test('opt-out lists subscribe the eligible at once; opt-in lists let them join; others do not see the list', async () => {
      const optOut = 'alpha-dev.team@lists.example.test';
      const optIn = await approved('alice', { list_name: 'news', automatic_subscription: false, permission_group: 'ALPHA-user' });
      const bobLists = await lists('bob');
      // The news list is for ALPHA-user: team members (and admins) are eligible too.
      assert.deepEqual(bobLists.map((l) => [l.id, l.is_subscribed, l.is_regular_subscription, l.is_moderator]), [
        [optOut, true, true, false],
        [optIn, false, true, false],
      ]);
      assert.deepEqual((await lists('dave')).map((l) => [l.id, l.is_subscribed]), [[optIn, false]]);
      const alice = await lists('alice');
      assert.deepEqual(alice.map((l) => [l.id, l.is_moderator, l.held_count]), [[optOut, true, 0], [optIn, true, 0]]);
      assert.deepEqual((await call(world.app, who('dave'), 'GET', path(optOut))).json(), NOT_FOUND, 'not eligible, not a moderator');

      // dave opts in; bob switches to the digest, then leaves and comes back (immediate again).
      const joined = await call(world.app, who('dave'), 'POST', path(optIn), { is_subscribed: true, is_regular_subscription: false });
      assert.equal((joined.json() as { is_subscribed: boolean; is_regular_subscription: boolean }).is_subscribed, true);
      assert.equal((joined.json() as { is_regular_subscription: boolean }).is_regular_subscription, true, 'subscribing sets the digest off');
      const digest = await call(world.app, who('bob'), 'POST', path(optOut), { is_subscribed: true, is_regular_subscription: false });
      assert.equal((digest.json() as { is_regular_subscription: boolean }).is_regular_subscription, false);
      await call(world.app, who('bob'), 'POST', path(optOut), { is_subscribed: false, is_regular_subscription: false });
      const back = await call(world.app, who('bob'), 'POST', path(optOut), { is_subscribed: true, is_regular_subscription: false });
      assert.deepEqual([(back.json() as { is_subscribed: boolean }).is_subscribed, (back.json() as { is_regular_subscription: boolean }).is_regular_subscription], [true, true]);
    });

    test('member administration: moderators see the eligible users and subscribe one; others are refused', async () => {
      const optOut = 'alpha-dev.team@lists.example.test';
      const members = await call(world.app, who('alice'), 'GET', path(optOut, '/members'));
      assert.equal(members.statusCode, 200);
      // ALPHA-team's list: its team members and, above them, its admin.
      assert.deepEqual((members.json() as { rows: { user_email: string; is_subscribed: boolean }[] }).rows.map((r) => [r.user_email, r.is_subscribed]).sort(), [
        ['alice@example.test', true],
        ['bob@example.test', true],
        ['carol@example.test', true],
      ]);
      assert.deepEqual((await call(world.app, who('bob'), 'GET', path(optOut, '/members'))).json(), FORBIDDEN);
      const off = await call(world.app, who('alice'), 'POST', path(optOut), { is_subscribed: false, is_regular_subscription: true, user_email: 'carol@example.test' });
      assert.equal(off.statusCode, 200);
      const after = (await call(world.app, who('alice'), 'GET', path(optOut, '/members'))).json() as { rows: { user_email: string; is_subscribed: boolean }[] };
      assert.deepEqual(after.rows.find((r) => r.user_email === 'carol@example.test')?.is_subscribed, false);
      const outsider = await call(world.app, who('alice'), 'POST', path(optOut), { is_subscribed: true, is_regular_subscription: true, user_email: 'dave@example.test' });
      assert.equal(outsider.statusCode, 400);
      assert.equal((outsider.json() as { fields: Record<string, string> }).fields.user_email, 'dave@example.test is not eligible for this list.');
      assert.deepEqual(
        (await call(world.app, who('bob'), 'POST', path(optOut), { is_subscribed: false, is_regular_subscription: true, user_email: 'carol@example.test' })).json(),
        FORBIDDEN,
      );
      await call(world.app, who('alice'), 'POST', path(optOut), { is_subscribed: true, is_regular_subscription: true, user_email: 'carol@example.test' });
    });

    test('held messages: accept delivers to immediate subscribers through the outbox, always-accept remembers the sender, discard-deferred empties the rest', async () => {
      const optOut = 'alpha-dev.team@lists.example.test';
      const hold = (subject: string, sender = 'stranger@elsewhere.test') =>
        insertHeldMessage(world.db, {
          listId: optOut, sender, subject, text: `Body of ${subject}\n<script>alert(1)</script>`, raw: Buffer.from(`Subject: ${subject}\r\n\r\nBody`), reason: 'Not a subscriber', heldAt: world.clock.now(),
        });
      const first = await hold('First');
      const second = await hold('Second', 'friend@elsewhere.test');
      await hold('Third');
      await hold('Fourth');
      const held = await call(world.app, who('alice'), 'GET', path(optOut, '/held'));
      const rows = (held.json() as { rows: { request_id: number; subject: string; msg: string; original_size: number }[] }).rows;
      assert.deepEqual(rows.map((r) => r.subject), ['First', 'Second', 'Third', 'Fourth']);
      assert.equal(rows[0]!.msg, 'Body of First\n<script>alert(1)</script>', 'the text as it came, for the page to show as text');
      assert.equal(rows[0]!.original_size, 0.1, 'in KB, a tenth at least');
      assert.deepEqual((await call(world.app, who('bob'), 'GET', path(optOut, '/held'))).json(), FORBIDDEN);
      assert.equal(((await lists('alice')).find((l) => l.id === optOut) as { held_count: number }).held_count, 4);

      // bob takes the digest: the accepted post is mailed at once to alice and carol only.
      await call(world.app, who('bob'), 'POST', path(optOut), { is_subscribed: true, is_regular_subscription: false });
      const acted = await call(world.app, who('alice'), 'POST', path(optOut, '/held'), {
        messages: [
          { messageId: first, action: 'accept', sender: 'stranger@elsewhere.test' },
          { messageId: second, action: 'always-accept', sender: 'friend@elsewhere.test' },
        ],
        discard_deferred: true,
      });
      assert.deepEqual(acted.json(), { ok: true, accepted: 2, discarded: 2 });
      assert.deepEqual(await outbox('[alpha-dev.team] First'), ['alice@example.test', 'carol@example.test']);
      assert.deepEqual(await outbox('[alpha-dev.team] Second'), ['alice@example.test', 'carol@example.test']);
      const accepted = await world.db.query('select sender from list_accepted_senders where list_id = $1', [optOut]);
      assert.deepEqual(accepted.rows, [{ sender: 'friend@elsewhere.test' }]);
      assert.deepEqual(((await call(world.app, who('alice'), 'GET', path(optOut, '/held'))).json() as { rows: unknown[] }).rows, []);
      const posts = await world.db.query('select subject from list_posts where list_id = $1 order by id', [optOut]);
      assert.deepEqual(posts.rows, [{ subject: 'First' }, { subject: 'Second' }], 'kept for the digest');
      const all = await call(world.app, who('alice'), 'GET', '/moderation/held');
      assert.deepEqual(all.json(), { rows: [] });

      // bob's daily digest holds both posts, once; the next one waits a day.
      assert.equal(await runListDigests(world.db, world.clock.now()), 1);
      const digests = await world.db.query<{ to_address: string; body: string }>("select to_address, body from mail_outbox where subject like '[alpha-dev.team] Digest,%'");
      assert.deepEqual(digests.rows.map((r) => r.to_address), ['bob@example.test']);
      assert.match(digests.rows[0]!.body, /^Developers \(alpha-dev\.team@lists\.example\.test\): 2 messages\n\n1\. First \(stranger@elsewhere\.test\)\n2\. Second \(friend@elsewhere\.test\)/);
      assert.equal(await runListDigests(world.db, world.clock.now()), 0, 'once');
      await insertHeldMessage(world.db, { listId: optOut, sender: 'x@elsewhere.test', subject: 'Later', text: 'Later', raw: Buffer.from('x'), reason: 'r', heldAt: world.clock.now() });
      const later = ((await call(world.app, who('alice'), 'GET', path(optOut, '/held'))).json() as { rows: { request_id: number }[] }).rows[0]!;
      await call(world.app, who('alice'), 'POST', path(optOut, '/held'), { messages: [{ messageId: later.request_id, action: 'accept', sender: 'x@elsewhere.test' }] });
      assert.equal(await runListDigests(world.db, new Date(world.clock.now().getTime() + 23 * 3_600_000)), 0, 'not before a day has passed');
      assert.equal(await runListDigests(world.db, new Date(world.clock.now().getTime() + 25 * 3_600_000)), 1);
    });

    test('leaving the group ends eligibility at once', async () => {
      const optOut = 'alpha-dev.team@lists.example.test';
      await world.db.query("delete from group_memberships where account_id = $1 and group_name = 'ALPHA-team'", [people.carol!.account.id]);
      assert.deepEqual(await lists('carol'), []);
      assert.deepEqual((await call(world.app, who('carol'), 'GET', path(optOut))).json(), NOT_FOUND);
      const members = (await call(world.app, who('alice'), 'GET', path(optOut, '/members'))).json() as { rows: { user_email: string }[] };
      assert.deepEqual(members.rows.map((r) => r.user_email).sort(), ['alice@example.test', 'bob@example.test']);
    });

    test('an address longer than 100 characters (a 64-character name on a long domain) is still reached, not refused as too long a path', async () => {
      const long = `alpha-${'x'.repeat(58)}@lists.engineering.platform.agency.example.test`;
      assert.ok(long.length > 100);
      const response = await call(world.app, who('alice'), 'GET', path(long));
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), NOT_FOUND);
    });

    test("a moderator outside the list's permission group sees it marked not eligible, before a subscription they would be refused", async () => {
      await insertPermissionGroup(world.db, 'ALPHA', 'ALPHA-ops', world.clock.now());
      await member('bob', 'ALPHA-ops');
      const ops = await approved('alice', { list_name: 'ops', permission_group: 'ALPHA-ops' });
      const mine = (await lists('alice')).find((l) => l.id === ops)!;
      assert.deepEqual([mine.is_moderator, mine.is_eligible, mine.is_subscribed], [true, false, false]);
      const bobs = (await lists('bob')).find((l) => l.id === ops)!;
      assert.deepEqual([bobs.is_moderator, bobs.is_eligible, bobs.is_subscribed], [false, true, true]);
      assert.equal((await call(world.app, who('alice'), 'GET', path(ops))).json<{ is_eligible: boolean }>().is_eligible, false);
      const refused = await call(world.app, who('alice'), 'POST', path(ops), { is_subscribed: true, is_regular_subscription: true });
      assert.deepEqual(refused.json(), { error: 'alice@example.test is not eligible for this list.', code: 400 });
    });
  });
}
