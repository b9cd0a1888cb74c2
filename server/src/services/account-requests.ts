/**
 * New account requests (server/docs/self-service.md, "The account request"), and the
 * applicant's side of them in the verification flow: the status check and the response to a
 * request for more information.
 *
 * A submission is checked in this order, so that nothing about other people's accounts is told
 * to a caller who has not solved a bot challenge: the rules of spec section 5 (invalid input with
 * `fields`), a personal-provider address (invalid, field email), the client certificate (the
 * smart card route), the bot challenge (invalid), then usernames and emails already taken (a
 * conflict with `fields`; the unique indexes of migration 0005 settle two submissions racing
 * each other).
 */
import type { RequestStatus } from '@portal/api';
import { composeValidators, required } from '@portal/api';
import { ACCOUNT_REQUEST_RULES, LIMITS, lengthAtMost, validateFields, type AccountRequestField } from '@portal/api';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.js';
import { accountExists } from '../repositories/accounts.js';
import { findAccountIdByCertificateIdentity, type CertificateDetails } from '../repositories/certificates.js';
import {
  findLatestNewRequestByEmail,
  findOpenNewRequestForUpdate,
  insertRequest,
  insertRequestUpdate,
  openRequestUses,
  REQUEST_UNIQUE_INDEXES,
  setRequestStatus,
} from '../repositories/requests.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import { VISITOR_COMMENTS, VISITOR_MESSAGES } from '../visitor-messages.js';
import { certificateRecordOf } from './certificates.js';
import { acceptBotChallengeResponse } from './challenge.js';
import { enqueueMail } from './mail.js';
import type { SecurityContext } from './security-context.js';
import { checkCode, useVerifiedCode } from './verification.js';

/** The page where an applicant checks the request (spec section 2). */
export const STATUS_CHECK_PATH = '/check-account-request-status';

/** What an applicant asks for, nested as the Account nests it; every answer may be missing (the rules say what is required). */
export interface AccountApplication {
  first_name?: string;
  last_name?: string;
  username?: string;
  email?: string;
  phone?: string;
  address?: { street?: string; city?: string; state?: string; zip?: string; country?: string };
  company?: string;
  project?: string;
  reason?: string;
  supervisor?: { first_name?: string; last_name?: string; email?: string; phone?: string };
}

export type FlatAccountRequest = Record<AccountRequestField, string>;

/** The application's fields under their flat names (the names of the failing `fields`), missing ones as ''. */
export function flattenAccountRequest(body: AccountApplication): FlatAccountRequest {
  return {
    first_name: body.first_name ?? '',
    last_name: body.last_name ?? '',
    username: body.username ?? '',
    email: body.email ?? '',
    phone: body.phone ?? '',
    street: body.address?.street ?? '',
    city: body.address?.city ?? '',
    state: body.address?.state ?? '',
    zip: body.address?.zip ?? '',
    country: body.address?.country ?? '',
    company: body.company ?? '',
    project: body.project ?? '',
    supervisor_first_name: body.supervisor?.first_name ?? '',
    supervisor_last_name: body.supervisor?.last_name ?? '',
    supervisor_email: body.supervisor?.email ?? '',
    supervisor_phone: body.supervisor?.phone ?? '',
    reason: body.reason ?? '',
  };
}

