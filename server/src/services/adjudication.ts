/**
 * The request queues and every decision's effect (server/docs/adjudication.md, "The request
 * queues"). A decision is one transaction: the request row is locked and its status checked
 * again, so of two decisions at once exactly one wins; then the status, an update, the effect on
 * the account and the applicant's mail (outbox) are written together or not at all.
 */
import type { RequestKind, RequestStatus } from '@portal/api/requests/kinds';
import type { Permission, RequestKindKey } from '@portal/shared/permissions';
import { LIMITS, lengthAtMost, RULE_MESSAGES } from '@portal/shared/rules';
import { composeValidators, required, type Validator } from '@portal/shared/validation';
import { ACCOUNT_ACTIONS, ADJUDICATION_COMMENTS, ADJUDICATION_MESSAGES } from '../adjudication-messages.js';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { findAccountRecordById, type AccountRecord } from '../repositories/account-view.js';
import {
  accountExists,
  addAccountRole,
  addAccountUpdate,
  insertAccount,
  setAccountAuthentication,
  setAccountEmail,
  setWebsiteTokenHash,
} from '../repositories/accounts.js';
import { bindCertificate, findAccountIdByCertificateIdentity, removeCertificates, type CertificateDetails } from '../repositories/certificates.js';
import {
  countPendingByKind,
  findRequest,
  findRequestUpdates,
  listOpenRequests,
  searchDeniedRequests,
  type Page,
  type RequestRowRecord,
} from '../repositories/request-queue.js';
import { insertRequestUpdate, setRequestStatus } from '../repositories/requests.js';
import { deleteAccountSessions } from '../repositories/sessions.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import { holds, isOwner, type Actor, type SelfServiceContext } from './account-access.js';
import { accountView, type AccountView } from './accounts.js';
import { STATUS_CHECK_PATH } from './account-requests.js';
import { enqueueMail, type Mail } from './mail.js';
import { unlockAccount } from './sign-in.js';

/** The request domain's names, for the routes and the tests (defined once in @portal/api). */
export { REQUEST_KINDS, REQUEST_STATUSES, type RequestKind, type RequestStatus } from '@portal/api/requests/kinds';

export type Decision = 'approved' | 'denied' | 'incomplete';

interface KindRules {
  /** The stem of the kind's LIST_…, VIEW_… and ADJUDICATE_… permissions. */
  permission: RequestKindKey;
  /** The statuses its list shows and from which it may be decided. */
  open: readonly RequestStatus[];
  decidableFrom: readonly RequestStatus[];
  decisions: readonly Decision[];
  /** The comment box's limit. */
  commentLimit: number;
}

const PENDING: readonly RequestStatus[] = ['pending'];
const APPROVE_OR_DENY: readonly Decision[] = ['approved', 'denied'];
const other = (permission: RequestKindKey): KindRules => ({
  permission,
  open: PENDING,
  decidableFrom: PENDING,
  decisions: APPROVE_OR_DENY,
  commentLimit: LIMITS.reason,
});

export const KIND_RULES: Readonly<Record<RequestKind, KindRules>> = {
  new: {
    permission: 'NEW_ACCOUNT',
    open: ['pending', 'incomplete'],
    decidableFrom: ['pending', 'incomplete', 'denied'],
    decisions: ['approved', 'denied', 'incomplete'],
    commentLimit: LIMITS.comment,
  },
  profilechange: other('EMAIL_CHANGE'),
  authchange: other('AUTH_CHANGE'),
  unlock: other('UNLOCK'),
  usergroup: other('USER_GROUP'),
  mailinglist: other('MAILING_LIST'),
  membership: other('MEMBERSHIP'),
};

export const listPermission = (kind: RequestKind): Permission => `LIST_${KIND_RULES[kind].permission}_REQUESTS`;
export const viewPermission = (kind: RequestKind): Permission => `VIEW_${KIND_RULES[kind].permission}_REQUEST`;
export const adjudicatePermission = (kind: RequestKind): Permission => `ADJUDICATE_${KIND_RULES[kind].permission}_REQUEST`;

