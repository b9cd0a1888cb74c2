/**
 * SQL for reading an account as the profile and account administration screens show it: its
 * fields, update history, latest smart-card binding, group memberships and pending requests.
 */
import type { Queryable } from '../db/database.js';

export interface AccountRecord {
  id: number;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  company: string | null;
  project: string | null;
  supervisor_first_name: string | null;
  supervisor_last_name: string | null;
  supervisor_email: string | null;
  supervisor_phone: string | null;
  reason: string | null;
  active: boolean;
  closed: boolean;
  authentication: string[];
  last_authenticated: Date | null;
  last_certified: Date | null;
  created_at: Date;
  roles: string[];
}

interface AccountRow extends Omit<AccountRecord, 'id' | 'last_authenticated' | 'last_certified' | 'created_at'> {
  id: string | number;
  last_authenticated: Date | string | null;
  last_certified: Date | string | null;
  created_at: Date | string;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : date(value));

const ACCOUNT_COLUMNS = `a.id, a.username, a.email, a.first_name, a.last_name, a.phone, a.street, a.city, a.state, a.zip,
       a.country, a.company, a.project, a.supervisor_first_name, a.supervisor_last_name, a.supervisor_email,
       a.supervisor_phone, a.reason, a.active, a.closed, a.authentication, a.last_authenticated,
       a.last_certified, a.created_at,
       array(select r.role from account_roles r where r.account_id = a.id order by r.role) as roles`;

function accountRecord(row: AccountRow): AccountRecord {
  return {
    ...row,
    id: Number(row.id),
    authentication: row.authentication ?? [],
    roles: row.roles ?? [],
    last_authenticated: dateOrNull(row.last_authenticated),
    last_certified: dateOrNull(row.last_certified),
    created_at: date(row.created_at),
  };
}

/** The account of a username, without regard to letter case. */
export async function findAccountByUsername(db: Queryable, username: string): Promise<AccountRecord | undefined> {
  const { rows } = await db.query<AccountRow>(`select ${ACCOUNT_COLUMNS} from accounts a where lower(a.username) = lower($1)`, [username]);
  return rows[0] ? accountRecord(rows[0]) : undefined;
}

/** The usernames of the accounts named by id (those that exist), by id. */
export async function usernamesByIds(db: Queryable, ids: readonly (number | string)[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string | number; username: string }>('select id, username from accounts where id = any($1::bigint[])', [ids]);
  return new Map(rows.map((row) => [String(row.id), row.username]));
}

export async function findAccountRecordById(db: Queryable, accountId: number): Promise<AccountRecord | undefined> {
  const { rows } = await db.query<AccountRow>(`select ${ACCOUNT_COLUMNS} from accounts a where a.id = $1`, [accountId]);
  return rows[0] ? accountRecord(rows[0]) : undefined;
}

export interface AccountUpdateRecord {
  /** What the change did ('Locked' …); '' when the comment says it. */
  action: string;
  comment: string;
  created: Date;
  username: string;
  active: boolean;
}

/** The account's update history, newest first. */
export async function findAccountUpdates(db: Queryable, accountId: number): Promise<AccountUpdateRecord[]> {
  const { rows } = await db.query<{ action: string; comment: string; created_at: Date | string; username: string; active: boolean }>(
    'select action, comment, created_at, username, active from account_updates where account_id = $1 order by created_at desc, id desc',
    [accountId],
  );
  return rows.map((r) => ({ action: r.action, comment: r.comment, created: date(r.created_at), username: r.username, active: r.active }));
}

export interface BoundCertificateRecord {
  identity: string;
  subject: string | null;
  issuer: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

/** The account's most recently bound smart card, if any. */
export async function findLatestCertificate(db: Queryable, accountId: number): Promise<BoundCertificateRecord | undefined> {
  const { rows } = await db.query<{
    identity: string;
    subject: string | null;
    issuer: string | null;
    valid_from: Date | string | null;
    valid_until: Date | string | null;
  }>(
    `select identity, subject, issuer, valid_from, valid_until from account_certificates
      where account_id = $1 order by created_at desc, identity limit 1`,
    [accountId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    identity: row.identity,
    subject: row.subject,
    issuer: row.issuer,
    validFrom: dateOrNull(row.valid_from),
    validUntil: dateOrNull(row.valid_until),
  };
}

export interface MembershipRecord {
  userGroupId: string;
  userGroupName: string;
  groupName: string;
}

/**
 * The group names the account holds with their user group's name, directly or through a group
 * nested in them (migration 0007, group_nestings), by user group then group name.
 */
export async function findMemberships(db: Queryable, accountId: number): Promise<MembershipRecord[]> {
  const { rows } = await db.query<{ user_group_id: string; name: string; group_name: string }>(
    `with recursive held(user_group_id, group_name) as (
       select user_group_id, group_name from group_memberships where account_id = $1
       union
       select n.user_group_id, n.group_name from held h join group_nestings n on n.member_group = h.group_name
     )
     select h.user_group_id, g.name, h.group_name
       from held h join user_groups g on g.id = h.user_group_id
      order by h.user_group_id, h.group_name`,
    [accountId],
  );
  return rows.map((r) => ({ userGroupId: r.user_group_id, userGroupName: r.name, groupName: r.group_name }));
}

/** The kinds among profilechange and authchange for which the account has a pending request. */
export async function findPendingSelfRequestKinds(db: Queryable, accountId: number): Promise<string[]> {
  const { rows } = await db.query<{ kind: string }>(
    `select distinct kind from requests
      where account_id = $1 and status = 'pending' and kind in ('profilechange', 'authchange')`,
    [accountId],
  );
  return rows.map((r) => r.kind);
}
