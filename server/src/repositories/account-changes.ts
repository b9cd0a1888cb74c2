/** SQL for the changes an account's owner (or an administrator) makes to it: the profile, the annual certification. */
import { PROFILE_RULES, type ProfileField } from '@portal/shared/rules';
import type { Queryable } from '../db/database.js';

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