/** Whether an address is at a personal (free) mail provider of the list: its domain or a subdomain of one. */
export function isPersonalEmail(email: string, domains: readonly string[]): boolean {
  const domain = email.trim().slice(email.trim().lastIndexOf('@') + 1).toLowerCase();
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

function receivedMail(request: FlatAccountRequest, statusPageUrl: string) {
  return {
    to: request.email,
    subject: 'Your account request was received',
    text: [
      `Hello ${request.first_name} ${request.last_name},`,
      '',
      `Your request for the account '${request.username}' was received. It will be reviewed, and you will be told by mail when it is decided.`,
      '',
      'You can check its status, and answer any question about it, at:',
      statusPageUrl,
      '',
      'If you did not make this request, you can ignore this mail.',
    ].join('\n'),
  };
}

export interface SubmitOptions {
  /** The bot challenge the applicant solved (undefined: none). */
  botChallengeResponse: string | undefined;
  /** The smart-card route: a verified client certificate is required (undefined: none was presented). */
  withCertificate: boolean;
  certificate?: CertificateDetails | undefined;
  /** The absolute address of the status check page, for the applicant's mail. */
  statusPageUrl: string;
}

/** Stores a new account request (pending) with its first update, and mails the applicant; returns its id. */
export async function submitAccountRequest(context: SecurityContext, application: AccountApplication, options: SubmitOptions): Promise<number> {
  const raw = flattenAccountRequest(application);
  const problems: Partial<Record<AccountRequestField, string>> = validateFields(ACCOUNT_REQUEST_RULES, raw);
  if (problems.email === undefined && isPersonalEmail(raw.email, context.settings.personalEmailDomains)) {
    problems.email = VISITOR_MESSAGES.personalEmail;
  }
  if (Object.keys(problems).length > 0) throw InvalidInputError.ofFields(problems);
  const certificate = options.withCertificate ? options.certificate : undefined;
  if (options.withCertificate && !certificate) throw new InvalidInputError(VISITOR_MESSAGES.noCertificate);
  if (!(await acceptBotChallengeResponse(context, options.botChallengeResponse ?? ''))) throw new InvalidInputError(VISITOR_MESSAGES.invalidChallenge);

  const request = Object.fromEntries(Object.entries(raw).map(([field, value]) => [field, value.trim()])) as FlatAccountRequest;
  try {
    return await context.db.transaction(async (tx) => {
      const account = await accountExists(tx, { username: request.username, email: request.email });
      const open = await openRequestUses(tx, { username: request.username, email: request.email });
      const taken: Partial<Record<AccountRequestField, string>> = {};
      if (account.username || open.username) taken.username = VISITOR_MESSAGES.usernameTaken;
      if (account.email || open.email) taken.email = VISITOR_MESSAGES.emailInUse;
      if (Object.keys(taken).length > 0) throw ConflictError.ofFields(taken);
      if (certificate && (await findAccountIdByCertificateIdentity(tx, certificate.identity)) !== undefined) {
        throw new ConflictError(VISITOR_MESSAGES.certificateTaken);
      }
      const now = context.clock.now();
      const id = await insertRequest(tx, {
        kind: 'new',
        status: 'pending',
        accountId: null,
        username: request.username,
        email: request.email,
        reason: request.reason,
        details: {
          first_name: request.first_name,
          last_name: request.last_name,
          phone: request.phone,
          address: { street: request.street, city: request.city, state: request.state, zip: request.zip, country: request.country },
          company: request.company,
          project: request.project,
          supervisor: {
            first_name: request.supervisor_first_name,
            last_name: request.supervisor_last_name,
            email: request.supervisor_email,
            phone: request.supervisor_phone,
          },
          cac_eligible: certificate !== undefined,
          certificate: certificate ? certificateRecordOf(certificate) : null,
        },
        createdAt: now,
      });
      await insertRequestUpdate(tx, { requestId: id, status: 'pending', username: request.username, comment: VISITOR_COMMENTS.requestSubmitted, createdAt: now });
      await enqueueMail(tx, receivedMail(request, options.statusPageUrl), context.clock);
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, REQUEST_UNIQUE_INDEXES.openNewUsername)) throw ConflictError.ofFields({ username: VISITOR_MESSAGES.usernameTaken });
    if (isUniqueViolation(error, REQUEST_UNIQUE_INDEXES.openNewEmail)) throw ConflictError.ofFields({ email: VISITOR_MESSAGES.emailInUse });
    throw error;
  }
}

export interface AccountRequestStatus {
  status: RequestStatus;
  comment: string;
  username: string;
  awaiting_response: boolean;
}

/** POST /requests/new/status: the address's latest new account request. A read: the code is not used up. */
export async function accountRequestStatus(context: SecurityContext, email: string, code: string | undefined): Promise<AccountRequestStatus> {
  const verified = await checkCode(context, email, code);
  const request = await findLatestNewRequestByEmail(context.db, verified.email);
  if (!request) throw new NotFoundError(VISITOR_MESSAGES.noNewRequest);
  return { status: request.status, comment: request.comment, username: request.username, awaiting_response: request.status === 'incomplete' };
}

const RESPONSE_RULES = { comment: composeValidators(required(VISITOR_MESSAGES.responseRequired), lengthAtMost(LIMITS.comment)) };

/**
 * POST /requests/new/pending: the applicant answers a request for more information. The
 * address's request with this username must be incomplete (else a conflict); it goes back to pending,
 * the answer recorded in its updates. Uses the code up.
 */
export async function respondToAccountRequest(
  context: SecurityContext,
  input: { email: string; username: string; comment: string; code: string | undefined },
): Promise<void> {
  const problems = validateFields(RESPONSE_RULES, { comment: input.comment });
  if (Object.keys(problems).length > 0) throw InvalidInputError.ofFields(problems);
  const verified = await checkCode(context, input.email, input.code);
  await context.db.transaction(async (tx) => {
    const request = await findOpenNewRequestForUpdate(tx, { email: verified.email, username: input.username, status: 'incomplete' });
    if (!request) throw new ConflictError(VISITOR_MESSAGES.notAwaitingResponse);
    await useVerifiedCode(tx, context, verified);
    const now = context.clock.now();
    if (!(await setRequestStatus(tx, request.id, { status: 'pending', at: now, from: 'incomplete' }))) {
      throw new ConflictError(VISITOR_MESSAGES.notAwaitingResponse);
    }
    await insertRequestUpdate(tx, { requestId: request.id, status: 'pending', username: request.username, comment: input.comment.trim(), createdAt: now });
  });
}
