/**
 * Website-token sign-in with brute-force protection. Every attempt costs one Argon2
 * verification (against a dummy hash when there is no account), and failures are counted per
 * normalized identifier, known or not, so neither the answer nor its timing tells whether an
 * account exists. At the configured maximum a known account is locked; from then on every
 * attempt on that identifier answers 423.
 */
import {
  addAccountUpdate,
  accountFailureKey,
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
import { countFailure, resetFailures, unknownIdentifierKey } from '../repositories/login-failures.js';
import { deleteAccountSessions } from '../repositories/sessions.js';
import { lockedAfterFailuresComment } from '../messages.js';
import type { SecurityContext } from './security-context.js';
import { verifyWebsiteToken } from './tokens.js';

export type SignInResult =
  | { readonly ok: true; readonly account: SignInAccount }
  | { readonly ok: false; readonly status: 401 | 423 };

/** Locks an account after too many failures: inactive, its sessions deleted, the change recorded. */
async function lockAfterFailures(context: SecurityContext, account: SignInAccount): Promise<void> {
  await context.db.transaction(async (tx) => {
    if (!(await deactivateAccount(tx, account.id))) return; // locked already (e.g. by a parallel attempt)
    await deleteAccountSessions(tx, account.id);
    await addAccountUpdate(tx, {
      accountId: account.id,
      comment: lockedAfterFailuresComment(context.settings.loginMaxFailures),
      username: 'system',
      active: false,
    });
  });
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
    return { ok: false, status: 423 };
  }

  const failures = await countFailure(context.db, key, now);
  const reachedMax = failures >= context.settings.loginMaxFailures;
  if (account && account.active && !account.closed && reachedMax) await lockAfterFailures(context, account);
  const locked = account !== undefined && !account.closed && !account.active;
  return { ok: false, status: locked || reachedMax ? 423 : 401 };
}

export type CertificateSignInResult =
  | { readonly ok: true; readonly account: SignInAccount }
  | { readonly ok: false; readonly status: 401 | 404 };

/** Smart-card sign-in: the account bound to the certificate's identity, if active and not closed. */
export async function signInWithCertificate(context: SecurityContext, certificate: CertificateDetails): Promise<CertificateSignInResult> {
  const accountId = await findAccountIdByCertificateIdentity(context.db, certificate.identity);
  const account = accountId === undefined ? undefined : await findAccountById(context.db, accountId);
  if (!account) return { ok: false, status: 404 };
  if (!account.active || account.closed) return { ok: false, status: 401 };
  const stillActive = await context.db.transaction(async (tx) => {
    if (!(await setLastAuthenticated(tx, account.id, context.clock.now()))) return false;
    await updateCertificateDetails(tx, certificate);
    return true;
  });
  return stillActive ? { ok: true, account } : { ok: false, status: 401 };
}
