/**
 * The verification flow (server/docs/self-service.md, "The verification flow"): a six-digit code
 * mailed to an address proves that the visitor reads that address's mail. Used by the status
 * check of an account request, the unlock request, the website-token reset and the smart-card
 * registration; the last three are here too.
 *
 * - A code is drawn with crypto.randomInt and stored only as HMAC-SHA256(server secret
 *   'verification', address + code); it is valid 10 minutes, dies at its 5th wrong try, and is
 *   used up by the first call that changes something (never by a read). An address's latest code
 *   is its only valid one (a new code replaces the earlier ones).
 * - A code row is written for every send asked for, known address or not, but mailed only when
 *   the address belongs to an account or to a new account request; the answer is the same either
 *   way. More than 5 sends asked for an address within an hour → 429 (counted alike).
 * - A code is checked (and a wrong try counted) in a transaction of its own; an action then uses
 *   it up in the action's transaction, so an action that is refused (400, 401, 409 …) leaves the
 *   code usable, and a code is never used twice even by parallel calls.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { composeValidators, required } from '@portal/api';
import { isMailAddress, LIMITS, lengthAtMost, validateFields } from '@portal/api';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotSignedInError, TooManyRequestsError } from '../errors.js';
import {
  addAccountUpdate,
  addAuthenticationMethod,
  findAccountByEmail,
  setWebsiteTokenHash,
  type AccountByEmail,
} from '../repositories/accounts.js';
import { bindCertificate, findAccountIdByCertificateIdentity, type CertificateDetails } from '../repositories/certificates.js';
import { accountFailureKey, resetFailures } from '../repositories/login-failures.js';
import { findLatestNewRequestByEmail, hasPendingRequest, insertRequest, insertRequestUpdate, REQUEST_UNIQUE_INDEXES } from '../repositories/requests.js';
import { deleteAccountSessions } from '../repositories/sessions.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import {
  addWrongTry,
  countCodesSince,
  findLatestCode,
  insertCode,
  lockAddress,
  useCode,
} from '../repositories/verification-codes.js';
import { VISITOR_COMMENTS, VISITOR_MESSAGES } from '../visitor-messages.js';
import { certificateRecordOf } from './certificates.js';
import { acceptBotChallengeResponse } from './challenge.js';
import { enqueueMail } from './mail.js';
import type { SecurityContext } from './security-context.js';
import { generateWebsiteToken, hashWebsiteToken } from './tokens.js';

export const CODE_LIFETIME_MS = 10 * 60_000;
/** The 5th wrong try kills a code. */
export const MAX_CODE_TRIES = 5;
/** Sends asked for one address within SEND_WINDOW_MS; the next one is refused (429). */
export const MAX_SENDS_PER_WINDOW = 5;
export const SEND_WINDOW_MS = 60 * 60_000;

const CODE = /^[0-9]{6}$/;

/** The form an address is stored and compared in: trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Six digits, uniformly drawn (leading zeros kept). */
export function generateVerificationCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

