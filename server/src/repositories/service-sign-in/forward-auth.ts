/**
 * SQL of forward auth (services/service-sign-in/forward-auth.ts): who an account is and the stamps
 * of what it holds, alone or in the same statement as the session lookup; and how it holds a
 * service, read when what was kept of it is no longer current (services/service-sign-in/grant-cache.ts).
 */
import type { Queryable } from '../../db/database.js';
import { SESSION_STATE_COLUMNS, sessionRecordOf, type SessionRecord, type SessionRow } from '../sessions.js';

/** How an account holds a service. */
export interface ServiceGrants {
  /** The account subscribes to the service itself. */
  subscribed: boolean;
  /**
   * The groups the account holds (directly or through nested groups) in the user groups that use
   * the service, sorted; holding any of them holds the service (as the Subscriptions page's
   * "through a group" does, repositories/subscriptions.ts).
   */
  groups: string[];
}

/** Who an account is to a service, and the stamps under which what it holds stays current. */
export interface AccountAccess {
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /**
   * Moves whenever what the account holds may have changed (migration 0023): its memberships or
   * subscriptions (accounts.access_version), or any user group's services or nesting (access_generation).
   */
  stamp: string;
}

interface AccessRow {
  username: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  access_version: string | number | bigint | null;
  access_generation: string | number | bigint | null;
}

/** The columns of an AccountAccess for the account `a`. */
const ACCESS_COLUMNS = `a.email, a.first_name, a.last_name, a.access_version,
            (select g.generation from access_generation g) as access_generation`;

function accessOf(row: AccessRow): AccountAccess | undefined {
  if (row.username === null || row.email === null) return undefined;
  return {
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    stamp: `${String(row.access_version)}:${String(row.access_generation)}`,
  };
}

/** The account (undefined: none with that id), and the stamps of what it holds. */
export async function findAccountAccess(db: Queryable, accountId: number): Promise<AccountAccess | undefined> {
  const { rows } = await db.query<AccessRow>(
    `select a.username, ${ACCESS_COLUMNS}
       from accounts a
      where a.id = $1`,
    [accountId],
    // Every request to every service behind the proxy asks this on the embedded database: prepared once, planned once.
    { prepare: 'portal_find_account_access' },
  );
  const row = rows[0];
  return row ? accessOf(row) : undefined;
}

/**
 * One statement: the session (as findSession reads it, but for the account's roles) and who its
 * account is, with the stamps of what it holds (undefined for an anonymous session). On PostgreSQL
 * this is forward auth's only statement while what it keeps is current. Forward auth decides by the
 * account's state and its hold on the service, never by its permissions, so the roles are not read
 * (the record has none).
 */
export async function findSessionWithAccess(
  db: Queryable,
  idHash: string,
): Promise<{ session: SessionRecord; access: AccountAccess | undefined } | undefined> {
  const { rows } = await db.query<SessionRow & AccessRow>(
    `select ${SESSION_STATE_COLUMNS},
            ${ACCESS_COLUMNS}
       from sessions s left join accounts a on a.id = s.account_id
      where s.id_hash = $1`,
    [idHash],
    { prepare: 'portal_find_session_with_access' },
  );
  const row = rows[0];
  return row ? { session: sessionRecordOf(row), access: accessOf(row) } : undefined;
}

/**
 * How the account holds the service: its own subscription, and its groups in the user groups that
 * use the service, held directly or through nested groups. The nested ones come from
 * group_nestings_closure (migration 0022), which spares each read a walk of group_nestings
 * (docs/performance.md, "Forward auth at saturation"). A group held both ways comes twice, and the database would
 * sort by its collation: the names are made distinct and sorted here. The statement stays a plain
 * SELECT: the embedded database counts any other statement as a write, which drops its kept session
 * lookups (services/session-cache.ts).
 */
export async function findServiceGrants(db: Queryable, accountId: number, service: string): Promise<ServiceGrants> {
  const { rows } = await db.query<{ subscribed: boolean; groups: string[] }>(
    `select exists (select 1 from account_subscriptions x where x.account_id = $1 and x.service = $2) as subscribed,
            array(select m.group_name from group_memberships m join user_groups g on g.id = m.user_group_id
                   where m.account_id = $1 and $2 = any (g.services)
                  union all
                  select c.group_name from group_memberships m join group_nestings_closure c on c.member_group = m.group_name
                    join user_groups g on g.id = c.user_group_id
                   where m.account_id = $1 and $2 = any (g.services)) as groups`,
    [accountId, service],
    { prepare: 'portal_find_service_grants' },
  );
  const row = rows[0];
  return {
    subscribed: row?.subscribed === true,
    // Code-point order: the same on both databases, whatever their collation.
    groups: [...new Set(row?.groups ?? [])].sort(),
  };
}
