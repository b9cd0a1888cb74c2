/**
 * Mailing lists (spec sections 3, 4, 5 and 9), defined once for the forms and the server: the
 * posting permissions, the held-message actions, the request form's rules with the spec's
 * messages word for word, and the final address of a requested list.
 */
import { lengthAtMost, LIMITS } from '../rules.js';
import { composeValidators, required, type Validator } from '../validation.js';
import { ROLE_ORDER, roleGroup } from '../groups/model.js';

/**
 * The group names whose holders are eligible for a list of `userGroupId` with `permissionGroup`:
 * a role group takes its role and the roles above it (a list for PORTAL-user reaches PORTAL's
 * team and admins too); any other group only itself.
 */
export function eligibleGroups(userGroupId: string, permissionGroup: string): string[] {
  const index = ROLE_ORDER.findIndex((role) => roleGroup(userGroupId, role) === permissionGroup);
  return index < 0 ? [permissionGroup] : ROLE_ORDER.slice(0, index + 1).map((role) => roleGroup(userGroupId, role));
}

/** Spec section 9: who may post. closed: subscribers; open: anyone; announce: moderators. */
export const POSTING_PERMISSIONS = ['closed', 'open', 'announce'] as const;
export type PostingPermission = (typeof POSTING_PERMISSIONS)[number];

/** Spec section 3: what a moderator does with a held message; defer leaves it held. */
export const HELD_ACTIONS = ['defer', 'discard', 'accept', 'always-accept'] as const;
export type HeldAction = (typeof HELD_ACTIONS)[number];

/** Spec section 9: held-message cards taller than this start collapsed. */
export const HELD_COLLAPSE_HEIGHT = 135;

export const MAILING_LIST_MESSAGES = {
  nameRequired: 'Please enter a list name',
  invalidAddress: (address: string) => `${address} must be a valid email`,
  descriptionRequired: 'Please enter a description',
  reasonRequired: 'Please enter a reason',
  submitted: 'Mailing list request submitted.',
  created: (list: string) => `New mailing list ${list} created.`,
  denied: (list: string) => `Mailing list request for ${list} denied.`,
  groupListsFailed: (id: string) => `Could not retrieve mailing lists for group ${id}.`,
  sessionExpired: 'Your session has expired. Please refresh to log in again.',
  heldFailed: "We could not retrieve this mailing list's held messages.",
  noLists: 'There are no mailing lists associated with your groups.',
  noGroupLists: 'There are no mailing lists associated with this group.',
  noHeld: 'There are currently no messages in this queue.',
  noEligible: 'This mailing list has no eligible users.',
  /** The portal's own. */
  listNotFound: 'Mailing list not found.',
  /** The portal's own: a list (or a pending request for it) with this address exists. */
  listExists: (address: string) => `The mailing list ${address} already exists or is requested.`,
  /** The portal's own: the permission group is not one of the group's. */
  permissionGroup: (group: string) => `The permission group must be one of ${group}'s groups.`,
  /** The portal's own: the member is not eligible (not in the list's permission group). */
  notEligible: (email: string) => `${email} is not eligible for this list.`,
} as const;

/** Letters, digits, hyphens and underscores, in dot-separated segments (spec section 5). */
const LIST_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** The local part of an address (RFC 5321 section 4.5.3.1.1). */
const MAX_LOCAL_PART = 64;

/** Spec section 5: the final address, the lower-cased group id, a hyphen and the name at the domain. */
export function mailingListAddress(groupId: string, name: string, domain: string): string {
  return `${groupId.toLowerCase()}-${name.trim().toLowerCase()}@${domain.toLowerCase()}`;
}

/**
 * The list name's problem, if any: required, then the address rule. The message names the final
 * address (mailingListAddress), the one the form's preview shows, so the two never differ.
 */
export function listNameProblem(groupId: string, name: string, domain: string): string | undefined {
  const text = name.trim();
  if (text === '') return MAILING_LIST_MESSAGES.nameRequired;
  const local = `${groupId}-${text}`;
  if (!LIST_NAME.test(text) || local.length > MAX_LOCAL_PART) return MAILING_LIST_MESSAGES.invalidAddress(mailingListAddress(groupId, text, domain));
  return undefined;
}

export const MAILING_LIST_FORM_RULES = {
  description: composeValidators(required(MAILING_LIST_MESSAGES.descriptionRequired), lengthAtMost(LIMITS.text)),
  reason: composeValidators(required(MAILING_LIST_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason)),
} as const satisfies Record<string, Validator>;

/** Spec section 5: the form's defaults. */
export const mailingListDefaults = (groupId: string) =>
  ({ permission_group: `${groupId}-team`, posting_permissions: 'closed' as PostingPermission, automatic_subscription: true }) as const;
