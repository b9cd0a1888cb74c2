/** Answers of the fake API for this remote's tests (never part of a bundle). */
import type { AccountSearchRow, RequestRow } from '@portal/api';
import type { AuthChangeRequestDetail } from '@portal/api/request-kinds/auth-change';
import type { NewAccountRequestDetail } from '@portal/api/request-kinds/new-account';
import type { EmailChangeRequestDetail } from '@portal/api/request-kinds/profile-change';
import type { UnlockRequestDetail } from '@portal/api/request-kinds/unlock';
import { SAMPLE_REQUEST, sampleAccount } from '@portal/shared/testing';

export function sampleRow(overrides: Partial<RequestRow> = {}): RequestRow {
  return {
    id: 12,
    kind: 'new',
    identifier: 'jane.doe',
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.test',
    username: 'jane.doe',
    status: 'pending',
    created: '2026-03-03T16:05:00',
    updated: '2026-03-04T09:30:00',
    ...overrides,
  };
}

/** `count` rows with ids from `first`. */
export const sampleRows = (count: number, first = 1, overrides: Partial<RequestRow> = {}): RequestRow[] =>
  Array.from({ length: count }, (_, i) => sampleRow({ id: first + i, identifier: `user${first + i}`, ...overrides }));

const base = SAMPLE_REQUEST;

export function newAccountRequest(overrides: Partial<NewAccountRequestDetail> = {}): NewAccountRequestDetail {
  return {
    ...base,
    kind: 'new',
    phone: '555-123-4567',
    address: { street: '1 Main St', city: 'Springfield', state: 'VA', zip: '22150', country: 'USA' },
    company: 'ACME',
    project: 'Portal',
    supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@example.test', phone: '555-765-4321' },
    cac_eligible: false,
    certificate: null,
    decisions: ['approved', 'denied', 'incomplete'],
    ...overrides,
  } as NewAccountRequestDetail;
}

export function emailChangeRequest(overrides: Partial<EmailChangeRequestDetail> = {}): EmailChangeRequestDetail {
  return {
    ...base,
    kind: 'profilechange',
    email: 'jane@new.example.test',
    previous_email: 'jane.doe@example.test',
    reason: 'Moved to a new team.',
    account: sampleAccount(),
    ...overrides,
  } as EmailChangeRequestDetail;
}

export function authChangeRequest(overrides: Partial<AuthChangeRequestDetail> = {}): AuthChangeRequestDetail {
  return {
    ...base,
    kind: 'authchange',
    authentication: ['token'],
    certificate: null,
    sponsor_email: 'sponsor@example.mil',
    reason: 'Lost my card. [GOVT SPONSOR: sponsor@example.mil]',
    account: sampleAccount({ authentication: ['certificate'] }),
    ...overrides,
  } as AuthChangeRequestDetail;
}

export function unlockRequest(overrides: Partial<UnlockRequestDetail> = {}): UnlockRequestDetail {
  return { ...base, kind: 'unlock', reason: 'Forgot my token.', account: sampleAccount({ active: false }), ...overrides } as UnlockRequestDetail;
}

export function searchRow(overrides: Partial<AccountSearchRow> = {}): AccountSearchRow {
  return { username: 'jane.doe', first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.test', active: true, closed: false, ...overrides };
}
