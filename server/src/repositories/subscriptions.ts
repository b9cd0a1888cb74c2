/**
 * SQL for service subscriptions: those an account holds itself (account_subscriptions) and
 * those it holds through the user groups of its memberships (user_groups.services).
 */
import type { Queryable } from '../db/database.js';

/** The services the account subscribes to itself, by name. */
export async function findDirectSubscriptions(db: Queryable, accountId: number): Promise<string[]> {
  const { rows } = await db.query<{ service: string }>('select service from account_subscriptions where account_id = $1 order by service', [accountId]);
  return rows.map((r) => r.service);
}

/** The services (by name) of every user group the account holds a group of, directly or through a nested group. */
export async function findNestedSubscriptions(db: Queryable, accountId: number): Promise<string[]> {
  const { rows } = await db.query<{ service: string }>(
    `with recursive held(user_group_id, group_name) as (
       select user_group_id, group_name from group_memberships where account_id = $1
       union
       select n.user_group_id, n.group_name from held h join group_nestings n on n.member_group = h.group_name
     )
     select distinct s.service
       from user_groups g cross join lateral unnest(g.services) as s(service)
      where g.id in (select user_group_id from held)
      order by s.service`,
    [accountId],
  );
  return rows.map((r) => r.service);
}

export async function addSubscription(db: Queryable, accountId: number, service: string, at: Date): Promise<void> {
  await db.query('insert into account_subscriptions (account_id, service, created_at) values ($1, $2, $3) on conflict do nothing', [
    accountId,
    service,
    at,
  ]);
}

export async function removeSubscription(db: Queryable, accountId: number, service: string): Promise<void> {
  await db.query('delete from account_subscriptions where account_id = $1 and service = $2', [accountId, service]);
}
