/** What the kind modules share: reading a request's details, the decision mail's comment, the account a request is about. */
import type { RequestStatus } from '@portal/api';
import { ADJUDICATION_MESSAGES } from '../../adjudication-messages.js';
import type { Queryable } from '../../db/database.js';
import { NotFoundError } from '../../errors.js';
import { findAccountRecordById, type AccountRecord } from '../../repositories/account-view.js';
import type { CertificateDetails } from '../../repositories/certificates.js';
import type { RequestRowRecord } from '../../repositories/request-queue.js';
import { certificateNameOf } from '../certificates.js';
import type { RequestKindDefinition } from './registry.js';

/** A details value as text ('' when it is not text). */
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export const requestNotFound = (): NotFoundError => new NotFoundError(ADJUDICATION_MESSAGES.requestNotFound);

/** The adjudicator's comment at the end of a decision mail (nothing when there is none). */
export const withComment = (comment: string): string[] => (comment === '' ? [] : ['', 'Comment from the adjudicator:', comment]);

export function applicantName(request: RequestRowRecord): string {
  return `${request.firstName} ${request.lastName}`.trim() || request.username;
}

/** The account a request is about (kinds about an existing account). */
export async function accountOf(tx: Queryable, request: RequestRowRecord): Promise<AccountRecord> {
  const account = request.accountId === null ? undefined : await findAccountRecordById(tx, request.accountId);
  if (!account) throw requestNotFound();
  return account;
}

const PENDING: readonly RequestStatus[] = ['pending'];

/** The queue of a kind about an existing account: its pending requests are listed and decided. */
export const PENDING_QUEUE: Pick<RequestKindDefinition, 'open' | 'decidableFrom'> = { open: PENDING, decidableFrom: PENDING };

/** A certificate kept on a request (details.certificate) as the detail shows it; null when none is kept. */
export function certificateFields(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  // Requests kept before the card's names were stored hold only its subject and issuer lines.
  const name = (kept: unknown, dn: unknown) => (typeof kept === 'object' && kept !== null ? kept : certificateNameOf(typeof dn === 'string' ? dn : null));
  return {
    issued_to: name(c.issued_to, c.subject),
    issued_by: name(c.issued_by, c.issuer),
    valid_from: c.valid_from ?? null,
    valid_until: c.valid_until ?? null,
    country_of_citizenship: c.country_of_citizenship ?? null,
  };
}

/** A certificate kept on a request (details.certificate) as binding needs it; undefined when none is kept. */
export function keptCertificate(value: unknown): CertificateDetails | undefined {
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

/**
 * The effect of kinds whose change comes with later work (user groups, mailing lists,
 * memberships): the decision is recorded and the requester (the account's address, else the
 * request's) mailed.
 */
export function decisionOnly(what: string, identifier: (request: RequestRowRecord) => string): RequestKindDefinition['decide'] {
  return async (tx, request, decision, { comment }) => {
    const account = request.accountId === null ? undefined : await findAccountRecordById(tx, request.accountId);
    const to = account?.email ?? request.email;
    return {
      mails: [
        {
          to,
          subject: `Your ${what} request was ${decision}`,
          text: [`Your ${what} request (${identifier(request)}) was ${decision}.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  };
}

/** The unique indexes an approval's writes may race another decision for (the names their violations carry). */
export const ACCOUNT_UNIQUE_INDEXES = {
  username: 'accounts_username_lower_key',
  email: 'accounts_email_lower_key',
  certificate: 'account_certificates_identity_key',
} as const;