// ---------------------------------------------------------------------------------------------
// Views

export interface RequestRowView {
  id: number;
  kind: RequestKind;
  identifier: string;
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  status: RequestStatus;
  created: string;
  updated: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The column that tells a kind's requests apart (doc: RequestRow.identifier). */
function identifierOf(request: RequestRowRecord): string {
  switch (request.kind) {
    case 'new':
    case 'unlock':
      return request.username;
    case 'profilechange':
      return request.email;
    case 'authchange': {
      const authentication = request.details.authentication;
      return Array.isArray(authentication) ? authentication.filter((a) => typeof a === 'string').join(', ') : '';
    }
    case 'usergroup':
    case 'membership':
      return str(request.details.user_group);
    case 'mailinglist':
      return str(request.details.list_id);
  }
}

function rowView(request: RequestRowRecord): RequestRowView {
  return {
    id: request.id,
    kind: request.kind,
    identifier: identifierOf(request),
    first_name: request.firstName,
    last_name: request.lastName,
    email: request.accountEmail,
    username: request.username,
    status: request.status,
    created: request.created.toISOString(),
    updated: request.updated.toISOString(),
  };
}

export interface RequestListView {
  rows: RequestRowView[];
  has_more_results: boolean;
}

/** GET /requests/{kind}: the kind's open requests, oldest first, a page at a time. */
export async function listRequests(context: SelfServiceContext, kind: RequestKind, page: Page): Promise<RequestListView> {
  const { rows, hasMore } = await listOpenRequests(context.db, kind, KIND_RULES[kind].open, page);
  return { rows: rows.map(rowView), has_more_results: hasMore };
}

export type RequestSummary = Record<`total_${'authchange' | 'profilechange' | 'mailinglist' | 'new' | 'usergroup' | 'unlock'}`, number>;

/** GET /requests: the pending requests of each queue (what waits for an adjudicator). */
export async function requestSummary(context: SelfServiceContext): Promise<RequestSummary> {
  const counts = await countPendingByKind(context.db);
  return {
    total_authchange: counts.authchange ?? 0,
    total_profilechange: counts.profilechange ?? 0,
    total_mailinglist: counts.mailinglist ?? 0,
    total_new: counts.new ?? 0,
    total_usergroup: counts.usergroup ?? 0,
    total_unlock: counts.unlock ?? 0,
  };
}

/** POST /requests/search-denied: denied new account requests matching every word of the term. */
export async function searchDenied(context: SelfServiceContext, term: string | undefined, page: Page): Promise<RequestListView> {
  const words = (term ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 4);
  if (words.length === 0) throw InvalidInputError.ofFields({ term: RULE_MESSAGES.searchTermRequired });
  const { rows, hasMore } = await searchDeniedRequests(context.db, words, page);
  return { rows: rows.map(rowView), has_more_results: hasMore };
}

export interface RequestDetailView extends RequestRowView {
  email: string;
  reason: string;
  adjudicator: string | null;
  submitted_by: string | null;
  updates: { status: RequestStatus; username: string; created: string; comment: string }[];
  account: AccountView | null;
  decisions: Decision[];
  [field: string]: unknown;
}

/** Whether the request is the caller's own: about their account, in their name, or submitted by them. */
function isOwnRequest(actor: Actor, request: RequestRowRecord): boolean {
  return (
    request.accountId === actor.id ||
    isOwner(actor, request.username) ||
    (request.submittedBy !== null && isOwner(actor, request.submittedBy))
  );
}

function decisionsFor(actor: Actor, request: RequestRowRecord): Decision[] {
  const rules = KIND_RULES[request.kind];
  if (!holds(actor, adjudicatePermission(request.kind)) || isOwnRequest(actor, request)) return [];
  if (!rules.decidableFrom.includes(request.status)) return [];
  return rules.decisions.filter((d) => d !== request.status);
}

/** The kind's own fields (spec section 3), from `details`; internal ones (a certificate's binding data) left out. */
function kindFields(request: RequestRowRecord): Record<string, unknown> {
  const { details } = request;
  const certificate = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return null;
    const c = value as Record<string, unknown>;
    return {
      issued_to: c.issued_to,
      issued_by: c.issued_by,
      valid_from: c.valid_from ?? null,
      valid_until: c.valid_until ?? null,
      country_of_citizenship: c.country_of_citizenship ?? null,
    };
  };
  switch (request.kind) {
    case 'new':
      return {
        first_name: str(details.first_name),
        last_name: str(details.last_name),
        phone: str(details.phone),
        address: details.address ?? {},
        company: str(details.company),
        project: str(details.project),
        supervisor: details.supervisor ?? {},
        cac_eligible: details.cac_eligible === true,
        certificate: certificate(details.certificate),
      };
    case 'profilechange':
      return { previous_email: str(details.previous_email) };
    case 'authchange':
      return {
        authentication: Array.isArray(details.authentication) ? details.authentication : [],
        certificate: certificate(details.certificate),
        sponsor_email: str(details.sponsor_email),
      };
    default:
      return { ...details };
  }
}

