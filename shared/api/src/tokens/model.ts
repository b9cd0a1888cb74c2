/**
 * Artifact-repository tokens (spec sections 3, 4, 5 and 9), defined once for the form and the
 * server: the scopes a token may carry ('{groupId}-artifactsRead|Write|Admin'), the levels a
 * member may choose, the expiry arithmetic in seconds, revocability, and the rules with the
 * spec's messages word for word (the portal's own where the spec gives none, marked so).
 */
import { composeValidators, required, type Validator } from '../validation.js';

/** Spec section 9: a token name has at most 1024 characters. */
export const MAX_TOKEN_NAME_LENGTH = 1024;

/** A token's access in one group, lowest first (spec section 3: Read / Write / Admin). */
export const TOKEN_LEVELS = ['read', 'write', 'admin'] as const;
export type TokenLevel = (typeof TOKEN_LEVELS)[number];

const LEVEL_SUFFIX: Readonly<Record<TokenLevel, string>> = { read: 'artifactsRead', write: 'artifactsWrite', admin: 'artifactsAdmin' };

/** The permission string a token carries for a group at a level: 'PORTAL-artifactsWrite'. */
export const tokenScope = (groupId: string, level: TokenLevel): string => `${groupId}-${LEVEL_SUFFIX[level]}`;

/** A scope's group and level, or undefined when it is not a token scope. */
export function scopeParts(scope: string): { groupId: string; level: TokenLevel } | undefined {
  for (const level of TOKEN_LEVELS) {
    const suffix = `-${LEVEL_SUFFIX[level]}`;
    if (scope.endsWith(suffix) && scope.length > suffix.length) return { groupId: scope.slice(0, -suffix.length), level };
  }
  return undefined;
}

/**
 * Spec section 5: the levels offered for a group whose artifacts membership is `held` (the
 * highest held): read always; write only with write or admin rights; admin only with admin.
 */
export function levelsFor(held: TokenLevel): TokenLevel[] {
  return TOKEN_LEVELS.slice(0, TOKEN_LEVELS.indexOf(held) + 1);
}

/** The level an artifacts group name gives in its user group ('PORTAL-artifactsWrite' → write), if it is one. */
export function levelOfGroup(groupId: string, name: string): TokenLevel | undefined {
  return TOKEN_LEVELS.find((level) => tokenScope(groupId, level) === name);
}

/** Whether holding `held` in a group covers a scope of `wanted` there (a higher level covers the lower). */
export const levelCovers = (held: TokenLevel, wanted: TokenLevel): boolean => TOKEN_LEVELS.indexOf(held) >= TOKEN_LEVELS.indexOf(wanted);

export const EXPIRY_UNITS = ['days', 'hours'] as const;
export type ExpiryUnit = (typeof EXPIRY_UNITS)[number];

export const HOUR_SECONDS = 3600;
export const DAY_SECONDS = 24 * HOUR_SECONDS;

/** Spec section 9: days times 24 give hours; hours are converted to seconds. */
export function expirySeconds(amount: number, unit: ExpiryUnit): number {
  const hours = unit === 'days' ? amount * 24 : amount;
  return hours * HOUR_SECONDS;
}

/** Spec section 4: a token is revocable only if its lifetime was at least the threshold (in hours). */
export function isRevocableLifetime(lifetimeSeconds: number, thresholdHours: number): boolean {
  return lifetimeSeconds >= thresholdHours * HOUR_SECONDS;
}

/** Spec section 4: shown EXPIRED when its expiry (epoch seconds; 0 means none) is past. */
export function isExpired(expiry: number, nowMs: number): boolean {
  return expiry !== 0 && expiry * 1000 <= nowMs;
}

export const TOKEN_MESSAGES = {
  nameRequired: 'Token name is required.',
  nameTooLong: 'Token name must be shorter than 1024 characters.',
  groupsRequired: 'Please select at least one group.',
  expiryRange: (max: number) => `Please enter a whole number between 1 and ${max}.`,
  notRevocableWarning: (hours: number) =>
    `Tokens with an expiry shorter than ${hours} ${hours === 1 ? 'hour' : 'hours'} cannot be revoked.`,
  noArtifactoryAccount:
    'You need an Artifactory account to create access tokens. Please create a Jira case in the WEB project for assistance.',
  noTokens: 'You have no existing tokens.',
  noGroups: 'There are no groups for which you may create a token.',
  /** The portal's own: a token that is not the caller's, or not there. */
  notFound: 'Token not found.',
  /** The portal's own: DELETE on a token issued for less than the revocable threshold. */
  notRevocable: (hours: number) =>
    `This token cannot be revoked: it was issued for less than ${hours} ${hours === 1 ? 'hour' : 'hours'}. It stops working when it expires.`,
  /** The portal's own: a scope the caller does not hold (or the group does not use the artifact repository). */
  scopeNotAllowed: (scope: string) => `You may not create a token with ${scope}.`,
  /** The portal's own: the same group twice. */
  groupTwice: (groupId: string) => `Choose one access level for ${groupId}.`,
  /** The portal's own: the artifact repository is not among the supported services. */
  unsupported: 'The artifact repository is not available on this platform.',
} as const;

/** The form's amount: digits only (no space, sign or exponent), a whole number from 1 to max (spec section 5). */
export function expiryAmountRule(max: number): Validator {
  return Object.assign(
    (value: unknown): string | undefined => {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
      if (!/^\d+$/.test(text)) return TOKEN_MESSAGES.expiryRange(max);
      const amount = Number(text);
      return amount >= 1 && amount <= max ? undefined : TOKEN_MESSAGES.expiryRange(max);
    },
    { isRequired: true },
  );
}

export const tokenNameRule: Validator = composeValidators(required(TOKEN_MESSAGES.nameRequired), (value) =>
  typeof value === 'string' && value.length > MAX_TOKEN_NAME_LENGTH ? TOKEN_MESSAGES.nameTooLong : undefined,
);

/**
 * The server's check of an expiry in seconds: a whole number of hours or of days, from 1 to max
 * in that unit (the form sends one of them); the amount's message otherwise.
 */
export function expirySecondsProblem(seconds: number, max: number): string | undefined {
  const inRange = (amount: number) => Number.isInteger(amount) && amount >= 1 && amount <= max;
  return inRange(seconds / HOUR_SECONDS) || inRange(seconds / DAY_SECONDS) ? undefined : TOKEN_MESSAGES.expiryRange(max);
}
