/**
 * Accounts (spec sections 3 and 7; server/docs/self-service.md, "Signed in"):
 * GET /accounts/{username} and POST /accounts/{username} with the profile.
 */
import type { ProfileField } from '../rules.js';
import { apiRequest } from './client.js';

type Options = { readonly signal?: AbortSignal };

/** Who a certificate names, or who issued it. */
export interface CertificateName {
  readonly common_name: string;
  readonly organization: string;
  readonly organizational_unit: readonly string[];
  readonly country: string;
}

export interface Certificate {
  readonly issued_to: CertificateName;
  readonly issued_by: CertificateName;
  /** ISO 8601 date-times. */
  readonly valid_from: string | null;
  readonly valid_until: string | null;
  /** Absent or null when unknown. */
  readonly country_of_citizenship?: string | null;
}

export interface Address {
  readonly street: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly country: string;
}

export interface Supervisor {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone: string;
}

/** One entry of an account's update history. */
export interface AccountUpdate {
  /** What the change did ('Locked', 'Unlocked', 'Closed' …); '' or absent when the comment says it. */
  readonly action?: string;
  readonly comment: string;
  readonly created: string;
  readonly username: string;
  readonly active: boolean;
}

/** A user group the account belongs to, as GET /accounts/{username} lists it. */
export interface AccountGroup {
  readonly user_group: string;
  readonly name: string;
  /** The highest of 'admin', 'team' and 'user' held; null when none is. */
  readonly role: string | null;
  /** 'high', 'medium', 'low' or 'none'. */
  readonly notification: string;
  /** The additional (special) permission groups held. */
  readonly special: readonly string[];
}

export interface Account {
  readonly username: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly active: boolean;
  readonly closed: boolean;
  /** ISO 8601, or null when the account never signed in. */
  readonly last_authenticated: string | null;
  /** Contains 'token' for website-token users, 'certificate' for smart-card users. */
  readonly authentication: readonly string[];
  readonly phone: string;
  readonly address: Address;
  readonly company: string;
  readonly project: string;
  readonly supervisor: Supervisor;
  readonly reason: string;
  readonly certificate: Certificate | null;
  readonly permissions?: readonly string[];
  readonly updates: readonly AccountUpdate[];
  readonly email_change_pending: boolean;
  readonly auth_change_pending: boolean;
  readonly groups: readonly AccountGroup[];
}

export type AccountStatus = 'Active' | 'Closed' | 'Locked';

/** Spec section 4: the display status is active, else closed, else locked. */
export function accountStatus(account: Pick<Account, 'active' | 'closed'>): AccountStatus {
  if (account.active) return 'Active';
  return account.closed ? 'Closed' : 'Locked';
}

/** The profile as POST /accounts/{username} takes it (every field required). */
export interface ProfileUpdate {
  readonly phone: string;
  readonly address: Address;
  readonly company: string;
  readonly project: string;
  readonly supervisor: Supervisor;
  readonly reason: string;
}

/** The profile's fields by their flat names (the names of `fields` in an error, and of the form). */
export type ProfileValues = Record<ProfileField, string>;

const text = (value: string | null | undefined) => value ?? '';

/** An account's profile by flat field names (missing parts as ''). */
export function profileValues(account: Account): ProfileValues {
  return {
    phone: text(account.phone),
    street: text(account.address?.street),
    city: text(account.address?.city),
    state: text(account.address?.state),
    zip: text(account.address?.zip),
    country: text(account.address?.country),
    company: text(account.company),
    project: text(account.project),
    supervisor_first_name: text(account.supervisor?.first_name),
    supervisor_last_name: text(account.supervisor?.last_name),
    supervisor_email: text(account.supervisor?.email),
    supervisor_phone: text(account.supervisor?.phone),
    reason: text(account.reason),
  };
}

/** The body of POST /accounts/{username} from flat values, trimmed. */
export function profileUpdate(values: Partial<ProfileValues>): ProfileUpdate {
  const t = (value: string | undefined) => (value ?? '').trim();
  return {
    phone: t(values.phone),
    address: { street: t(values.street), city: t(values.city), state: t(values.state), zip: t(values.zip), country: t(values.country) },
    company: t(values.company),
    project: t(values.project),
    supervisor: {
      first_name: t(values.supervisor_first_name),
      last_name: t(values.supervisor_last_name),
      email: t(values.supervisor_email),
      phone: t(values.supervisor_phone),
    },
    reason: t(values.reason),
  };
}

const accountPath = (username: string) => `/accounts/${encodeURIComponent(username)}`;

/** GET /accounts/{username}: 403 for someone else's without VIEW_ACCOUNT, 404 for an unknown one. */
export function getAccount(username: string, options: Options = {}): Promise<Account> {
  return apiRequest<Account>('GET', accountPath(username), options);
}

/** POST /accounts/{username} with the profile; answers the updated account. */
export function updateAccount(username: string, profile: ProfileUpdate, options: Options = {}): Promise<Account> {
  return apiRequest<Account>('POST', accountPath(username), { ...options, body: profile });
}
