/** SQL for accounts, their roles and their update history. */
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

export async function addAccountUpdate(
  db: Queryable,
  update: { accountId: number; comment: string; username: string; active: boolean },
): Promise<void> {
  await db.query('insert into account_updates (account_id, comment, username, active) values ($1, $2, $3, $4)', [
    update.accountId,
    update.comment,
    update.username,
    update.active,
  ]);
}
