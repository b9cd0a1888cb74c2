/**
 * Website-token sign-in with brute-force protection. Every attempt costs one Argon2
 * verification (against a dummy hash when there is no account), and failures are counted per
 * normalized identifier, known or not, so neither the answer nor its timing tells whether an
 * account exists. At the configured maximum a known account is locked; from then on every
 * attempt on that identifier answers 423.
 */
import type { Queryable } from '../db/database.js';
import {
  activateAccount,
  addAccountUpdate,
  deactivateAccount,
  findAccountById,
  findAccountByIdentifier,
  setLastAuthenticated,
  type SignInAccount,
} from '../repositories/accounts.js';
import {
  findAccountIdByCertificateIdentity,
  updateCertificateDetails,
  type CertificateDetails,
} from '../repositories/certificates.js';
import { accountFailureKey, countFailure, resetFailures, unknownIdentifierKey } from '../repositories/login-failures.js';
import { deleteAccountSessions } from '../repositories/sessions.js';
import { lockedAfterFailuresComment } from '../messages.js';
import type { SecurityContext } from './security-context.js';
import { verifyWebsiteToken } from './tokens.js';

/** Why a sign-in failed: the credentials (one answer for every case, so none tells whether an account exists), or a locked account. */
export type SignInFailure = 'invalid' | 'locked';

export type SignInResult = { readonly ok: true; readonly account: SignInAccount } | { readonly ok: false; readonly failure: SignInFailure };

/**
 * Locks an account after too many failures: inactive, its sessions deleted, the change recorded;
 * then, as an administrator's lock does, its sign-ins to the platform's services end.
 */
async function lockAfterFailures(context: SecurityContext, account: SignInAccount): Promise<void> {
  const locked = await context.db.transaction(async (tx) => {
    if (!(await deactivateAccount(tx, account.id))) return false; // locked already (e.g. by a parallel attempt)
    await deleteAccountSessions(tx, account.id);
    await addAccountUpdate(tx, {
      accountId: account.id,
      comment: lockedAfterFailuresComment(context.settings.loginMaxFailures),
      username: 'system',
      active: false,
    });
    return true;
  });
  if (locked) await context.signOuts.signedOut({ accountId: account.id, reason: 'locked' });
}

/**
 * Unlocks an account: active again, its failed sign-in count reset (else the next failure would
 * lock it at once), and the change recorded in its history (with `action` and `at` when given).
 * False when the account was not locked (its count is reset all the same). Run it in a
 * transaction.
 */
export async function unlockAccount(
  db: Queryable,
  accountId: number,
  update: { comment: string; username: string; action?: string; at?: Date },
): Promise<boolean> {
  const unlocked = await activateAccount(db, accountId);
  await resetFailures(db, accountFailureKey(accountId));
  if (!unlocked) return false;
  await addAccountUpdate(db, { accountId, comment: update.comment, username: update.username, active: true, action: update.action, at: update.at });
  return true;
}

export async function signInWithToken(context: SecurityContext, identifier: string, token: string): Promise<SignInResult> {
  const account = await findAccountByIdentifier(context.db, identifier);
  const tokenMatches = await verifyWebsiteToken(account?.tokenHash, token);
  const key = account ? accountFailureKey(account.id) : unknownIdentifierKey(identifier);
  const now = context.clock.now();

  if (account && account.active && !account.closed && tokenMatches) {
    // Checked again as it is written: a parallel attempt may have locked the account meanwhile.
    const stillActive = await context.db.transaction(async (tx) => {
      if (!(await setLastAuthenticated(tx, account.id, now))) return false;
      await resetFailures(tx, key);
      return true;
    });
    if (stillActive) return { ok: true, account };
    return { ok: false, failure: 'locked' };
  }

  const failures = await countFailure(context.db, key, now);
  const reachedMax = failures >= context.settings.loginMaxFailures;
  if (account && account.active && !account.closed && reachedMax) await lockAfterFailures(context, account);
  const locked = account !== undefined && !account.closed && !account.active;
  return { ok: false, failure: locked || reachedMax ? 'locked' : 'invalid' };
}

/** Why a smart-card sign-in failed: no account is bound to the card, or its account is locked or closed. */
export type CertificateSignInFailure = 'unknown' | 'unusable';

export type CertificateSignInResult =
  | { readonly ok: true; readonly account: SignInAccount }
  | { readonly ok: false; readonly failure: CertificateSignInFailure };

/** Smart-card sign-in: the account bound to the certificate's identity, if active and not closed. */
export async function signInWithCertificate(context: SecurityContext, certificate: CertificateDetails): Promise<CertificateSignInResult> {
  const accountId = await findAccountIdByCertificateIdentity(context.db, certificate.identity);
  const account = accountId === undefined ? undefined : await findAccountById(context.db, accountId);
  if (!account) return { ok: false, failure: 'unknown' };
  if (!account.active || account.closed) return { ok: false, failure: 'unusable' };
  const stillActive = await context.db.transaction(async (tx) => {
    if (!(await setLastAuthenticated(tx, account.id, context.clock.now()))) return false;
    await updateCertificateDetails(tx, certificate);
    return true;
  });
  return stillActive ? { ok: true, account } : { ok: false, failure: 'unusable' };
}
