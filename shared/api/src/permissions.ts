/**
 * Session permissions of spec section 6, defined once: the server's route guards and the UI
 * both import these names. Each request kind brings its three (its file in requests/kinds/).
 */
import type { RequestKindDeclaration, RequestKindKey } from './requests/kinds.js';

type RequestPermission =
  | `LIST_${RequestKindKey}_REQUESTS`
  | `VIEW_${RequestKindKey}_REQUEST`
  | `ADJUDICATE_${RequestKindKey}_REQUEST`;

/** The permissions of spec section 6 that no request kind brings, in its order. */
export const PERMISSIONS = [
  // Account
  'VIEW_ACCOUNT',
  'EDIT_ACCOUNT',
  'LOCK_ACCOUNT',
  'UNLOCK_ACCOUNT',
  'SEARCH_ACCOUNTS',
  'CHANGE_EMAIL',
  'RENEW_ACCOUNT',
  // Subscriptions
  'VIEW_SUBSCRIPTIONS',
  'EDIT_SUBSCRIPTIONS',
  // Others
  'SUBMIT_SURROGATE_REQUEST',
  'VIEW_REQUEST_SUMMARY',
  'HIDDEN_GROUP',
  'EDIT_USER_GROUP',
  'VIEW_MEMBERSHIP',
  'SUBMIT_MAILING_LIST_REQUEST',
  // Federation operations (not in the spec): publish-time pins, previews and the pin history
  'MANAGE_REMOTES',
  // Provisioning (not in the spec): the targets' state, retries, reconciles and their history
  'MANAGE_PROVISIONING',
  // (here: each request kind's list, view and adjudicate, permissionsWith)
  // Lowercase capabilities
  'allow-profilechange',
  'allow-authchange',
  'allow-renewal',
] as const satisfies readonly string[];

const CAPABILITIES = 3;

/**
 * Every permission, in the order of spec section 6: PERMISSIONS with each kind's list, view and
 * adjudicate (in the kinds' order) before the lowercase capabilities.
 */
export function permissionsWith(kinds: readonly RequestKindDeclaration[]): Permission[] {
  const requests = kinds.flatMap(({ permission: stem }) => [`LIST_${stem}_REQUESTS`, `VIEW_${stem}_REQUEST`, `ADJUDICATE_${stem}_REQUEST`] as Permission[]);
  return [...PERMISSIONS.slice(0, -CAPABILITIES), ...requests, ...PERMISSIONS.slice(-CAPABILITIES)];
}

/** A request kind's permission, by its shape (the server checks its routes' against the kinds it registered). */
const REQUEST_PERMISSION = /^(LIST_[A-Z][A-Z_]*_REQUESTS|(VIEW|ADJUDICATE)_[A-Z][A-Z_]*_REQUEST)$/;

export type Permission = (typeof PERMISSIONS)[number] | RequestPermission;

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && ((PERMISSIONS as readonly string[]).includes(value) || REQUEST_PERMISSION.test(value));
}

/** The spec spells permissions in two styles; 'view-auth-change-request' names VIEW_AUTH_CHANGE_REQUEST. */
export function permissionFromKebab(name: string): Permission | undefined {
  const upper = name.trim().toUpperCase().replace(/-/g, '_');
  return isPermission(upper) ? upper : isPermission(name) ? name : undefined;
}
