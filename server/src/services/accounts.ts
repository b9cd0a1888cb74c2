/**
 * The Account of spec section 3 as the profile and account administration screens read it
 * (GET /accounts/{username}), the profile update (POST /accounts/{username}) and the annual
 * renewal (POST /requests/renewal). Rules: server/docs/self-service.md, "Signed in" and "Renewal".
 */
import { LIMITS, lengthAtMost, PROFILE_RULES, RULE_MESSAGES, validateFields } from '@portal/api';
import { composeValidators, required } from '@portal/api';
import { fixedGroups, membershipParts, type Account, type AccountGroup, type Certificate, type ProfileUpdate } from '@portal/api';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { addAccountUpdate, setLastCertified, updateProfile as writeProfile, type ProfileFields } from '../repositories/accounts.js';
import {
  findAccountUpdates,
  findLatestCertificate,
  findMemberships,
  findPendingSelfRequestKinds,
  type AccountRecord,
  type BoundCertificateRecord,
  type MembershipRecord,
} from '../repositories/account-view.js';
import type { Queryable } from '../db/database.js';
import { SELF_SERVICE_COMMENTS, SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import { isOwner, targetAccount, type Actor, type SelfServiceContext } from './account-access.js';
import { certificateNameOf } from './certificates.js';
import { permissionsOf } from './roles.js';

// ---------------------------------------------------------------------------------------------
// The Account

// The views are @portal/api's (accounts/account.ts): the schema the route answers with is the type
// the service builds, so the two cannot drift apart.

export function certificateView(certificate: BoundCertificateRecord): Certificate {
  return {
    issued_to: certificateNameOf(certificate.subject),
    issued_by: certificateNameOf(certificate.issuer),
    valid_from: certificate.validFrom?.toISOString() ?? null,
    valid_until: certificate.validUntil?.toISOString() ?? null,
    // Not recorded (the binding keeps no certificate extensions); the screen shows 'Unknown'.
    country_of_citizenship: null,
  };
}

/** The account's memberships by user group, each with its derived role, notification level and other groups (spec section 6). */
export function accountGroups(memberships: readonly MembershipRecord[]): AccountGroup[] {
  const byGroup = new Map<string, { name: string; names: Set<string> }>();
  for (const m of memberships) {
    const entry = byGroup.get(m.userGroupId) ?? { name: m.userGroupName, names: new Set<string>() };
    entry.names.add(m.groupName);
    byGroup.set(m.userGroupId, entry);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, { name, names }]) => {
      const { role, notification } = membershipParts(id, [...names], []);
      const fixed = new Set(fixedGroups(id));
      return { user_group: id, name, role, notification, special: [...names].filter((n) => !fixed.has(n)).sort() };
    });
}

const text = (value: string | null): string => value ?? '';

/** The Account of an account record, with its history, certificate, groups and pending requests. */
export async function accountView(db: Queryable, account: AccountRecord): Promise<Account> {
  // One after the other: `db` may be a transaction's single connection.
  const updates = await findAccountUpdates(db, account.id);
  const certificate = await findLatestCertificate(db, account.id);
  const memberships = await findMemberships(db, account.id);
  const pending = await findPendingSelfRequestKinds(db, account.id);
  return {
    username: account.username,
    first_name: text(account.first_name),
    last_name: text(account.last_name),
    email: account.email,
    active: account.active,
    closed: account.closed,
    last_authenticated: account.last_authenticated?.toISOString() ?? null,
    authentication: account.authentication,
    phone: text(account.phone),
    address: {
      street: text(account.street),
      city: text(account.city),
      state: text(account.state),
      zip: text(account.zip),
      country: text(account.country),
    },
    company: text(account.company),
    project: text(account.project),
    supervisor: {
      first_name: text(account.supervisor_first_name),
      last_name: text(account.supervisor_last_name),
      email: text(account.supervisor_email),
      phone: text(account.supervisor_phone),
    },
    reason: text(account.reason),
    certificate: certificate ? certificateView(certificate) : null,
    permissions: permissionsOf(account.roles),
    updates: updates.map((u) => ({ action: u.action, comment: u.comment, created: u.created.toISOString(), username: u.username, active: u.active })),
    email_change_pending: pending.includes('profilechange'),
    auth_change_pending: pending.includes('authchange'),
    groups: accountGroups(memberships),
  };
}

