/**
 * SQL for accounts, their roles and their update history: the one repository that writes the
 * accounts and account_updates tables (the Account as the screens read it: account-view.ts).
 */
import { PROFILE_RULES, type ProfileField } from '@portal/api';
import type { Queryable } from '../db/database.js';

export const PLATFORM_ROLES = ['site-admin', 'adjudicator', 'help-desk', 'user'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export interface NewAccount {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  company: string;
  project: string;
  supervisor_first_name: string;
  supervisor_last_name: string;
  supervisor_email: string;
  supervisor_phone: string;
  reason: string;
  active: boolean;
  closed: boolean;
  authentication: readonly string[];
  last_certified: Date | null;
}

const COLUMNS = [
  'username', 'email', 'first_name', 'last_name', 'phone', 'street', 'city', 'state', 'zip', 'country',
  'company', 'project', 'supervisor_first_name', 'supervisor_last_name', 'supervisor_email',
  'supervisor_phone', 'reason', 'active', 'closed', 'authentication', 'last_certified',
] as const satisfies readonly (keyof NewAccount)[];

export async function countAccounts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ count: number }>('select count(*)::int as count from accounts');
  return rows[0]?.count ?? 0;
}

/** Inserts an account; returns its id. */
export async function insertAccount(db: Queryable, account: NewAccount): Promise<number> {
  const placeholders = COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
  const { rows } = await db.query<{ id: string | number }>(
    `insert into accounts (${COLUMNS.join(', ')}) values (${placeholders}) returning id`,
    COLUMNS.map((column) => account[column]),
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into accounts returned no id');
  return Number(id);
}

export async function addAccountRole(db: Queryable, accountId: number, role: PlatformRole): Promise<void> {
  await db.query('insert into account_roles (account_id, role) values ($1, $2) on conflict do nothing', [accountId, role]);
}

/**
 * An entry of the account's history: who (`username`), when (`at`, else the database's now()),
 * what (`action`, e.g. 'Locked'; '' when the comment says it) and why (`comment`), with the
 * account's active state after the change.
 */
export async function addAccountUpdate(
  db: Queryable,
  update: { accountId: number; comment: string; username: string; active: boolean; action?: string; at?: Date },
): Promise<void> {
  await db.query(
    'insert into account_updates (account_id, comment, username, active, action, created_at) values ($1, $2, $3, $4, $5, coalesce($6, now()))',
    [update.accountId, update.comment, update.username, update.active, update.action ?? '', update.at ?? null],
  );
}

/** What sign-in needs to know about an account. */
export interface SignInAccount {
  id: number;
  username: string;
  active: boolean;
  closed: boolean;
  tokenHash: string | null;
}

interface SignInRow {
  id: string | number;
  username: string;
  active: boolean;
  closed: boolean;
  token_hash: string | null;
}

function signInAccount(row: SignInRow): SignInAccount {
  return { id: Number(row.id), username: row.username, active: row.active, closed: row.closed, tokenHash: row.token_hash };
}

/**
 * The account a sign-in identifier names: its username or its email, without regard to letter
 * case or surrounding spaces. Usernames never contain '@' and emails always do, so one
 * identifier names at most one account (both are unique without regard to case).
 */
export async function findAccountByIdentifier(db: Queryable, identifier: string): Promise<SignInAccount | undefined> {
  const id = identifier.trim();
  const { rows } = await db.query<SignInRow>(
    `select id, username, active, closed, token_hash from accounts
      where lower(username) = lower($1) or lower(email) = lower($1)
      order by (lower(username) = lower($1)) desc, id limit 1`,
    [id],
  );
  return rows[0] ? signInAccount(rows[0]) : undefined;
}

export async function findAccountById(db: Queryable, accountId: number): Promise<SignInAccount | undefined> {
  const { rows } = await db.query<SignInRow>('select id, username, active, closed, token_hash from accounts where id = $1', [accountId]);
  return rows[0] ? signInAccount(rows[0]) : undefined;
}

/** Whether a username (any letter case) or an email (any letter case) is taken. */
export async function accountExists(db: Queryable, by: { username?: string; email?: string }): Promise<{ username: boolean; email: boolean }> {
  const { rows } = await db.query<{ username: boolean; email: boolean }>(
    `select exists(select 1 from accounts where lower(username) = lower($1)) as username,
            exists(select 1 from accounts where lower(email) = lower($2)) as email`,
    [by.username ?? null, by.email ?? null],
  );
  return rows[0] ?? { username: false, email: false };
}

export async function setWebsiteTokenHash(db: Queryable, accountId: number, tokenHash: string | null): Promise<void> {
  await db.query('update accounts set token_hash = $2 where id = $1', [accountId, tokenHash]);
}

/** Records a sign-in if the account is (still) active and not closed; false when it is not. */
export async function setLastAuthenticated(db: Queryable, accountId: number, at: Date): Promise<boolean> {
  const { rows } = await db.query('update accounts set last_authenticated = $2 where id = $1 and active and not closed returning id', [accountId, at]);
  return rows.length > 0;
}

/** Sets active = false if the account is active; true when this call locked it (false: it already was). */
export async function deactivateAccount(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query('update accounts set active = false where id = $1 and active returning id', [accountId]);
  return rows.length > 0;
}

/** Sets active = true if the account is inactive; true when this call unlocked it (false: it was not locked). */
export async function activateAccount(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query('update accounts set active = true where id = $1 and not active returning id', [accountId]);
  return rows.length > 0;
}

/** Inserts an account with only its names and a website token (site administrators from the CLI). */
export async function insertAccountWithToken(
  db: Queryable,
  account: { username: string; email: string; tokenHash: string },
): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    'insert into accounts (username, email, token_hash) values ($1, $2, $3) returning id',
    [account.username, account.email, account.tokenHash],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into accounts returned no id');
  return Number(id);
}

