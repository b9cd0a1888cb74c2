/**
 * Spec section 5's rules for groups, memberships and additional permission groups, with the
 * spec's messages word for word (the portal's own where the spec gives none, marked so). The
 * forms run them field by field; the server runs them again on every call.
 */
import { lengthAtMost, LIMITS } from '../rules.js';
import { composeValidators, required, type Validator } from '../validation.js';
import { isReservedGroup, MAX_GROUP_ID_LENGTH, MAX_PERMISSION_GROUP_LENGTH } from './model.js';

export const GROUP_MESSAGES = {
  idTooShort: 'ID must be at least 2 characters long.',
  /** The portal's own: the spec states the rule, not its message. */
  idCharacters: 'ID must start with a letter and contain only letters, digits and underscores.',
  /** The portal's own. */
  idTooLong: `ID must be at most ${MAX_GROUP_ID_LENGTH} characters long.`,
  nameRequired: 'Please enter a group name.',
  descriptionRequired: 'Please enter a description.',
  requestReasonRequired: 'Please enter a reason for this request.',
  openAccessDoD: 'Open access groups cannot require DoD PKI authentication.',
  prefix: (id: string) => `Special permission groups for this group must be prefixed with ${id}.`,
  /** The portal's own. */
  permissionGroupCharacters: 'Group names may contain only letters, digits, hyphens and underscores.',
  /** The portal's own. */
  permissionGroupTooLong: `Group names must be at most ${MAX_PERMISSION_GROUP_LENGTH} characters long.`,
  reserved: (name: string) => `The group ${name} is reserved and cannot be created.`,
  exists: (name: string) => `The group ${name} already exists and cannot be created.`,
  /** The portal's own: the comma-separated form with nothing in it. */
  permissionGroupRequired: 'Please enter at least one group name.',
  membershipReasonRequired: 'Reason is required.',
  leaveReason: 'Request to leave group.',
  addReason: 'group-admin add',
  accountClosed: (username: string) => `The account for username ${username} is closed.`,
  /** The portal's own: a DoD group's constraint, on its membership form and in the server's refusal. */
  dodOnly: (id: string) => `Members of ${id} must sign in with a smart card (DoD PKI).`,
  /** The portal's own. */
  accountLocked: (username: string) => `The account for username ${username} is locked.`,
} as const;

const GROUP_ID = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Spec section 5, "Group identifier". */
export const groupIdRules: Validator = Object.assign(
  (value: unknown): string | undefined => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (text.length < 2) return GROUP_MESSAGES.idTooShort;
    if (!GROUP_ID.test(text)) return GROUP_MESSAGES.idCharacters;
    if (text.length > MAX_GROUP_ID_LENGTH) return GROUP_MESSAGES.idTooLong;
    return undefined;
  },
  { isRequired: true },
);

export const GROUP_FORM_RULES = {
  name: composeValidators(required(GROUP_MESSAGES.nameRequired), lengthAtMost(LIMITS.text)),
  description: composeValidators(required(GROUP_MESSAGES.descriptionRequired), lengthAtMost(LIMITS.text)),
  // A reason box: 150 (spec section 9; server/docs/self-service.md, "Text limits").
  reason: composeValidators(required(GROUP_MESSAGES.requestReasonRequired), lengthAtMost(LIMITS.reason)),
} as const;

/** Open access with the DoD constraint: the message, else undefined. */
export function openAccessRule(openAccess: boolean, constraint: string): string | undefined {
  return openAccess && constraint === 'DoD' ? GROUP_MESSAGES.openAccessDoD : undefined;
}

const PERMISSION_GROUP = /^[A-Za-z0-9_-]+$/;

/**
 * One additional permission group name for user group `id` (spec section 5): prefixed with the
 * id and a hyphen, letters, digits, hyphens and underscores only, not reserved, not one of
 * `existing` (whatever the letter case).
 */
export function permissionGroupProblem(id: string, name: string, existing: readonly string[]): string | undefined {
  if (!name.startsWith(`${id}-`) || name.length <= id.length + 1) return GROUP_MESSAGES.prefix(id);
  if (!PERMISSION_GROUP.test(name)) return GROUP_MESSAGES.permissionGroupCharacters;
  if (name.length > MAX_PERMISSION_GROUP_LENGTH) return GROUP_MESSAGES.permissionGroupTooLong;
  if (isReservedGroup(id, name)) return GROUP_MESSAGES.reserved(name);
  const lower = name.toLowerCase();
  if (existing.some((group) => group.toLowerCase() === lower)) return GROUP_MESSAGES.exists(name);
  return undefined;
}

/** The comma-separated form: its names (trimmed, empty ones dropped) and the first problem among them. */
export function permissionGroupList(id: string, text: string, existing: readonly string[]): { names: string[]; problem?: string } {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return { names, problem: GROUP_MESSAGES.permissionGroupRequired };
  const seen: string[] = [...existing];
  for (const name of names) {
    const problem = permissionGroupProblem(id, name, seen);
    if (problem) return { names, problem };
    seen.push(name);
  }
  return { names };
}

/** Spec section 5: a new membership needs a reason, an update does not; a reason box of 150 (spec section 9). */
export function membershipReasonRule(isNew: boolean): Validator {
  return isNew ? composeValidators(required(GROUP_MESSAGES.membershipReasonRequired), lengthAtMost(LIMITS.reason)) : lengthAtMost(LIMITS.reason);
}