/** GET /accounts/{username}: the owner, or VIEW_ACCOUNT. */
export async function getAccount(context: SelfServiceContext, actor: Actor, username: string): Promise<Account> {
  const { account } = await targetAccount(context.db, actor, username, { own: null, any: 'VIEW_ACCOUNT' });
  return accountView(context.db, account);
}

// ---------------------------------------------------------------------------------------------
// The profile

/** The flat field names of shared/src/rules.ts (PROFILE_RULES). */
export function flattenProfile(body: ProfileUpdate): Partial<Record<keyof ProfileFields, string>> {
  return {
    phone: body.phone,
    street: body.address?.street,
    city: body.address?.city,
    state: body.address?.state,
    zip: body.address?.zip,
    country: body.address?.country,
    company: body.company,
    project: body.project,
    supervisor_first_name: body.supervisor?.first_name,
    supervisor_last_name: body.supervisor?.last_name,
    supervisor_email: body.supervisor?.email,
    supervisor_phone: body.supervisor?.phone,
    reason: body.reason,
  };
}

/**
 * POST /accounts/{username}: the owner with allow-profilechange, or EDIT_ACCOUNT. Every field is
 * required (spec section 5); 400 with the failing fields, nothing stored. The reason for the
 * account is at most 150 (a reason box), except a stored reason sent back unchanged. The values are stored
 * trimmed, with an update 'Profile updated.' by the caller.
 */
export async function updateProfile(context: SelfServiceContext, actor: Actor, username: string, body: ProfileUpdate): Promise<Account> {
  const { account } = await targetAccount(context.db, actor, username, { own: 'allow-profilechange', any: 'EDIT_ACCOUNT' });
  const flat = flattenProfile(body);
  const errors = validateFields(PROFILE_RULES, flat);
  // The reason for the account is a reason box (150): one stored before that limit may be kept as it is, not changed.
  if (errors.reason !== undefined && (flat.reason ?? '').trim() === (account.reason ?? '') && (account.reason ?? '') !== '') delete errors.reason;
  if (Object.keys(errors).length > 0) throw InvalidInputError.ofFields(errors);
  const profile = Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, (v ?? '').trim()])) as unknown as ProfileFields;
  return context.db.transaction(async (tx) => {
    if (!(await writeProfile(tx, account.id, profile))) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
    await addAccountUpdate(tx, { accountId: account.id, comment: SELF_SERVICE_COMMENTS.profileUpdated, username: actor.username, active: account.active });
    return accountView(tx, { ...account, ...profile });
  });
}

// ---------------------------------------------------------------------------------------------
// Renewal

export const renewalReasonRule = composeValidators(required(RULE_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason));

/**
 * POST /requests/renewal (RENEW_ACCOUNT, which only a session that must renew carries): the
 * caller's own account only (else 403). The account is certified now; the update history records
 * the reason ('Certifying' from the screen).
 */
export async function renewAccount(context: SelfServiceContext, actor: Actor, body: { username: string; reason: string }): Promise<void> {
  if (!isOwner(actor, body.username)) throw new ForbiddenError(MESSAGES.forbidden);
  const message = renewalReasonRule(body.reason);
  if (message) throw InvalidInputError.ofFields({ reason: message });
  const reason = body.reason.trim();
  await context.db.transaction(async (tx) => {
    if (!(await setLastCertified(tx, actor.id, context.clock.now()))) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
    await addAccountUpdate(tx, { accountId: actor.id, comment: SELF_SERVICE_COMMENTS.renewed(reason), username: actor.username, active: true });
  });
}