async function hashCode(context: SecurityContext, email: string, code: string): Promise<string> {
  const secret = await context.secret('verification');
  return createHmac('sha256', secret).update(`verification:${email}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function invalidCode(): NotSignedInError {
  return new NotSignedInError(VISITOR_MESSAGES.invalidCode);
}

function codeMail(to: string, code: string) {
  return {
    to,
    subject: 'Your verification code',
    text: [
      `Your verification code is ${code}.`,
      '',
      'Enter it on the page where you asked for it. It is valid for 10 minutes and can be used once.',
      '',
      'If you did not ask for a code, you can ignore this mail: nothing changes without it.',
    ].join('\n'),
  };
}

/** The address to mail a code to: the account's or the latest new account request's, as stored; undefined: unknown. */
async function knownAddress(tx: Queryable, email: string): Promise<string | undefined> {
  const account = await findAccountByEmail(tx, email);
  if (account) return account.email;
  return (await findLatestNewRequestByEmail(tx, email))?.email;
}

/**
 * Step 1 (POST /mail/verifywithbotchallenge): checks the address and the bot challenge, then
 * writes a new code for the address, mailed only when the address is known. Same answer either way.
 */
export async function sendVerificationCode(context: SecurityContext, input: { email: string; botChallengeResponse: string }): Promise<void> {
  const typed = input.email.trim();
  if (!isMailAddress(typed)) throw new InvalidInputError(VISITOR_MESSAGES.validEmail, { email: VISITOR_MESSAGES.validEmail });
  if (!(await acceptBotChallengeResponse(context, input.botChallengeResponse))) throw new InvalidInputError(VISITOR_MESSAGES.invalidChallenge);
  const email = normalizeEmail(typed);
  const code = generateVerificationCode();
  const codeHash = await hashCode(context, email, code);
  await context.db.transaction(async (tx) => {
    await lockAddress(tx, email);
    const now = context.clock.now();
    if ((await countCodesSince(tx, email, new Date(now.getTime() - SEND_WINDOW_MS))) >= MAX_SENDS_PER_WINDOW) {
      throw new TooManyRequestsError(VISITOR_MESSAGES.tooManyCodes);
    }
    await insertCode(tx, { email, codeHash, createdAt: now, expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) });
    const to = await knownAddress(tx, email);
    if (to !== undefined) await enqueueMail(tx, codeMail(to, code), context.clock);
  });
}

/** A code that was checked for an address (not yet used up). */
export interface VerifiedCode {
  /** The address, normalized. */
  readonly email: string;
  readonly codeId: number;
}

/**
 * Checks the code the visitor sent (undefined: none) for the address: it must be six digits and
 * the address's latest code, unused, unexpired and alive. A wrong code counts a try (the 5th
 * kills it). NotSignedInError otherwise.
 */
export async function checkCode(context: SecurityContext, email: string, code: string | undefined): Promise<VerifiedCode> {
  const address = normalizeEmail(email);
  if (code === undefined || !CODE.test(code) || !isMailAddress(address)) throw invalidCode();
  const codeHash = await hashCode(context, address, code);
  const codeId = await context.db.transaction(async (tx) => {
    const latest = await findLatestCode(tx, address, true);
    const now = context.clock.now();
    if (!latest || latest.usedAt !== null || latest.expiresAt.getTime() <= now.getTime() || latest.tries >= MAX_CODE_TRIES) return undefined;
    if (!sameHash(codeHash, latest.codeHash)) {
      await addWrongTry(tx, latest.id);
      return undefined;
    }
    return latest.id;
  });
  if (codeId === undefined) throw invalidCode();
  return { email: address, codeId };
}

/** Uses the checked code up, in the transaction of the change it allows; NotSignedInError when it was used (or died) meanwhile. */
export async function useVerifiedCode(tx: Queryable, context: SecurityContext, verified: VerifiedCode): Promise<void> {
  if (!(await useCode(tx, verified.codeId, context.clock.now(), MAX_CODE_TRIES))) throw invalidCode();
}

/** Forbidden for a locked or closed account (step 2's answer, and that of the calls that need a usable account). */
function refuseUnusable(account: AccountByEmail): void {
  if (account.closed) throw new ForbiddenError(VISITOR_MESSAGES.closed);
  if (!account.active) throw new ForbiddenError(VISITOR_MESSAGES.locked);
}

/**
 * Step 2 (POST /accounts/verifyrequestisvalid): the code is good for the address. 403 when the
 * address's account is locked (the unlock flow takes that as valid) or closed. Uses nothing up.
 */
export async function verifyRequestIsValid(context: SecurityContext, email: string, code: string | undefined): Promise<void> {
  const verified = await checkCode(context, email, code);
  const account = await findAccountByEmail(context.db, verified.email);
  if (account) refuseUnusable(account);
}

const UNLOCK_REASON_RULES = { reason: composeValidators(required(VISITOR_MESSAGES.unlockReason), lengthAtMost(LIMITS.reason)) };

/** POST /requests/unlock: a pending unlock request for the address's locked account. */
export async function requestUnlock(
  context: SecurityContext,
  input: { email: string; reason: string; code: string | undefined },
): Promise<void> {
  const problems = validateFields(UNLOCK_REASON_RULES, { reason: input.reason });
  if (Object.keys(problems).length > 0) throw InvalidInputError.ofFields(problems);
  const verified = await checkCode(context, input.email, input.code);
  try {
    await context.db.transaction(async (tx) => {
      const account = await findAccountByEmail(tx, verified.email, true);
      if (!account || account.closed) throw new NotSignedInError(VISITOR_MESSAGES.unlockUnavailable);
      if (account.active) throw new InvalidInputError(VISITOR_MESSAGES.notLocked);
      if (await hasPendingRequest(tx, account.id, 'unlock')) throw new InvalidInputError(VISITOR_MESSAGES.unlockPending);
      await useVerifiedCode(tx, context, verified);
      const now = context.clock.now();
      const requestId = await insertRequest(tx, {
        kind: 'unlock',
        status: 'pending',
        accountId: account.id,
        username: account.username,
        email: account.email,
        reason: input.reason.trim(),
        details: {},
        createdAt: now,
      });
      await insertRequestUpdate(tx, { requestId, status: 'pending', username: account.username, comment: VISITOR_COMMENTS.requestSubmitted, createdAt: now });
    });
  } catch (error) {
    if (isUniqueViolation(error, REQUEST_UNIQUE_INDEXES.pendingPerAccount)) throw new InvalidInputError(VISITOR_MESSAGES.unlockPending);
    throw error;
  }
}

/**
 * POST /accounts/credentials/reset: a new website token for the address's account, returned
 * once. The old one stops working at once, the account's sessions end, its failed sign-in count
 * is reset, and a notice (never the token) is mailed. Locked or closed: 403; an account that
 * does not sign in with a website token (smart card only): 403.
 */
export async function resetWebsiteToken(context: SecurityContext, input: { email: string; code: string | undefined }): Promise<string> {
  const verified = await checkCode(context, input.email, input.code);
  const before = await findAccountByEmail(context.db, verified.email);
  // A code of an address without an account was never mailed: as good as a wrong one.
  if (!before) throw invalidCode();
  refuseUnusable(before);
  if (!before.authentication.includes('token')) throw new ForbiddenError(VISITOR_MESSAGES.noWebsiteToken);
  // Argon2 takes tens of milliseconds: hashed before the transaction.
  const token = generateWebsiteToken();
  const tokenHash = await hashWebsiteToken(token);
  await context.db.transaction(async (tx) => {
    const account = await findAccountByEmail(tx, verified.email, true);
    if (!account || account.id !== before.id) throw invalidCode();
    refuseUnusable(account);
    if (!account.authentication.includes('token')) throw new ForbiddenError(VISITOR_MESSAGES.noWebsiteToken);
    await useVerifiedCode(tx, context, verified);
    await setWebsiteTokenHash(tx, account.id, tokenHash);
    await deleteAccountSessions(tx, account.id);
    await resetFailures(tx, accountFailureKey(account.id));
    await addAccountUpdate(tx, { accountId: account.id, comment: VISITOR_COMMENTS.tokenReset, username: account.username, active: true });
    await enqueueMail(
      tx,
      {
        to: account.email,
        subject: 'Your website token was replaced',
        text: [
          `A new website token was generated for the account '${account.username}' after this address was verified with a code.`,
          'The previous token no longer works, and every session of the account was ended.',
          '',
          'If you did not do this, contact the help desk at once.',
        ].join('\n'),
      },
      context.clock,
    );
  });
  return token;
}

const CAC_REASON_RULES = { reason: lengthAtMost(LIMITS.reason) };

/**
 * POST /cert/requests/authchange/token: registers the smart card the visitor presents to the
 * address's account. With automatic approval it is bound at once (the account's authentication
 * gains 'certificate', a notice is mailed): true. Else a pending authentication change request
 * holds it: false.
 */
export async function registerCertificate(
  context: SecurityContext,
  input: {
    email: string;
    reason: string | undefined;
    /** The verification code the visitor sent (undefined: none). */
    code: string | undefined;
    certificate: CertificateDetails | undefined;
    autoApprove: boolean;
  },
): Promise<boolean> {
  const reason = input.reason ?? '';
  const problems = validateFields(CAC_REASON_RULES, { reason });
  if (Object.keys(problems).length > 0) throw InvalidInputError.ofFields(problems);
  const certificate = input.certificate;
  if (!certificate) throw new InvalidInputError(VISITOR_MESSAGES.noCertificate);
  const verified = await checkCode(context, input.email, input.code);
  try {
    return await context.db.transaction(async (tx) => {
      const account = await findAccountByEmail(tx, verified.email, true);
      if (!account) throw invalidCode();
      refuseUnusable(account);
      const boundTo = await findAccountIdByCertificateIdentity(tx, certificate.identity);
      if (boundTo !== undefined && boundTo !== account.id) throw new ConflictError(VISITOR_MESSAGES.certificateTaken);
      const now = context.clock.now();
      if (input.autoApprove || boundTo === account.id) {
        await useVerifiedCode(tx, context, verified);
        if (boundTo === undefined) await bindCertificate(tx, account.id, certificate);
        await addAuthenticationMethod(tx, account.id, 'certificate');
        await addAccountUpdate(tx, { accountId: account.id, comment: VISITOR_COMMENTS.certificateRegistered, username: account.username, active: true });
        await enqueueMail(
          tx,
          {
            to: account.email,
            subject: 'A smart card was registered to your account',
            text: [
              `A smart card (${certificateRecordOf(certificate).issued_to.common_name || certificate.identity}) was registered to the account '${account.username}'. You may now use it to sign in.`,
              '',
              'If you did not do this, contact the help desk at once.',
            ].join('\n'),
          },
          context.clock,
        );
        return true;
      }
      if (await hasPendingRequest(tx, account.id, 'authchange')) throw new ConflictError(VISITOR_MESSAGES.authChangePending);
      await useVerifiedCode(tx, context, verified);
      const requestId = await insertRequest(tx, {
        kind: 'authchange',
        status: 'pending',
        accountId: account.id,
        username: account.username,
        email: account.email,
        reason: reason.trim() === '' ? VISITOR_COMMENTS.reasonOptional : reason.trim(),
        details: { authentication: ['certificate'], certificate: certificateRecordOf(certificate) },
        createdAt: now,
      });
      await insertRequestUpdate(tx, { requestId, status: 'pending', username: account.username, comment: VISITOR_COMMENTS.requestSubmitted, createdAt: now });
      return false;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'account_certificates_identity_key')) throw new ConflictError(VISITOR_MESSAGES.certificateTaken);
    if (isUniqueViolation(error, REQUEST_UNIQUE_INDEXES.pendingPerAccount)) throw new ConflictError(VISITOR_MESSAGES.authChangePending);
    throw error;
  }
}
