/**
 * Requests a signed-in user submits about their own account (server/docs/self-service.md,
 * "Signed in"): an email change (kind 'profilechange', also by a surrogate) and an
 * authentication change ('authchange': from smart card to website token, or from token to a
 * smart card presented now). Each is stored pending with a first update, for an adjudicator.
 * One pending request of each kind per account: checked first, and held by the partial unique
 * index when two arrive at once (the loser gets the same 409).
 */
import { contactAddress } from '@portal/api';
import { email as emailRule, LIMITS, lengthAtMost, MAX_MAIL_ADDRESS_LENGTH, RULE_MESSAGES, sponsorEmailRules } from '@portal/api';
import { composeValidators, required } from '@portal/api';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { findAccountRecordById, type AccountRecord } from '../repositories/account-view.js';
import { findAccountIdByCertificateIdentity, type CertificateDetails } from '../repositories/certificates.js';
import { hasPendingRequest, insertRequest, insertRequestUpdate, isEmailInUse, REQUEST_UNIQUE_INDEXES } from '../repositories/requests.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import { SELF_SERVICE_COMMENTS, SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import { holds, targetAccount, type Actor, type SelfServiceContext } from './account-access.js';
import { certificateRecordOf } from './certificates.js';
import { enqueueMail } from './mail.js';

/** The kinds of request a signed-in user submits about an account. */
type SelfRequestKind = 'profilechange' | 'authchange';

/** A request to submit: pending, with a first update by whoever submitted it. */
interface SelfRequest {
  kind: SelfRequestKind;
  accountId: number;
  username: string;
  email: string;
  reason: string;
  details: Record<string, unknown>;
  /** The surrogate's username; null when the account's owner submits. */
  submittedBy: string | null;
}

const PENDING_MESSAGE: Record<SelfRequestKind, string> = {
  profilechange: SELF_SERVICE_MESSAGES.emailChangePending,
  authchange: SELF_SERVICE_MESSAGES.authChangePending,
};

/**
 * Inserts a pending request (with its first update) in a transaction, after `prepare` (which may
 * queue mail in the same transaction). A pending one already: 409, also when it arrives at the same
 * moment (the partial unique index).
 */