async function detailView(db: Queryable, actor: Actor, request: RequestRowRecord): Promise<RequestDetailView> {
  const updates = await findRequestUpdates(db, request.id);
  const record = request.accountId === null ? undefined : await findAccountRecordById(db, request.accountId);
  return {
    ...kindFields(request),
    ...rowView(request),
    email: request.email,
    reason: request.reason,
    adjudicator: request.adjudicator,
    submitted_by: request.submittedBy,
    updates: updates.map((u) => ({ status: u.status, username: u.username, created: u.created.toISOString(), comment: u.comment })),
    account: record ? await accountView(db, record) : null,
    decisions: decisionsFor(actor, request),
  };
}

const notFound = () => new NotFoundError(ADJUDICATION_MESSAGES.requestNotFound);

/** GET /requests/{kind}/{id}. */
export async function getRequest(context: SelfServiceContext, actor: Actor, kind: RequestKind, id: number): Promise<RequestDetailView> {
  const request = await findRequest(context.db, kind, id);
  if (!request) throw notFound();
  return detailView(context.db, actor, request);
}

// ---------------------------------------------------------------------------------------------
// Decisions

export interface DecisionInput {
  comment?: string | undefined;
  /** The portal's address for links in mail ('' leaves them relative). */
  publicUrl: string;
}

function commentRule(kind: RequestKind, decision: Decision): Validator {
  const limit = lengthAtMost(KIND_RULES[kind].commentLimit);
  return decision === 'incomplete' ? composeValidators(required(RULE_MESSAGES.commentNeeded), limit) : limit;
}

interface Applied {
  mails: Mail[];
}

/** What happens when an adjudicator decides: the kind's effect and the mail to send. */
type Effect = (tx: Queryable, request: RequestRowRecord, decision: Decision, context: EffectContext) => Promise<Applied>;

interface EffectContext {
  actor: Actor;
  comment: string;
  at: Date;
  publicUrl: string;
}

const withComment = (comment: string): string[] => (comment === '' ? [] : ['', 'Comment from the adjudicator:', comment]);

function applicantName(request: RequestRowRecord): string {
  return `${request.firstName} ${request.lastName}`.trim() || request.username;
}

async function accountOf(tx: Queryable, request: RequestRowRecord): Promise<AccountRecord> {
  const account = request.accountId === null ? undefined : await findAccountRecordById(tx, request.accountId);
  if (!account) throw notFound();
  return account;
}

