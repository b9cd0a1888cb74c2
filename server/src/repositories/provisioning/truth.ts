/**
 * The portal's truth as provisioning targets see it: the people (every approved account, whatever
 * its state) and who is in which group. Only an account in good standing (active, not closed,
 * certified within the renewal period) is in any group, so that a lock, a closure or a lapsed
 * renewal takes every service away at once. A group holds the accounts that hold it directly or
 * through a nested group (nestings are expanded: most services do not follow nested LDAP groups);
 * an access group '{service}-users' holds every account that holds the service, itself or through
 * a user group. An access group's name is reserved: a group of a user group with the same name is
 * not provisioned (else a group admin could hand out a service by adding members).
 */
import { SERVICES } from '@portal/api';
import type { Queryable } from '../../db/database.js';
import { RENEWAL_PERIOD_DAYS } from '../../services/renewal.js';

export interface Person {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  inGoodStanding: boolean;
}

/** The access group of a service: everyone who holds it. */
export const accessGroupOf = (service: string): string => `${service}-users`;
export const ACCESS_GROUPS: readonly string[] = SERVICES.map(accessGroupOf);

const GOOD_STANDING = `a.active and not a.closed and coalesce(a.last_certified, a.created_at) >= now() - make_interval(days => ${RENEWAL_PERIOD_DAYS})`;

const PERSON_COLUMNS = `a.id, a.username, a.email, a.first_name, a.last_name, (${GOOD_STANDING}) as good`;

interface PersonRow {
  id: string | number;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  good: boolean;
}

const person = (r: PersonRow): Person => ({
  id: Number(r.id),
  username: r.username,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  inGoodStanding: r.good,
});

export async function findPerson(db: Queryable, accountId: number): Promise<Person | null> {
  const { rows } = await db.query<PersonRow>(`select ${PERSON_COLUMNS} from accounts a where a.id = $1`, [accountId]);
  return rows[0] ? person(rows[0]) : null;
}

export async function allPeople(db: Queryable): Promise<Person[]> {
  const { rows } = await db.query<PersonRow>(`select ${PERSON_COLUMNS} from accounts a order by a.id`);
  return rows.map(person);
}

/**
 * (group name, account id) for every holding: `held` expands the nestings; `$1` (an account id or
 * null for all) limits it to one account.
 */
const HOLDINGS = `with recursive held(account_id, user_group_id, group_name) as (
       select account_id, user_group_id, group_name from group_memberships where $1::bigint is null or account_id = $1
       union
       select h.account_id, n.user_group_id, n.group_name from held h join group_nestings n on n.member_group = h.group_name
     ),
     good as (select a.id, a.username from accounts a where (${GOOD_STANDING}) and ($1::bigint is null or a.id = $1)),
     holdings(group_name, account_id) as (
       select group_name, account_id from held where group_name <> all($2::text[])
       union
       select service || '-users', account_id from account_subscriptions
        where ($1::bigint is null or account_id = $1) and service = any($3::text[])
       union
       select s.service || '-users', h.account_id
         from held h join user_groups g on g.id = h.user_group_id cross join lateral unnest(g.services) as s(service)
        where s.service = any($3::text[])
     )`;

/** The groups the account is in, by name (none when it is not in good standing). */
export async function groupsOfAccount(db: Queryable, accountId: number): Promise<string[]> {
  const { rows } = await db.query<{ group_name: string }>(
    `${HOLDINGS}
     select distinct h.group_name from holdings h join good g on g.id = h.account_id order by h.group_name`,
    [accountId, ACCESS_GROUPS, SERVICES],
  );
  return rows.map((r) => r.group_name);
}

/** The usernames of a group's members. */
export async function membersOfGroup(db: Queryable, groupName: string): Promise<string[]> {
  const { rows } = await db.query<{ username: string }>(
    `${HOLDINGS}
     select distinct g.username from holdings h join good g on g.id = h.account_id where h.group_name = $4 order by g.username`,
    [null, ACCESS_GROUPS, SERVICES, groupName],
  );
  return rows.map((r) => r.username);
}

/** Every group with at least one member, with its members' usernames. */
export async function allGroups(db: Queryable): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ group_name: string; username: string }>(
    `${HOLDINGS}
     select distinct h.group_name, g.username from holdings h join good g on g.id = h.account_id order by h.group_name, g.username`,
    [null, ACCESS_GROUPS, SERVICES],
  );
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    const members = groups.get(row.group_name);
    if (members) members.push(row.username);
    else groups.set(row.group_name, [row.username]);
  }
  return groups;
}

/** The accounts whose renewal lapsed in the last `withinMs` (they leave every group then). */
export async function recentlyLapsed(db: Queryable, withinMs: number): Promise<number[]> {
  const { rows } = await db.query<{ id: string | number }>(
    `select id from accounts
      where coalesce(last_certified, created_at) + make_interval(days => ${RENEWAL_PERIOD_DAYS})
            between now() - make_interval(secs => $1::float8 / 1000) and now()`,
    [withinMs],
  );
  return rows.map((r) => Number(r.id));
}
