/** SQL for user groups and the accounts' direct memberships. */
import type { Queryable } from '../db/database.js';

export interface NewUserGroup {
  id: string;
  name: string;
  description: string;
  open_access: boolean;
  visibility: string;
  member_constraint: 'None' | 'DoD';
  services: readonly string[];
}

export async function insertUserGroup(db: Queryable, group: NewUserGroup): Promise<void> {
  await db.query(
    `insert into user_groups (id, name, description, open_access, visibility, member_constraint, services)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [group.id, group.name, group.description, group.open_access, group.visibility, group.member_constraint, [...group.services]],
  );
}

/** Makes the account a direct member of the named group ('PORTAL-admin') of a user group. */
export async function addMembership(db: Queryable, userGroupId: string, accountId: number, groupName: string): Promise<void> {
  await db.query('insert into group_memberships (user_group_id, account_id, group_name) values ($1, $2, $3)', [
    userGroupId,
    accountId,
    groupName,
  ]);
}