/** A certificate kept on a request (details.certificate) as binding needs it; undefined when none is kept. */
function keptCertificate(value: unknown): CertificateDetails | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  if (typeof c.identity !== 'string' || c.identity === '') return undefined;
  const when = (v: unknown) => (typeof v === 'string' && v !== '' ? new Date(v) : null);
  return {
    identity: c.identity,
    fingerprint: typeof c.fingerprint === 'string' ? c.fingerprint : null,
    subject: typeof c.subject === 'string' ? c.subject : null,
    issuer: typeof c.issuer === 'string' ? c.issuer : null,
    validFrom: when(c.valid_from),
    validUntil: when(c.valid_until),
  };
}

const newAccountEffect: Effect = async (tx, request, decision, { actor, comment, at, publicUrl }) => {
  const name = applicantName(request);
  if (decision === 'incomplete') {
    return {
      mails: [
        {
          to: request.email,
          subject: 'More information is needed for your account request',
          text: [
            `Hello ${name},`,
            '',
            `An adjudicator needs more information before deciding your request for the account '${request.username}':`,
            '',
            comment,
            '',
            'Please answer at the address below (enter this email address, then the code we mail you):',
            `${publicUrl}${STATUS_CHECK_PATH}`,
          ].join('\n'),
        },
      ],
    };
  }
  if (decision === 'denied') {
    return {
      mails: [
        {
          to: request.email,
          subject: 'Your account request was denied',
          text: [`Hello ${name},`, '', `Your request for the account '${request.username}' was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const d = request.details as {
    phone?: string;
    address?: Record<string, string>;
    company?: string;
    project?: string;
    supervisor?: Record<string, string>;
    cac_eligible?: boolean;
    certificate?: unknown;
  };
  const certificate = d.cac_eligible === true ? keptCertificate(d.certificate) : undefined;
  const taken = await accountExists(tx, { username: request.username, email: request.email });
  if (taken.username) throw new ConflictError(ADJUDICATION_MESSAGES.usernameTaken(request.username));
  if (taken.email) throw new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email));
  if (certificate && (await findAccountIdByCertificateIdentity(tx, certificate.identity)) !== undefined) {
    throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
  }
  const accountId = await insertAccount(tx, {
    username: request.username,
    email: request.email,
    first_name: request.firstName,
    last_name: request.lastName,
    phone: str(d.phone),
    street: str(d.address?.street),
    city: str(d.address?.city),
    state: str(d.address?.state),
    zip: str(d.address?.zip),
    country: str(d.address?.country),
    company: str(d.company),
    project: str(d.project),
    supervisor_first_name: str(d.supervisor?.first_name),
    supervisor_last_name: str(d.supervisor?.last_name),
    supervisor_email: str(d.supervisor?.email),
    supervisor_phone: str(d.supervisor?.phone),
    reason: request.reason,
    active: true,
    closed: false,
    authentication: certificate ? ['certificate'] : ['token'],
    last_certified: at,
  });
  await addAccountRole(tx, accountId, 'user');
  if (certificate) await bindCertificate(tx, accountId, certificate);
  await addAccountUpdate(tx, {
    accountId,
    action: ACCOUNT_ACTIONS.created,
    comment: ADJUDICATION_COMMENTS.createdFromRequest(request.id),
    username: actor.username,
    active: true,
    at,
  });
  const howToSignIn = certificate
    ? [`Sign in with your smart card: open ${publicUrl}/login, choose Returning Users, then CAC Users, and press CAC LOGIN.`]
    : [
        'Before you sign in, generate your website token:',
        `  1. Open ${publicUrl}/reset-website-token`,
        `  2. Enter this email address (${request.email}) and the verification code we then mail you.`,
        '  3. Press Generate, and store the token securely: it is shown once.',
        `Then sign in at ${publicUrl}/login (Returning Users, Non-CAC Users) with your username '${request.username}' and the token.`,
      ];
  return {
    mails: [
      {
        to: request.email,
        subject: 'Your account request was approved',
        text: [`Hello ${name},`, '', `Your account '${request.username}' was approved.`, '', ...howToSignIn, ...withComment(comment)].join('\n'),
      },
    ],
  };
};

const emailChangeEffect: Effect = async (tx, request, decision, { actor, comment, at }) => {
  const account = await accountOf(tx, request);
  if (decision !== 'approved') {
    return {
      mails: [
        {
          to: account.email,
          subject: 'Your email change request was denied',
          text: [`The request to change the email address of the account '${account.username}' to ${request.email} was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const taken = await accountExists(tx, { email: request.email });
  if (taken.email) throw new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email));
  await setAccountEmail(tx, account.id, request.email);
  await addAccountUpdate(tx, {
    accountId: account.id,
    action: ACCOUNT_ACTIONS.emailChanged,
    comment: `${account.email} → ${request.email}${comment === '' ? '' : `: ${comment}`}`,
    username: actor.username,
    active: account.active,
    at,
  });
  const text = (to: string) =>
    [
      `The email address of the account '${account.username}' was changed from ${account.email} to ${request.email}.`,
      `Mail for the account now goes to ${to === request.email ? 'this address' : request.email}.`,
      ...withComment(comment),
    ].join('\n');
  return {
    mails: [
      { to: account.email, subject: 'Your email address was changed', text: text(account.email) },
      { to: request.email, subject: 'Your email address was changed', text: text(request.email) },
    ],
  };
};

const authChangeEffect: Effect = async (tx, request, decision, { actor, comment, at, publicUrl }) => {
  const account = await accountOf(tx, request);
  if (decision !== 'approved') {
    return {
      mails: [
        {
          to: account.email,
          subject: 'Your authentication change request was denied',
          text: [`The request to change how the account '${account.username}' signs in was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const toCertificate = Array.isArray(request.details.authentication) && request.details.authentication.includes('certificate');
  let howToSignIn: string;
  if (toCertificate) {
    const certificate = keptCertificate(request.details.certificate);
    if (!certificate) throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    const boundTo = await findAccountIdByCertificateIdentity(tx, certificate.identity);
    if (boundTo !== undefined && boundTo !== account.id) throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    if (boundTo === undefined) await bindCertificate(tx, account.id, certificate);
    await setAccountAuthentication(tx, account.id, ['certificate']);
    await setWebsiteTokenHash(tx, account.id, null);
    howToSignIn = `Sign in with your smart card from now on: ${publicUrl}/login, Returning Users, CAC Users. Your website token no longer works.`;
  } else {
    await removeCertificates(tx, account.id);
    await setAccountAuthentication(tx, account.id, ['token']);
    howToSignIn = `Generate your website token at ${publicUrl}/reset-website-token, then sign in with your username and the token. Your smart card no longer signs in.`;
  }
  await deleteAccountSessions(tx, account.id);
  await addAccountUpdate(tx, {
    accountId: account.id,
    action: ACCOUNT_ACTIONS.authenticationChanged,
    comment: `${toCertificate ? 'Smart card' : 'Website token'}${comment === '' ? '' : `: ${comment}`}`,
    username: actor.username,
    active: account.active,
    at,
  });
  return {
    mails: [
      {
        to: account.email,
        subject: 'Your authentication change request was approved',
        text: [`The request to change how the account '${account.username}' signs in was approved.`, howToSignIn, ...withComment(comment)].join('\n'),
      },
    ],
  };
};

const unlockEffect: Effect = async (tx, request, decision, { actor, comment }) => {
  const account = await accountOf(tx, request);
  if (decision === 'approved') {
    await unlockAccount(tx, account.id, { comment: comment === '' ? `Unlock request ${request.id} approved.` : comment, username: actor.username, action: ACCOUNT_ACTIONS.unlocked });
  }
  const text =
    decision === 'approved'
      ? `The account '${account.username}' was unlocked. You may sign in again.`
      : `The request to unlock the account '${account.username}' was denied.`;
  return {
    mails: [{ to: account.email, subject: `Your unlock request was ${decision}`, text: [text, ...withComment(comment)].join('\n') }],
  };
};

/** User group, mailing list and membership requests: the decision and the mail (their effects come with the groups and mailing-list work). */
const decisionOnlyEffect =
  (what: string): Effect =>
  async (tx, request, decision, { comment }) => {
    const account = request.accountId === null ? undefined : await findAccountRecordById(tx, request.accountId);
    const to = account?.email ?? request.email;
    return {
      mails: [
        {
          to,
          subject: `Your ${what} request was ${decision}`,
          text: [`Your ${what} request (${identifierOf(request)}) was ${decision}.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  };

const EFFECTS: Readonly<Record<RequestKind, Effect>> = {
  new: newAccountEffect,
  profilechange: emailChangeEffect,
  authchange: authChangeEffect,
  unlock: unlockEffect,
  usergroup: decisionOnlyEffect('user group'),
  mailinglist: decisionOnlyEffect('mailing list'),
  membership: decisionOnlyEffect('membership'),
};

/** Why a decision cannot be taken on a request in this status (undefined: it can). */
function refusal(kind: RequestKind, status: RequestStatus, decision: Decision): string | undefined {
  if (status === decision) return ADJUDICATION_MESSAGES.alreadyInStatus(status);
  if (!KIND_RULES[kind].decidableFrom.includes(status)) return ADJUDICATION_MESSAGES.notDecidable(status);
  return undefined;
}

/**
 * POST /requests/{kind}/{id}/{decision}: the route has checked ADJUDICATE_{KIND}_REQUEST. The
 * comment's rules (400), then in one transaction: the request locked (404), not one's own (403),
 * decidable from its status (409), then status, update, effect and mail.
 */
export async function decideRequest(
  context: SelfServiceContext,
  actor: Actor,
  kind: RequestKind,
  id: number,
  decision: Decision,
  input: DecisionInput,
): Promise<RequestDetailView> {
  if (!KIND_RULES[kind].decisions.includes(decision)) throw notFound();
  const message = commentRule(kind, decision)(input.comment);
  if (message) throw InvalidInputError.ofFields({ comment: message });
  const comment = (input.comment ?? '').trim();
  let decided: RequestRowRecord | undefined;
  try {
    return await context.db.transaction(async (tx) => {
      const request = await findRequest(tx, kind, id, true);
      if (!request) throw notFound();
      decided = request;
      if (isOwnRequest(actor, request)) throw new ForbiddenError(ADJUDICATION_MESSAGES.ownRequest);
      const refused = refusal(kind, request.status, decision);
      if (refused) throw new ConflictError(refused);
      const at = context.clock.now();
      if (!(await setRequestStatus(tx, id, { status: decision, at, from: request.status, adjudicator: actor.username }))) {
        throw new ConflictError(ADJUDICATION_MESSAGES.notDecidable(request.status));
      }
      await insertRequestUpdate(tx, { requestId: id, status: decision, username: actor.username, comment, createdAt: at });
      const { mails } = await EFFECTS[kind](tx, request, decision, { actor, comment, at, publicUrl: input.publicUrl });
      for (const mail of mails) await enqueueMail(tx, mail, context.clock);
      const after = await findRequest(tx, kind, id);
      if (!after) throw notFound();
      return detailView(tx, actor, after);
    });
  } catch (error) {
    // Two approvals racing for one username, email or card (different requests): the unique indexes decide.
    if (decided && isUniqueViolation(error, 'accounts_username_lower_key')) throw new ConflictError(ADJUDICATION_MESSAGES.usernameTaken(decided.username));
    if (decided && isUniqueViolation(error, 'accounts_email_lower_key')) throw new ConflictError(ADJUDICATION_MESSAGES.emailTaken(decided.email));
    if (isUniqueViolation(error, 'account_certificates_identity_key')) throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    throw error;
  }
}