/** An account as the visitors' flows (verification codes) see it. */
export interface AccountByEmail {
  id: number;
  username: string;
  email: string;
  active: boolean;
  closed: boolean;
  authentication: string[];
}

/** The account of an email address (any letter case, surrounding spaces ignored). */
export async function findAccountByEmail(db: Queryable, email: string, forUpdate = false): Promise<AccountByEmail | undefined> {
  const { rows } = await db.query<{ id: string | number; username: string; email: string; active: boolean; closed: boolean; authentication: string[] }>(
    `select id, username, email, active, closed, authentication from accounts where lower(email) = lower($1)${forUpdate ? ' for update' : ''}`,
    [email.trim()],
  );
  const row = rows[0];
  return row
    ? { id: Number(row.id), username: row.username, email: row.email, active: row.active, closed: row.closed, authentication: row.authentication ?? [] }
    : undefined;
}

/** Adds an authentication method ('token', 'certificate') to an account's list, once. */
export async function addAuthenticationMethod(db: Queryable, accountId: number, method: string): Promise<void> {
  await db.query(
    'update accounts set authentication = array_append(authentication, $2::text) where id = $1 and not ($2::text = any(authentication))',
    [accountId, method],
  );
}

// ---------------------------------------------------------------------------------------------
// Changes of state (the account administration: lock, unlock, close)

/** What a change of state needs of the account, read with the row locked. */
export interface LockedAccount {
  id: number;
  username: string;
  email: string;
  active: boolean;
  closed: boolean;
}

/**
 * The account of a username (any letter case), its row locked until the transaction ends
 * (`for update`): a change of state checks the state it reads here, and two changes of the same
 * account run one after the other. Run it in a transaction.
 */
export async function findAccountForUpdate(db: Queryable, username: string): Promise<LockedAccount | undefined> {
  const { rows } = await db.query<{ id: string | number; username: string; email: string; active: boolean; closed: boolean }>(
    'select id, username, email, active, closed from accounts where lower(username) = lower($1) for update',
    [username],
  );
  const row = rows[0];
  return row ? { id: Number(row.id), username: row.username, email: row.email, active: row.active, closed: row.closed } : undefined;
}

/** Locks an active account (active = false); false when it was not active and open. */
export async function lockAccountRow(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query('update accounts set active = false where id = $1 and active and not closed returning id', [accountId]);
  return rows.length > 0;
}

/** Closes an account (closed, and inactive); false when it was closed already. */
export async function closeAccountRow(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query('update accounts set closed = true, active = false where id = $1 and not closed returning id', [accountId]);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Changes an account's owner (or an administrator) makes: the profile, the annual certification, and approved requests' changes

/** The profile fields of spec section 2 (/update-profile), flat as the accounts table holds them. */
export type ProfileFields = Record<ProfileField, string>;

/** The columns are the shared rules' field names (the form's names, the table's names). */
const PROFILE_COLUMNS = Object.keys(PROFILE_RULES) as ProfileField[];

/** Writes the profile fields; false when there is no such account. */
export async function updateProfile(db: Queryable, accountId: number, profile: ProfileFields): Promise<boolean> {
  const assignments = PROFILE_COLUMNS.map((column, i) => `${column} = $${i + 2}`).join(', ');
  const { rows } = await db.query(`update accounts set ${assignments} where id = $1 returning id`, [
    accountId,
    ...PROFILE_COLUMNS.map((column) => profile[column]),
  ]);
  return rows.length > 0;
}

/** Records the annual certification; false when there is no such account. */
export async function setLastCertified(db: Queryable, accountId: number, at: Date): Promise<boolean> {
  const { rows } = await db.query('update accounts set last_certified = $2 where id = $1 returning id', [accountId, at]);
  return rows.length > 0;
}

/** Sets the account's email (an approved email change); false when there is no such account. */
export async function setAccountEmail(db: Queryable, accountId: number, email: string): Promise<boolean> {
  const { rows } = await db.query('update accounts set email = $2 where id = $1 returning id', [accountId, email]);
  return rows.length > 0;
}

/** Replaces the account's authentication methods (an approved authentication change). */
export async function setAccountAuthentication(db: Queryable, accountId: number, authentication: readonly string[]): Promise<void> {
  await db.query('update accounts set authentication = $2::text[] where id = $1', [accountId, [...authentication]]);
}
