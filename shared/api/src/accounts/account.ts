/** The Account (spec section 3) as GET /accounts/{username} answers it, and what the profile forms do with it. */
import { Type, type Static } from 'typebox';
import { closed, nullable } from '../common.js';
import type { ProfileField } from '../rules.js';

/** Who a certificate names, or who issued it. */
export const CertificateName = Type.Object(
  { common_name: Type.String(), organization: Type.String(), organizational_unit: Type.Array(Type.String()), country: Type.String() },
  closed,
);
export type CertificateName = Static<typeof CertificateName>;

export const Certificate = Type.Object(
  {
    issued_to: CertificateName,
    issued_by: CertificateName,
    /** ISO 8601 date-times. */
    valid_from: nullable(Type.String()),
    valid_until: nullable(Type.String()),
    /** Null when unknown. */
    country_of_citizenship: Type.Optional(nullable(Type.String())),
  },
  closed,
);
export type Certificate = Static<typeof Certificate>;

export const Address = Type.Object(
  { street: Type.String(), city: Type.String(), state: Type.String(), zip: Type.String(), country: Type.String() },
  closed,
);
export type Address = Static<typeof Address>;

export const Supervisor = Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String(), phone: Type.String() }, closed);
export type Supervisor = Static<typeof Supervisor>;

/** One entry of an account's update history. */
export const AccountUpdate = Type.Object(
  {
    /** What the change did ('Locked', 'Unlocked', 'Closed' …); '' when the comment says it. */
    action: Type.String(),
    comment: Type.String(),
    created: Type.String(),
    username: Type.String(),
    active: Type.Boolean(),
  },
  closed,
);
export type AccountUpdate = Static<typeof AccountUpdate>;

export const GROUP_ROLES = ['admin', 'team', 'user'] as const;
export const NOTIFICATION_LEVELS = ['high', 'medium', 'low', 'none'] as const;

/** A user group the account belongs to, as GET /accounts/{username} lists it. */
export const AccountGroup = Type.Object(
  {
    user_group: Type.String(),
    name: Type.String(),
    /** The highest of 'admin', 'team' and 'user' held; null when none is. */
    role: nullable(Type.Enum(GROUP_ROLES)),
    notification: Type.Enum(NOTIFICATION_LEVELS),
    /** The additional (special) permission groups held. */
    special: Type.Array(Type.String()),
  },
  closed,
);
export type AccountGroup = Static<typeof AccountGroup>;

export const Account = Type.Object(
  {
    username: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    active: Type.Boolean(),
    closed: Type.Boolean(),
    /** ISO 8601, or null when the account never signed in. */
    last_authenticated: nullable(Type.String()),
    /** Contains 'token' for website-token users, 'certificate' for smart-card users. */
    authentication: Type.Array(Type.String()),
    phone: Type.String(),
    address: Address,
    company: Type.String(),
    project: Type.String(),
    supervisor: Supervisor,
    reason: Type.String(),
    certificate: nullable(Certificate),
    permissions: Type.Array(Type.String()),
    updates: Type.Array(AccountUpdate),
    email_change_pending: Type.Boolean(),
    auth_change_pending: Type.Boolean(),
    groups: Type.Array(AccountGroup),
  },
  closed,
);
export type Account = Static<typeof Account>;

export type AccountStatus = 'Active' | 'Closed' | 'Locked';

/**
 * The one display status of an account, used by every screen and by the server (spec section 4:
 * "active, else closed, else locked"). The database never holds a closed account that is active
 * (migration 0009), so checking closed first gives the spec's answer for every stored account;
 * should such a pair ever arrive anyway, the account is shown Closed, never Active with actions.
 */
export function accountStatus(account: Pick<Account, 'active' | 'closed'>): AccountStatus {
  if (account.closed) return 'Closed';
  return account.active ? 'Active' : 'Locked';
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