async function submit(
  context: SelfServiceContext,
  actor: Actor,
  request: SelfRequest,
  after: (tx: Queryable, at: Date) => Promise<void> = async () => undefined,
): Promise<number> {
  const pending = new ConflictError(PENDING_MESSAGE[request.kind]);
  if (await hasPendingRequest(context.db, request.accountId, request.kind)) throw pending;
  const at = context.clock.now();
  try {
    return await context.db.transaction(async (tx) => {
      const id = await insertRequest(tx, { ...request, status: 'pending', createdAt: at });
      await insertRequestUpdate(tx, { requestId: id, status: 'pending', username: actor.username, comment: SELF_SERVICE_COMMENTS.requestSubmitted, createdAt: at });
      await after(tx, at);
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, REQUEST_UNIQUE_INDEXES.pendingPerAccount)) throw pending;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Email change

/** GET /requests/profilechange/email-exists: CHANGE_EMAIL or SUBMIT_SURROGATE_REQUEST. */
export async function emailExists(context: SelfServiceContext, actor: Actor, email: string): Promise<boolean> {
  if (!holds(actor, 'CHANGE_EMAIL') && !holds(actor, 'SUBMIT_SURROGATE_REQUEST')) throw new ForbiddenError(MESSAGES.forbidden);
  const address = email.trim();
  if (address === '') return false;
  return isEmailInUse(context.db, address);
}

const newEmailRule = composeValidators(
  required(RULE_MESSAGES.validEmailAddress),
  emailRule(RULE_MESSAGES.validEmailAddress),
  lengthAtMost(MAX_MAIL_ADDRESS_LENGTH),
);
const emailChangeReasonRule = composeValidators(required(RULE_MESSAGES.changeEmailReason), lengthAtMost(LIMITS.reason));

export interface EmailChange {
  username: string;
  email?: string;
  reason?: string;
}

function emailChangeMails(
  context: SelfServiceContext,
  account: AccountRecord,
  newEmail: string,
  surrogate: string | null,
): { to: string; subject: string; text: string }[] {
  const contact = contactAddress(context.config);
  const by = surrogate === null ? '' : `It was submitted on your behalf by ${surrogate}.\n`;
  const review = 'An adjudicator will review it; the address changes only if it is approved.\n';
  return [
    {
      to: account.email,
      subject: 'Email change requested',
      text:
        `A request was submitted to change the email address of the account ${account.username} from ${account.email} to ${newEmail}.\n` +
        by +
        review +
        `If you did not ask for this change, contact ${contact}.\n`,
    },
    {
      to: newEmail,
      subject: 'Email change requested',
      text:
        `A request was submitted to change the email address of the account ${account.username} to this address (${newEmail}).\n` +
        by +
        review +
        `If you did not expect this, contact ${contact}.\n`,
    },
  ];
}

/**
 * POST /requests/profilechange { username, email, reason }: one's own with CHANGE_EMAIL, another's
 * with SUBMIT_SURROGATE_REQUEST (a surrogate, recorded in submitted_by). The rules of spec section 5
 * (400 with fields; the confirmation and the checkbox are the form's alone), then one pending
 * request per account (409), then the address in use by an account or an open request (409, field
 * email). Both the current and the new address are mailed, in the request's transaction.
 */
export async function requestEmailChange(context: SelfServiceContext, actor: Actor, body: EmailChange): Promise<number> {
  const { account, own } = await targetAccount(context.db, actor, body.username, { own: 'CHANGE_EMAIL', any: 'SUBMIT_SURROGATE_REQUEST' });
  const newEmail = (body.email ?? '').trim();
  const reason = (body.reason ?? '').trim();
  const errors: Record<string, string> = {};
  const emailMessage =
    newEmailRule(body.email) ?? (newEmail.toLowerCase() === account.email.toLowerCase() ? RULE_MESSAGES.sameEmail : undefined);
  if (emailMessage) errors.email = emailMessage;
  const reasonMessage = emailChangeReasonRule(body.reason);
  if (reasonMessage) errors.reason = reasonMessage;
  if (Object.keys(errors).length > 0) throw InvalidInputError.ofFields(errors);

  if (await hasPendingRequest(context.db, account.id, 'profilechange')) throw new ConflictError(SELF_SERVICE_MESSAGES.emailChangePending);
  if (await isEmailInUse(context.db, newEmail)) throw ConflictError.ofFields({ email: RULE_MESSAGES.emailInUse });

  const surrogate = own ? null : actor.username;
  return submit(
    context,
    actor,
    {
      kind: 'profilechange',
      accountId: account.id,
      username: account.username,
      email: newEmail,
      reason,
      details: { previous_email: account.email },
      submittedBy: surrogate,
    },
    async (tx) => {
      for (const mail of emailChangeMails(context, account, newEmail, surrogate)) await enqueueMail(tx, mail, context.clock);
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Authentication change

async function ownAccount(context: SelfServiceContext, actor: Actor): Promise<AccountRecord> {
  const account = await findAccountRecordById(context.db, actor.id);
  if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
  return account;
}

/** ' [GOVT SPONSOR: {email}]' at the end of a reason (spec section 5). */
const SPONSOR = /^([\s\S]*?) ?\[GOVT SPONSOR: ([^\]]*)\]\s*$/;

/** A reason with the sponsor appended, taken apart: the reason itself and the sponsor's address (undefined: none appended). */
export function splitSponsor(reason: string): { reason: string; sponsor: string | undefined } {
  const match = SPONSOR.exec(reason);
  if (!match) return { reason, sponsor: undefined };
  return { reason: match[1] ?? '', sponsor: (match[2] ?? '').trim() };
}

const authChangeReasonRule = composeValidators(required(RULE_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason));

/**
 * POST /requests/authchange { reason, authentication: ['token'] } (allow-authchange): from smart
 * card to website token. The account must sign in with a certificate now (409 otherwise). The
 * reason carries the US Government sponsor (' [GOVT SPONSOR: {email}]'): 400 field sponsor_email
 * 'Please enter a valid email' when it is missing or invalid ('This field is required' when
 * empty); the reason itself is required, at most 150 characters (field reason).
 */
export async function requestAuthChangeToToken(context: SelfServiceContext, actor: Actor, body: { reason: string }): Promise<number> {
  const account = await ownAccount(context, actor);
  const { reason, sponsor } = splitSponsor(body.reason);
  const errors: Record<string, string> = {};
  const reasonMessage = authChangeReasonRule(reason);
  if (reasonMessage) errors.reason = reasonMessage;
  const sponsorMessage = sponsor === undefined ? 'Please enter a valid email' : sponsorEmailRules(sponsor);
  if (sponsorMessage) errors.sponsor_email = sponsorMessage;
  if (Object.keys(errors).length > 0) throw InvalidInputError.ofFields(errors);
  if (!account.authentication.includes('certificate')) throw new ConflictError(SELF_SERVICE_MESSAGES.noCertificateAuthentication);
  return submit(context, actor, {
    kind: 'authchange',
    accountId: account.id,
    username: account.username,
    email: account.email,
    reason: body.reason.trim(),
    details: { authentication: ['token'], sponsor_email: sponsor ?? '' },
    submittedBy: null,
  });
}

const certificateReasonRule = lengthAtMost(LIMITS.reason);

/**
 * POST /cert/requests/authchange { reason, authentication: ['certificate'] } (allow-authchange)
 * with a verified client certificate (the route checks it): from website token to this smart
 * card. Any reason up to 150 characters ('Reason optional' when the form's box is empty). A
 * certificate bound to another account: 409; to this one already: 409. The certificate's
 * details are kept with the request (details.certificate) for the adjudicator, who binds it.
 */
export async function requestAuthChangeToCertificate(
  context: SelfServiceContext,
  actor: Actor,
  body: { reason: string },
  certificate: CertificateDetails,
): Promise<number> {
  const account = await ownAccount(context, actor);
  const reasonMessage = certificateReasonRule(body.reason);
  if (reasonMessage) throw InvalidInputError.ofFields({ reason: reasonMessage });
  const boundTo = await findAccountIdByCertificateIdentity(context.db, certificate.identity);
  if (boundTo === account.id) throw new ConflictError(SELF_SERVICE_MESSAGES.certificateAlreadyYours);
  if (boundTo !== undefined) throw new ConflictError(SELF_SERVICE_MESSAGES.certificateTakenByOther);
  return submit(context, actor, {
    kind: 'authchange',
    accountId: account.id,
    username: account.username,
    email: account.email,
    reason: body.reason.trim(),
    details: {
      authentication: ['certificate'],
      certificate: certificateRecordOf(certificate),
    },
    submittedBy: null,
  });
}
