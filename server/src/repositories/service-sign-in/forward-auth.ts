/**
 * SQL of forward auth (services/service-sign-in/forward-auth.ts): who an account is and whether
 * and how it holds a service, alone or in the same statement as the session lookup.
 */
import type { Queryable } from '../../db/database.js';
import { SESSION_STATE_COLUMNS, sessionRecordOf, type SessionRecord, type SessionRow } from '../sessions.js';

export interface ServiceHolder {
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** The account subscribes to the service itself. */
  subscribed: boolean;
  /**
   * The groups the account holds (directly or through nested groups) in the user groups that use
   * the service, sorted; holding any of them holds the service (as the Subscriptions page's
   * "through a group" does, repositories/subscriptions.ts).
   */
  groups: string[];
}

interface HolderRow {
  username: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean | null;
  groups: string[] | null;
}

/**
 * The columns of a ServiceHolder for the account `a` and the service $2: its own subscription, and
 * its groups in the user groups that use the service, held directly or through nested groups. The
 * nested ones come from group_nestings_closure (migration 0022), which spares every call of every
 * service a walk of group_nestings (docs/performance.md, "Forward auth"). A group held both ways
 * comes twice, and the database would sort by its collation: holderOf makes the names distinct and
 * sorts them. The statements stay plain SELECTs: the embedded database counts any other statement
 * as a write, which drops its kept session lookups (services/session-cache.ts).
 */
const HOLDER_COLUMNS = `a.email, a.first_name, a.last_name,
            exists (select 1 from account_subscriptions x where x.account_id = a.id and x.service = $2) as subscribed,
            array(select m.group_name from group_memberships m join user_groups g on g.id = m.user_group_id
                   where m.account_id = a.id and $2 = any (g.services)
                  union all
                  select c.group_name from group_memberships m join group_nestings_closure c on c.member_group = m.group_name
                    join user_groups g on g.id = c.user_group_id
                   where m.account_id = a.id and $2 = any (g.services)) as groups`;

function holderOf(row: HolderRow): ServiceHolder | undefined {
  if (row.username === null || row.email === null) return undefined;
  return {
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    subscribed: row.subscribed === true,
    // Code-point order: the same on both databases, whatever their collation.
    groups: [...new Set(row.groups ?? [])].sort(),
  };
}

/** The account (undefined: none with that id) and its hold on the service. */
export async function findServiceHolder(db: Queryable, accountId: number, service: string): Promise<ServiceHolder | undefined> {
  const { rows } = await db.query<HolderRow>(
    `select a.username, ${HOLDER_COLUMNS}
       from accounts a
      where a.id = $1`,
    [accountId, service],
    // Every request to every service behind the proxy asks this: prepared once, planned once.
    { prepare: 'portal_find_service_holder' },
  );
  const row = rows[0];
  return row ? holderOf(row) : undefined;
}

/**
 * One statement: the session (as findSession reads it, but for the account's roles) and its
 * account's hold on the service (undefined for an anonymous session). On PostgreSQL this is forward
 * auth's only statement. Forward auth decides by the account's state and its hold on the service,
 * never by its permissions, so the roles are not read (the record has none); leaving them out saves
 * the statement a subquery on every call of every service.
 */
export async function findSessionWithHolder(
  db: Queryable,
  idHash: string,
  service: string,
): Promise<{ session: SessionRecord; holder: ServiceHolder | undefined } | undefined> {
  const { rows } = await db.query<SessionRow & HolderRow>(
    `select ${SESSION_STATE_COLUMNS},
            ${HOLDER_COLUMNS}
       from sessions s left join accounts a on a.id = s.account_id
      where s.id_hash = $1`,
    [idHash, service],
    { prepare: 'portal_find_session_with_holder' },
  );
  const row = rows[0];
  return row ? { session: sessionRecordOf(row), holder: holderOf(row) } : undefined;
}
