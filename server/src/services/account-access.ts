/**
 * Who may act on which account, for the signed-in self-service calls whose path or body names an
 * account (server/docs/self-service.md, "Signed in"): its owner (the username matched without
 * regard to letter case) with the owner's permission, or anyone holding the permission for every
 * account. Anyone else: 403 'Forbidden', whether or not the account exists, so only those who may
 * see any account learn that one does not exist (404 'Account not found.').
 */
import type { PortalConfiguration } from '@portal/api';
import type { Permission } from '@portal/api';
import type { Database } from '../db/database.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { findAccountByUsername, findAccountRecordById, type AccountRecord } from '../repositories/account-view.js';
import { SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import type { Clock } from './clock.js';
import type { ListEngine } from './lists/engine.js';
import type { SignedInAccount } from './sessions.js';
import type { SignOutHooks } from './sign-out-hooks.js';

/** What the self-service services work with. */
export interface SelfServiceContext {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: Readonly<PortalConfiguration>;
  /** What runs the mailing lists (PORTAL_LIST_ENGINE); absent: the embedded engine. */
  readonly listEngine?: ListEngine;
  /** Told when an account's sign-ins end (a lock, a closure): services/sign-out-hooks.ts. */
  readonly signOuts?: SignOutHooks;
}

/** The signed-in caller. */
export type Actor = Pick<SignedInAccount, 'id' | 'username' | 'permissions'>;

export interface AccessRule {
  /** What the owner needs (null: nothing beyond being signed in). */
  own: Permission | null;
  /** What lets a caller act on any account (their own included). */
  any: Permission;
}

export interface Target {
  account: AccountRecord;
  /** The caller acts on their own account. */
  own: boolean;
}

export function isOwner(actor: Actor, username: string): boolean {
  return actor.username.toLowerCase() === username.toLowerCase();
}

export function holds(actor: Actor, permission: Permission): boolean {
  return actor.permissions.includes(permission);
}

/** The account the caller may act on under `rule`; 403 'Forbidden' or 404 'Account not found.' otherwise. */
export async function targetAccount(db: Database, actor: Actor, username: string, rule: AccessRule): Promise<Target> {
  const own = isOwner(actor, username);
  if (own && (rule.own === null || holds(actor, rule.own))) {
    const account = await findAccountRecordById(db, actor.id);
    if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
    return { account, own };
  }
  if (!holds(actor, rule.any)) throw new ForbiddenError(MESSAGES.forbidden);
  const account = await findAccountByUsername(db, username);
  if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
  return { account, own };
}
