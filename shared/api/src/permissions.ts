/**
 * Session permissions of spec section 6, defined once: the server's route guards and the UI
 * both import these names. Each request kind's three come from its entry in the kinds' table
 * (requests/kinds.ts).
 */
import { REQUEST_KIND_INFO, REQUEST_KINDS, type RequestKindKey } from './requests/kinds.js';

type RequestPermission =
  | `LIST_${RequestKindKey}_REQUESTS`
  | `VIEW_${RequestKindKey}_REQUEST`
  | `ADJUDICATE_${RequestKindKey}_REQUEST`;

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
  // Requests: list, view and adjudicate for each kind
  ...REQUEST_KINDS.map((kind) => REQUEST_KIND_INFO[kind].permission).flatMap(
    (stem) => [`LIST_${stem}_REQUESTS`, `VIEW_${stem}_REQUEST`, `ADJUDICATE_${stem}_REQUEST`] as RequestPermission[],
  ),
  // Lowercase capabilities
  'allow-profilechange',
  'allow-authchange',
  'allow-renewal',
] as const satisfies readonly string[];

export type Permission =
  | Exclude<(typeof PERMISSIONS)[number], RequestPermission>
  | RequestPermission;

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** The spec spells permissions in two styles; 'view-auth-change-request' names VIEW_AUTH_CHANGE_REQUEST. */
export function permissionFromKebab(name: string): Permission | undefined {
  const upper = name.trim().toUpperCase().replace(/-/g, '_');
  return isPermission(upper) ? upper : isPermission(name) ? name : undefined;
}
