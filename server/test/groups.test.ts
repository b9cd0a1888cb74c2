/**
 * Groups and memberships (server/docs/groups.md): the group calls, membership requests applied at
 * once or decided by a group admin, and the rules that keep a group admin inside their own group,
 * each tried as an attack that must be refused with nothing changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Service } from '@portal/api';
import { addMembership, addNesting, insertPermissionGroup, insertUserGroup } from '../src/repositories/groups.js';
import { listMail } from '../src/services/mail.js';
import type { Principal, TestAccount } from './auth-helpers.js';
import { DATABASE_KINDS, createFixture, type Fixture } from './helpers.js';
import { FORBIDDEN, call, createWorld, signedIn, type World } from './self-service-helpers.js';

let fixture: Fixture;
before(() => {
  fixture = createFixture();
});
after(() => fixture.remove());

const GROUP_NOT_FOUND = { error: 'User group not found.', code: 404 };

for (const databaseKind of DATABASE_KINDS) {
  describe(`groups on ${databaseKind}`, () => {
    let world: World;
    const people: Record<string, { account: TestAccount; who: Principal }> = {};
    const who = (name: string) => people[name]!.who;

    const group = async (id: string, options: { open?: boolean; hidden?: boolean; dod?: boolean; services?: Service[] } = {}) =>
      insertUserGroup(world.db, {
        id,
        name: `${id} team`,
        description: `The ${id} group`,
        open_access: options.open ?? false,
        visibility: options.hidden ? `${id}-admin` : 'site-approved',
        member_constraint: options.dod ? 'DoD' : 'None',
        services: options.services ?? ['jira', 'artifacts'],
      });
    const member = async (name: string, groupName: string) => addMembership(world.db, groupName.split('-')[0]!, people[name]!.account.id, groupName);
    const held = async (name: string, userGroup: string) =>
      (
        await world.db.query<{ group_name: string }>('select group_name from group_memberships where account_id = $1 and user_group_id = $2 order by group_name', [
          people[name]!.account.id,
          userGroup,
        ])
      ).rows.map((r) => r.group_name);
    const pending = async (userGroup: string) =>
      (await world.db.query<{ id: string }>("select id from requests where kind = 'membership' and status = 'pending' and details->>'user_group' = $1", [userGroup]))
        .rows.length;
    const body = (userGroup: string, username: string, join: string[], leave: string[], updateIntent: string, reason = 'Working on it') => ({
      user_group: userGroup,
      username,
      join,
      leave,
      reason,
      updateIntent,
    });

    before(async () => {
      world = await createWorld(databaseKind, fixture, { portal: { supported_services: 'jira,artifacts,bitbucket,confluence' } });
      for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) people[name] = await signedIn(world, name);
      people.judge = await signedIn(world, 'judge', { roles: ['adjudicator'] });
      people.boss = await signedIn(world, 'boss', { roles: ['site-admin'] });
      people.desk = await signedIn(world, 'desk', { roles: ['help-desk'] });
      people.shut = await signedIn(world, 'shut');
      await world.db.query('update accounts set closed = true, active = false where id = $1', [people.shut.account.id]);
      people.held = await signedIn(world, 'held');
      await world.db.query('update accounts set active = false where id = $1', [people.held.account.id]);

      await group('ALPHA');
      await group('BETA');
      await group('OPEN', { open: true });
      await group('HIDE', { hidden: true });
      await group('DOD', { dod: true });
      await insertPermissionGroup(world.db, 'ALPHA', 'ALPHA-release', new Date());
      await member('alice', 'ALPHA-admin');
      await member('bob', 'ALPHA-team');
      await member('carol', 'ALPHA-user');
      await member('dave', 'BETA-admin');
      await member('alice', 'HIDE-admin');
      await member('erin', 'HIDE-user');
    });
    after(async () => world.close());

    describe('GET /usergroups and /usergroups/{id}', () => {
      test('lists every group the caller sees with their role and permissions; a hidden group only to its members and HIDDEN_GROUP', async () => {
        const res = await call(world.app, who('alice'), 'GET', '/usergroups');
        assert.equal(res.statusCode, 200);
        const rows = res.json<{ rows: { id: string; role: string | null; permissions: string[] }[] }>().rows;
        assert.deepEqual(
          rows.map((r) => [r.id, r.role]),
          [
            ['ALPHA', 'admin'],
            ['BETA', null],
            ['DOD', null],
            ['HIDE', 'admin'],
            ['OPEN', null],
          ],
        );
        assert.ok(rows[0]!.permissions.includes('ADJUDICATE_MEMBERSHIP_REQUEST'));
        assert.deepEqual(rows[1]!.permissions, []);
        const frank = (await call(world.app, who('frank'), 'GET', '/usergroups')).json<{ rows: { id: string }[] }>().rows.map((r) => r.id);
        assert.deepEqual(frank, ['ALPHA', 'BETA', 'DOD', 'OPEN']);
        const erin = (await call(world.app, who('erin'), 'GET', '/usergroups')).json<{ rows: { id: string }[] }>().rows.map((r) => r.id);
        assert.ok(erin.includes('HIDE'));
        const boss = (await call(world.app, who('boss'), 'GET', '/usergroups')).json<{ rows: { id: string }[] }>().rows.map((r) => r.id);
        assert.ok(boss.includes('HIDE'));
      });

      test("a group's details: additional groups without the fixed ones, the member count, the caller's permissions", async () => {
        const res = await call(world.app, who('bob'), 'GET', '/usergroups/ALPHA');
        assert.equal(res.statusCode, 200);
        const g = res.json<Record<string, unknown>>();
        assert.equal(g.domain, 'TRMC');
        assert.deepEqual(g.groups, ['ALPHA-release']);
        assert.equal(g.member_count, 3);
        assert.equal(g.role, 'team');
        assert.deepEqual(g.permissions, ['VIEW_MEMBERSHIP', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST']);
      });

      test("a hidden group's details are not found by a non-member, whether or not it exists", async () => {
        assert.deepEqual((await call(world.app, who('frank'), 'GET', '/usergroups/HIDE')).json(), GROUP_NOT_FOUND);
        assert.deepEqual((await call(world.app, who('frank'), 'GET', '/usergroups/NOPE')).json(), GROUP_NOT_FOUND);
        assert.equal((await call(world.app, who('erin'), 'GET', '/usergroups/HIDE')).statusCode, 200);
      });

      test("the group's mailing lists: none yet, for those who see its members only", async () => {
        assert.deepEqual((await call(world.app, who('bob'), 'GET', '/usergroups/ALPHA/mailinglists')).json(), { rows: [] });
        assert.deepEqual((await call(world.app, who('carol'), 'GET', '/usergroups/ALPHA/mailinglists')).json(), FORBIDDEN);
      });
    });

    describe('members', () => {
      test('a page of members in name order with role, notification and special groups; filtered by name and by role', async () => {
        const res = await call(world.app, who('bob'), 'POST', '/memberships/search', { user_group: 'ALPHA' });
        assert.equal(res.statusCode, 200);
        const page = res.json<{ rows: { username: string; role: string; notification: string }[]; total: number; has_more_results: boolean }>();
        assert.equal(page.total, 3);
        assert.deepEqual(page.rows.map((r) => [r.username, r.role]).sort(), [
          ['alice', 'admin'],
          ['bob', 'team'],
          ['carol', 'user'],
        ]);
        const admins = (await call(world.app, who('bob'), 'POST', '/memberships/search', { user_group: 'ALPHA', role: 'admin' })).json<{ rows: { username: string }[] }>();
        assert.deepEqual(admins.rows.map((r) => r.username), ['alice']);
        const byName = (await call(world.app, who('bob'), 'POST', '/memberships/search', { user_group: 'ALPHA', filter: 'CAR' })).json<{ rows: { username: string }[] }>();
        assert.deepEqual(byName.rows.map((r) => r.username), ['carol']);
        const paged = (await call(world.app, who('bob'), 'POST', '/memberships/search', { user_group: 'ALPHA', max_results: 2 })).json<{ rows: unknown[]; has_more_results: boolean }>();
        assert.equal(paged.rows.length, 2);
        assert.equal(paged.has_more_results, true);
      });

      test("a plain member sees only their own membership; another group's admin sees nothing of this one", async () => {
        assert.deepEqual((await call(world.app, who('carol'), 'POST', '/memberships/search', { user_group: 'ALPHA' })).json(), FORBIDDEN);
        const own = (await call(world.app, who('carol'), 'POST', '/memberships/search', { user_group: 'ALPHA', username: 'carol' })).json<{ rows: { direct: string[] }[] }>();
        assert.deepEqual(own.rows[0]!.direct, ['ALPHA-user']);
        assert.deepEqual((await call(world.app, who('dave'), 'POST', '/memberships/search', { user_group: 'ALPHA' })).json(), FORBIDDEN);
      });

      test('a member through a nested group is listed with the nested name, and their role derives from it', async () => {
        await group('NEST', { services: [] });
        await member('frank', 'NEST-user');
        await addNesting(world.db, 'ALPHA', 'ALPHA-team', 'NEST-user');
        try {
          const res = (await call(world.app, who('alice'), 'POST', '/memberships/search', { user_group: 'ALPHA', username: 'frank' })).json<{
            rows: { role: string; direct: string[]; nested: string[] }[];
          }>();
          assert.deepEqual(res.rows[0], { ...res.rows[0], role: 'team', direct: [], nested: ['ALPHA-team'] });
          const profile = (await call(world.app, who('frank'), 'GET', '/accounts/frank')).json<{ groups: { user_group: string; role: string }[] }>();
          assert.deepEqual(profile.groups.find((g) => g.user_group === 'ALPHA')?.role, 'team');
          // ALPHA's services reach frank through the nesting: nested subscriptions.
          const subscriptions = (await call(world.app, who('frank'), 'GET', '/subscriptions/frank')).json<{ nested: string[] }>();
          assert.ok(subscriptions.nested.includes('artifacts'), JSON.stringify(subscriptions));
        } finally {
          await world.db.query("delete from group_nestings where member_group = 'NEST-user'");
        }
      });
    });

    describe('membership requests', () => {
      test('a member only through a nested group asks for a change on either route; it waits for a group admin and adds a direct role', async () => {
        await group('NEST2', { services: [] });
        await member('frank', 'NEST2-user');
        await addNesting(world.db, 'BETA', 'BETA-user', 'NEST2-user');
        try {
          const res = await call(world.app, who('frank'), 'POST', '/requests/membership/update', body('BETA', 'frank', ['BETA-team'], ['BETA-user'], 'update'));
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json<{ status: string }>().status, 'pending');
          const again = await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('BETA', 'frank', ['BETA-team'], [], 'request'));
          assert.deepEqual(again.json(), { error: 'A membership request for frank in BETA is already pending.', code: 409 });
          const id = res.json<{ id: number }>().id;
          assert.equal((await call(world.app, who('dave'), 'POST', `/requests/membership/${id}/approved`, {})).statusCode, 200);
          assert.deepEqual(await held('frank', 'BETA'), ['BETA-team']);
          const notMember = await call(world.app, who('erin'), 'POST', '/requests/membership/update', body('BETA', 'erin', ['BETA-team'], [], 'update'));
          assert.deepEqual(notMember.json(), { error: 'erin is not a member of BETA.', code: 409 });
        } finally {
          await world.db.query("delete from group_nestings where member_group = 'NEST2-user'");
          await world.db.query("delete from group_memberships where group_name = 'BETA-team'");
        }
      });

      test('a new membership with ?groups= preselection waits for a group admin, who approves it: the lists apply, history and mail', async () => {
        const res = await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('ALPHA', 'frank', ['ALPHA-team', 'ALPHA-notification-high'], [], 'request'));
        assert.equal(res.statusCode, 200, res.body);
        const answer = res.json<{ id: number; status: string }>();
        assert.equal(answer.status, 'pending');
        assert.deepEqual(await held('frank', 'ALPHA'), []);
        const list = (await call(world.app, who('alice'), 'GET', '/requests/membership?user_group=ALPHA')).json<{ rows: { id: number; identifier: string }[] }>();
        assert.ok(list.rows.some((r) => r.id === answer.id && r.identifier === 'ALPHA'));
        const detail = (await call(world.app, who('alice'), 'GET', `/requests/membership/${answer.id}`)).json<{ decisions: string[]; join: string[] }>();
        assert.deepEqual(detail.decisions, ['approved', 'denied']);
        assert.deepEqual(detail.join, ['ALPHA-team', 'ALPHA-notification-high']);

        // A team member sees it but cannot decide; another group's admin sees nothing.
        assert.deepEqual((await call(world.app, who('bob'), 'GET', `/requests/membership/${answer.id}`)).json<{ decisions: string[] }>().decisions, []);
        assert.deepEqual((await call(world.app, who('bob'), 'POST', `/requests/membership/${answer.id}/approved`, {})).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, who('dave'), 'GET', `/requests/membership/${answer.id}`)).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, who('dave'), 'POST', `/requests/membership/${answer.id}/approved`, {})).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, who('dave'), 'GET', '/requests/membership?user_group=ALPHA')).json(), FORBIDDEN);
        assert.deepEqual(await held('frank', 'ALPHA'), []);

        const approved = await call(world.app, who('alice'), 'POST', `/requests/membership/${answer.id}/approved`, { comment: 'Welcome' });
        assert.equal(approved.statusCode, 200, approved.body);
        assert.deepEqual(await held('frank', 'ALPHA'), ['ALPHA-notification-high', 'ALPHA-team']);
        const mail = await listMail(world.db, 'frank@example.test');
        const approvedMail = mail.find((m) => m.subject === 'Your request to join ALPHA was approved');
        assert.ok(approvedMail, mail.map((m) => m.subject).join(', '));
        assert.match(approvedMail.text, /^Your request to join ALPHA \(ALPHA team\) was approved\.\nJoined: /);
        const history = (await call(world.app, who('boss'), 'GET', '/accounts/frank')).json<{ updates: { action: string; comment: string }[] }>();
        assert.equal(history.updates[0]?.action, 'Membership changed');
      });

      test('the member changes notification to none at once, then leaves the group at once', async () => {
        const change = await call(world.app, who('frank'), 'POST', '/requests/membership/update', body('ALPHA', 'frank', [], ['ALPHA-notification-high'], 'update', ''));
        assert.equal(change.json<{ status: string }>().status, 'approved');
        assert.deepEqual(await held('frank', 'ALPHA'), ['ALPHA-team']);
        const leave = await call(world.app, who('frank'), 'POST', '/requests/membership/update', body('ALPHA', 'frank', [], ['ALPHA-team'], 'leave', ''));
        assert.equal(leave.json<{ status: string }>().status, 'approved');
        assert.deepEqual(await held('frank', 'ALPHA'), []);
      });

      test("a denied change of a membership: the member's mail says what was asked (the subject and first line, exactly)", async () => {
        await group('MAILS');
        await member('erin', 'MAILS-user');
        const res = await call(world.app, who('erin'), 'POST', '/requests/membership/update', body('MAILS', 'erin', ['MAILS-team'], ['MAILS-user'], 'update'));
        const answer = res.json<{ id: number; status: string }>();
        assert.equal(answer.status, 'pending', res.body);
        const denied = await call(world.app, who('boss'), 'POST', `/requests/membership/${answer.id}/denied`, { comment: 'Not this quarter' });
        assert.equal(denied.statusCode, 200, denied.body);
        const mail = (await listMail(world.db, 'erin@example.test')).find((m) => m.subject.includes('MAILS'));
        assert.equal(mail?.subject, 'Your request to change your membership of MAILS was denied');
        assert.match(mail?.text ?? '', /^Your request to change your membership of MAILS \(MAILS team\) was denied\.\n\nComment:\nNot this quarter\n/);
      });

      test('a new membership needs a reason; one pending request per account and group', async () => {
        const noReason = await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('BETA', 'frank', ['BETA-user'], [], 'request', ' '));
        assert.deepEqual(noReason.json(), { error: 'Reason is required.', code: 400, fields: { reason: 'Reason is required.' } });
        // A reason box: 150 (spec section 9).
        const longReason = await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('BETA', 'frank', ['BETA-user'], [], 'request', 'r'.repeat(151)));
        assert.deepEqual(longReason.json(), { error: 'Must be less than 150 characters (151/150)', code: 400, fields: { reason: 'Must be less than 150 characters (151/150)' } });
        assert.equal((await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('BETA', 'frank', ['BETA-user'], [], 'request'))).statusCode, 200);
        const again = await call(world.app, who('frank'), 'POST', '/requests/membership/new', body('BETA', 'frank', ['BETA-team'], [], 'request'));
        assert.deepEqual(again.json(), { error: 'A membership request for frank in BETA is already pending.', code: 409 });
      });

      test('the groups list and a group say where the caller has a request waiting (as the screens show it), and only to them', async () => {
        await group('WAIT');
        await member('dave', 'WAIT-admin');
        const sent = await call(world.app, who('erin'), 'POST', '/requests/membership/new', body('WAIT', 'erin', ['WAIT-user'], [], 'request'));
        assert.equal(sent.json<{ status: string }>().status, 'pending');
        const rows = (await call(world.app, who('erin'), 'GET', '/usergroups')).json<{ rows: { id: string; pending_request: boolean }[] }>().rows;
        assert.deepEqual(rows.filter((r) => r.pending_request).map((r) => r.id), ['WAIT']);
        assert.ok(rows.length > 1);
        assert.equal((await call(world.app, who('erin'), 'GET', '/usergroups/WAIT')).json<{ pending_request: boolean }>().pending_request, true);
        // Its admin, who decides it, has no request of their own waiting there.
        assert.equal((await call(world.app, who('dave'), 'GET', '/usergroups/WAIT')).json<{ pending_request: boolean }>().pending_request, false);
        const denied = await call(world.app, who('dave'), 'POST', `/requests/membership/${sent.json<{ id: number }>().id}/denied`, { comment: 'Not now' });
        assert.equal(denied.statusCode, 200, denied.body);
        const after = (await call(world.app, who('erin'), 'GET', '/usergroups')).json<{ rows: { id: string; pending_request: boolean }[] }>().rows;
        assert.equal(after.find((r) => r.id === 'WAIT')?.pending_request, false, 'decided: no longer pending');
      });

      test('asking for notifications alone, without a role, waits for a group admin (the mails tell what the project does)', async () => {
        await group('QUIET');
        const res = await call(world.app, who('erin'), 'POST', '/requests/membership/new', body('QUIET', 'erin', ['QUIET-notification-high'], [], 'request'));
        assert.equal(res.json<{ status: string }>().status, 'pending');
        assert.deepEqual(await held('erin', 'QUIET'), []);
      });

      test('joining an open-access group as a user applies at once; as team it waits', async () => {
        const user = await call(world.app, who('carol'), 'POST', '/requests/membership/new', body('OPEN', 'carol', ['OPEN-user'], [], 'request'));
        assert.equal(user.json<{ status: string }>().status, 'approved');
        assert.deepEqual(await held('carol', 'OPEN'), ['OPEN-user']);
        const team = await call(world.app, who('bob'), 'POST', '/requests/membership/new', body('OPEN', 'bob', ['OPEN-team'], [], 'request'));
        assert.equal(team.json<{ status: string }>().status, 'pending');
        assert.deepEqual(await held('bob', 'OPEN'), []);
      });

      test("a group admin adds a user at once with the reason 'group-admin add'; a closed or locked account is refused", async () => {
        const add = await call(world.app, who('alice'), 'POST', '/requests/membership/new', body('ALPHA', 'erin', ['ALPHA-user'], [], 'join', ''));
        assert.equal(add.json<{ status: string }>().status, 'approved');
        assert.deepEqual(await held('erin', 'ALPHA'), ['ALPHA-user']);
        const { rows } = await world.db.query<{ reason: string; submitted_by: string }>('select reason, submitted_by from requests where id = $1', [add.json<{ id: number }>().id]);
        assert.deepEqual(rows[0], { reason: 'group-admin add', submitted_by: 'alice' });
        assert.deepEqual((await call(world.app, who('alice'), 'POST', '/requests/membership/new', body('ALPHA', 'shut', ['ALPHA-user'], [], 'join'))).json(), {
          error: 'The account for username shut is closed.',
          code: 409,
        });
        assert.deepEqual((await call(world.app, who('alice'), 'POST', '/requests/membership/new', body('ALPHA', 'held', ['ALPHA-user'], [], 'join'))).json(), {
          error: 'The account for username held is locked.',
          code: 409,
        });
        assert.deepEqual(await held('shut', 'ALPHA'), []);
      });

      test("the add-user search: the group's admin may search every account; its team and another group's admin may not", async () => {
        const res = await call(world.app, who('alice'), 'POST', '/usergroups/ALPHA/candidates', { term: 'fra' });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json<{ rows: { username: string }[] }>().rows.map((r) => r.username), ['frank']);
        assert.deepEqual((await call(world.app, who('bob'), 'POST', '/usergroups/ALPHA/candidates', { term: 'fra' })).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, who('dave'), 'POST', '/usergroups/ALPHA/candidates', { term: 'fra' })).json(), FORBIDDEN);
        assert.equal((await call(world.app, who('alice'), 'POST', '/usergroups/ALPHA/candidates', { term: ' ' })).json<{ error: string }>().error, 'Please enter a search term.');
      });

      test('a group admin removes a member (surrogate leave) at once', async () => {
        const res = await call(world.app, who('alice'), 'POST', '/requests/membership/update', body('ALPHA', 'erin', [], ['ALPHA-user'], 'leave', ''));
        assert.equal(res.json<{ status: string }>().status, 'approved');
        assert.deepEqual(await held('erin', 'ALPHA'), []);
        assert.ok((await listMail(world.db, 'erin@example.test')).some((m) => m.subject === 'Your membership of ALPHA was changed'), 'a change someone else applied at once');
      });
    });

    describe('refused, with nothing changed', () => {
      const refused = async (who: Principal, path: string, payload: unknown, expected: unknown, check: () => Promise<void>) => {
        const res = await call(world.app, who, 'POST', path, payload);
        assert.deepEqual(res.json(), expected);
        await check();
      };
      const aliceAdds = (join: string[]) => call(world.app, who('alice'), 'POST', '/requests/membership/new', body('ALPHA', 'dave', join, [], 'join'));

      test("a group admin granting a site role, another group's role, a reserved service group or a name outside the group's prefix", async () => {
        for (const name of ['site-admin', 'BETA-admin', 'ALPHA-bitbucketAdmin', 'ALPHAX-user', 'ALPHA-made-up']) {
          const res = await aliceAdds([name]);
          assert.equal(res.statusCode, 400, name);
          assert.equal(res.json<{ error: string }>().error, `The group ${name} is not a group of ALPHA.`);
        }
        assert.deepEqual(await held('dave', 'ALPHA'), []);
        assert.deepEqual(await held('dave', 'BETA'), ['BETA-admin']);
      });

      test("a group of a service the portal does not offer (the group still uses it): not joined, while one held is left as any other", async () => {
        // The portal offers jira, artifacts, bitbucket and confluence; LEGACY still uses the interface repository.
        await group('LEGACY', { services: ['jira', 'repository'] });
        await member('dave', 'LEGACY-admin');
        await member('carol', 'LEGACY-user');
        await member('carol', 'LEGACY-repositoryRead');
        const join = await call(world.app, who('dave'), 'POST', '/requests/membership/new', body('LEGACY', 'erin', ['LEGACY-user', 'LEGACY-repositoryWrite'], [], 'join'));
        assert.deepEqual(join.json(), {
          error: 'The service repository is not offered on this portal.',
          code: 400,
          fields: { join: 'The service repository is not offered on this portal.' },
        });
        assert.deepEqual(await held('erin', 'LEGACY'), []);
        const change = await call(world.app, who('carol'), 'POST', '/requests/membership/update', body('LEGACY', 'carol', ['LEGACY-repositoryWrite'], ['LEGACY-repositoryRead'], 'update'));
        assert.equal(change.statusCode, 400);
        assert.equal(await pending('LEGACY'), 0);
        const leave = await call(world.app, who('carol'), 'POST', '/requests/membership/update', body('LEGACY', 'carol', [], ['LEGACY-repositoryRead'], 'update', ''));
        assert.equal(leave.statusCode, 200, leave.body);
        assert.deepEqual(await held('carol', 'LEGACY'), ['LEGACY-user']);
      });

      test("a surrogate who is not the group's admin (help desk) removes no one at once: the removal waits for a group admin", async () => {
        await member('carol', 'OPEN-user');
        people.desk2 ??= await signedIn(world, 'desk2', { roles: ['help-desk'] });
        const res = await call(world.app, who('desk2'), 'POST', '/requests/membership/update', body('OPEN', 'carol', [], ['OPEN-user'], 'leave', ''));
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json<{ status: string }>().status, 'pending');
        assert.deepEqual(await held('carol', 'OPEN'), ['OPEN-user']);
      });

      test('approving a DoD group asked for by someone who signs in with a website token is refused: its admin could not be a member', async () => {
        const ask = await call(world.app, who('erin'), 'POST', '/requests/usergroup', {
          user_group: 'DODNEW',
          name: 'New DoD',
          description: 'Smart cards only',
          open_access: false,
          memberConstraint: 'DoD',
          reason: 'Classified work',
        });
        assert.equal(ask.statusCode, 200, ask.body);
        const { rows } = await world.db.query<{ id: string }>("select id from requests where kind = 'usergroup' and details->>'user_group' = 'DODNEW'");
        const res = await call(world.app, who('judge'), 'POST', `/requests/usergroup/${rows[0]!.id}/approved`, {});
        assert.deepEqual(res.json(), { error: 'Members of DODNEW must sign in with a smart card (DoD PKI).', code: 409 });
        assert.equal((await world.db.query("select 1 from user_groups where id = 'DODNEW'")).rows.length, 0);
      });

      test('a group team member adding or adjudicating; a surrogate without SUBMIT_SURROGATE_REQUEST', async () => {
        await refused(who('bob'), '/requests/membership/new', body('ALPHA', 'dave', ['ALPHA-user'], [], 'join'), FORBIDDEN, async () => assert.deepEqual(await held('dave', 'ALPHA'), []));
        await refused(who('bob'), '/requests/membership/update', body('ALPHA', 'carol', [], ['ALPHA-user'], 'leave'), FORBIDDEN, async () =>
          assert.deepEqual(await held('carol', 'ALPHA'), ['ALPHA-user']),
        );
        await refused(who('dave'), '/requests/membership/new', body('ALPHA', 'frank', ['ALPHA-user'], [], 'request'), FORBIDDEN, async () =>
          assert.deepEqual(await held('frank', 'ALPHA'), []),
        );
      });

      test('deciding one’s own membership request; adding oneself', async () => {
        const own = await call(world.app, who('alice'), 'POST', '/requests/membership/update', body('ALPHA', 'alice', ['ALPHA-release'], [], 'update'));
        assert.equal(own.json<{ status: string }>().status, 'pending');
        const id = own.json<{ id: number }>().id;
        await refused(who('alice'), `/requests/membership/${id}/approved`, {}, { error: 'You cannot decide your own request.', code: 403 }, async () =>
          assert.deepEqual(await held('alice', 'ALPHA'), ['ALPHA-admin']),
        );
        await refused(who('alice'), '/requests/membership/new', body('BETA', 'alice', ['BETA-admin'], [], 'join'), FORBIDDEN, async () =>
          assert.deepEqual(await held('alice', 'BETA'), []),
        );
      });

      test('a membership request for a closed or locked account; for a hidden group by a non-member', async () => {
        await refused(who('boss'), '/requests/membership/new', body('BETA', 'shut', ['BETA-user'], [], 'request'), { error: 'The account for username shut is closed.', code: 409 }, async () =>
          assert.equal(await pending('BETA'), 1),
        );
        await refused(who('boss'), '/requests/membership/new', body('BETA', 'held', ['BETA-user'], [], 'request'), { error: 'The account for username held is locked.', code: 409 }, async () =>
          assert.equal(await pending('BETA'), 1),
        );
        await refused(who('frank'), '/requests/membership/new', body('HIDE', 'frank', ['HIDE-user'], [], 'request'), GROUP_NOT_FOUND, async () =>
          assert.deepEqual(await held('frank', 'HIDE'), []),
        );
      });

      test('the last admin cannot leave or step down; with a second admin they can', async () => {
        await refused(who('dave'), '/requests/membership/update', body('BETA', 'dave', [], ['BETA-admin'], 'leave'), { error: 'BETA must keep at least one admin: make another member an admin first.', code: 409 }, async () =>
          assert.deepEqual(await held('dave', 'BETA'), ['BETA-admin']),
        );
        await refused(who('dave'), '/requests/membership/update', body('BETA', 'dave', ['BETA-user'], ['BETA-admin'], 'update'), { error: 'BETA must keep at least one admin: make another member an admin first.', code: 409 }, async () =>
          assert.deepEqual(await held('dave', 'BETA'), ['BETA-admin']),
        );
        await member('carol', 'BETA-admin');
        assert.equal((await call(world.app, who('dave'), 'POST', '/requests/membership/update', body('BETA', 'dave', ['BETA-user'], ['BETA-admin'], 'update'))).statusCode, 200);
        assert.deepEqual(await held('dave', 'BETA'), ['BETA-user']);
      });

      test('naming a role one does not hold in the leave list is no stepping down: the role asked for waits for a group admin', async () => {
        // carol holds ALPHA-user; "leaving" ALPHA-admin must not make ALPHA-team harmless.
        const change = await call(world.app, who('carol'), 'POST', '/requests/membership/update', body('ALPHA', 'carol', ['ALPHA-team'], ['ALPHA-admin'], 'update'));
        assert.equal(change.json<{ status: string }>().status, 'pending', change.body);
        assert.deepEqual(await held('carol', 'ALPHA'), ['ALPHA-user']);
        // Nor for someone outside the group.
        const outsider = await call(world.app, who('erin'), 'POST', '/requests/membership/new', body('ALPHA', 'erin', ['ALPHA-team'], ['ALPHA-admin'], 'request'));
        assert.equal(outsider.json<{ status: string }>().status, 'pending', outsider.body);
        assert.deepEqual(await held('erin', 'ALPHA'), []);
        await world.db.query("update requests set status = 'denied' where kind = 'membership' and status = 'pending' and details->>'user_group' = 'ALPHA'");
      });

      test('a DoD group refuses an account that signs in with a website token', async () => {
        await refused(who('frank'), '/requests/membership/new', body('DOD', 'frank', ['DOD-user'], [], 'request'), { error: 'Members of DOD must sign in with a smart card (DoD PKI).', code: 409 }, async () =>
          assert.equal(await pending('DOD'), 0),
        );
      });
    });

    describe('user group requests', () => {
      const request = (extra: Record<string, unknown> = {}) => ({
        user_group: 'GAMMA',
        name: 'Gamma team',
        description: 'Builds gamma',
        open_access: false,
        memberConstraint: 'None',
        services: ['jira'],
        groups: ['GAMMA-release'],
        reason: 'A new project',
        ...extra,
      });

      test("the form's rules, with the spec's messages", async () => {
        const cases: [Record<string, unknown>, Record<string, string>][] = [
          [{ user_group: 'G' }, { user_group: 'ID must be at least 2 characters long.' }],
          [{ user_group: '9LIVES' }, { user_group: 'ID must start with a letter and contain only letters, digits and underscores.' }],
          [{ name: ' ' }, { name: 'Please enter a group name.' }],
          [{ description: '' }, { description: 'Please enter a description.' }],
          [{ reason: '' }, { reason: 'Please enter a reason for this request.' }],
          // A reason box: 150 (spec section 9).
          [{ reason: 'r'.repeat(151) }, { reason: 'Must be less than 150 characters (151/150)' }],
          [{ open_access: true, memberConstraint: 'DoD' }, { open_access: 'Open access groups cannot require DoD PKI authentication.' }],
          [{ groups: ['OTHER-x'] }, { groups: 'Special permission groups for this group must be prefixed with GAMMA.' }],
          [{ groups: ['GAMMA-jiraAdmin'] }, { groups: 'The group GAMMA-jiraAdmin is reserved and cannot be created.' }],
          [{ groups: ['GAMMA-x', 'GAMMA-X'] }, { groups: 'The group GAMMA-X already exists and cannot be created.' }],
          [{ visibility: 'GAMMA-admin' }, { visibility: 'Only holders of the hidden group permission may hide a group.' }],
          [{ user_group: 'alpha', groups: [] }, { user_group: 'The group alpha already exists.' }],
        ];
        for (const [change, fields] of cases) {
          const res = await call(world.app, who('frank'), 'POST', '/requests/usergroup', request(change));
          assert.equal(res.statusCode, 400, JSON.stringify(change));
          assert.deepEqual(res.json<{ fields: unknown }>().fields, fields);
        }
      });

      test('approval creates the group with its additional groups and makes the requester its admin, with history and mail', async () => {
        assert.deepEqual((await call(world.app, who('frank'), 'POST', '/requests/usergroup', request())).json(), { ok: true, code: 200 });
        assert.deepEqual((await call(world.app, who('erin'), 'POST', '/requests/usergroup', request())).json(), {
          error: 'A request for the group GAMMA is already pending.',
          code: 409,
        });
        const { rows } = await world.db.query<{ id: string }>("select id from requests where kind = 'usergroup' and details->>'user_group' = 'GAMMA'");
        const id = Number(rows[0]!.id);
        const res = await call(world.app, who('judge'), 'POST', `/requests/usergroup/${id}/approved`, {});
        assert.equal(res.statusCode, 200, res.body);
        const g = (await call(world.app, who('frank'), 'GET', '/usergroups/GAMMA')).json<{ role: string; groups: string[]; services: string[] }>();
        assert.equal(g.role, 'admin');
        assert.deepEqual(g.groups, ['GAMMA-release']);
        assert.deepEqual(g.services, ['jira']);
        assert.ok((await listMail(world.db, 'frank@example.test')).some((m) => m.subject === 'New user group GAMMA created'));
      });
    });

    describe('group details and additional permission groups', () => {
      test('EDIT_USER_GROUP in the group: its admin may, its team and other groups’ admins may not', async () => {
        const update = { name: 'Alpha squad', description: 'Renamed', open_access: false, services: ['jira', 'artifacts', 'bitbucket'] };
        assert.deepEqual((await call(world.app, who('bob'), 'POST', '/usergroups/ALPHA', update)).json(), FORBIDDEN);
        assert.deepEqual((await call(world.app, who('dave'), 'POST', '/usergroups/ALPHA', update)).json(), FORBIDDEN);
        const res = await call(world.app, who('alice'), 'POST', '/usergroups/ALPHA', update);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json<{ name: string }>().name, 'Alpha squad');
        const dropped = await call(world.app, who('alice'), 'POST', '/usergroups/ALPHA', { ...update, services: ['jira'] });
        assert.equal(dropped.statusCode, 400);
        assert.equal(dropped.json<{ fields: { services: string } }>().fields.services, 'The group already uses artifacts; a service cannot be removed.');
      });

      test("adding and deleting an additional permission group, with the spec's messages", async () => {
        const add = (name: string, as = 'alice') => call(world.app, who(as), 'POST', `/usergroups/ALPHA/permission-group/${encodeURIComponent(name)}`);
        assert.equal((await add('ALPHA-deploy')).statusCode, 200);
        assert.equal((await add('ALPHA-DEPLOY')).json<{ error: string }>().error, 'The group ALPHA-DEPLOY already exists and cannot be created.');
        assert.equal((await add('alpha-other')).json<{ error: string }>().error, 'Special permission groups for this group must be prefixed with ALPHA.');
        assert.equal((await add('ALPHA-artifactsRead')).json<{ error: string }>().error, 'The group ALPHA-artifactsRead is reserved and cannot be created.');
        assert.equal((await add('ALPHA-notification-high')).json<{ error: string }>().error, 'The group ALPHA-notification-high is reserved and cannot be created.');
        assert.equal((await add('BETA-x')).json<{ error: string }>().error, 'Special permission groups for this group must be prefixed with ALPHA.');
        assert.deepEqual((await add('ALPHA-sneaky', 'bob')).json(), FORBIDDEN);
        await member('carol', 'ALPHA-deploy');
        const del = await call(world.app, who('alice'), 'DELETE', '/usergroups/ALPHA/permission-group/ALPHA-deploy');
        assert.equal(del.statusCode, 200);
        assert.deepEqual(del.json<{ groups: string[] }>().groups, ['ALPHA-release']);
        assert.ok(!(await held('carol', 'ALPHA')).includes('ALPHA-deploy'));
      });

      test('choosing DoD removes the members who sign in with a website token, unless that leaves no admin', async () => {
        await group('SHIFT');
        await member('frank', 'SHIFT-admin');
        const update = { name: 'Shift', description: 'Shift', open_access: false, memberConstraint: 'DoD' };
        assert.deepEqual((await call(world.app, who('frank'), 'POST', '/usergroups/SHIFT', update)).json(), {
          error: 'SHIFT must keep at least one admin: make another member an admin first.',
          code: 409,
        });
        await world.db.query("update accounts set authentication = array['certificate'] where id = $1", [people.frank!.account.id]);
        await member('carol', 'SHIFT-user');
        const res = await call(world.app, who('frank'), 'POST', '/usergroups/SHIFT', update);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(await held('carol', 'SHIFT'), []);
        assert.deepEqual(await held('frank', 'SHIFT'), ['SHIFT-admin']);
        assert.ok((await listMail(world.db, 'carol@example.test')).some((m) => m.subject === 'You were removed from SHIFT'));
      });
    });
  });
}
