/**
 * Creating a site administrator (the `create-admin` command): a new account holding the
 * site-admin role, with a server-generated website token that is returned once and stored only
 * as its hash.
 */
import type { Database } from '../db/database.js';
import { ConflictError, InvalidInputError } from '../errors.js';
import { accountExists, addAccountRole, addAccountUpdate, insertAccountWithToken } from '../repositories/accounts.js';
import { generateWebsiteToken, hashWebsiteToken } from './tokens.js';

/** Spec section 9: 2 to 20 characters; here also: a letter first, then letters, digits, '.', '-' or '_'. */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{1,19}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const ADMIN_CREATED_COMMENT = 'Created as a site administrator from the command line.';

/** The problems of a username and an email (empty when both are fine). */
export function adminInputProblems(username: string, email: string): string[] {
  const problems: string[] = [];
  if (!USERNAME_PATTERN.test(username)) {
    problems.push(
      `The username '${username}' is not valid: 2 to 20 characters, starting with a letter, then letters, digits, '.', '-' or '_'.`,
    );
  }
  if (email.length > 255 || !EMAIL_PATTERN.test(email)) problems.push(`The email '${email}' is not a valid email address.`);
  return problems;
}

export interface CreatedAdmin {
  username: string;
  token: string;
}

/** Creates a site administrator; InvalidInputError for a bad username or email, ConflictError when either is taken. */
export async function createSiteAdmin(db: Database, input: { username: string; email: string }): Promise<CreatedAdmin> {
  const username = input.username.trim();
  const email = input.email.trim();
  const problems = adminInputProblems(username, email);
  if (problems.length > 0) throw new InvalidInputError(problems.join(' '));
  const token = generateWebsiteToken();
  const tokenHash = await hashWebsiteToken(token);
  await db.transaction(async (tx) => {
    const taken = await accountExists(tx, { username, email });
    if (taken.username) throw new ConflictError(`An account with the username '${username}' already exists.`);
    if (taken.email) throw new ConflictError(`An account with the email '${email}' already exists.`);
    const id = await insertAccountWithToken(tx, { username, email, tokenHash });
    await addAccountRole(tx, id, 'site-admin');
    await addAccountUpdate(tx, { accountId: id, comment: ADMIN_CREATED_COMMENT, username: 'system', active: true });
  });
  return { username, token };
}
