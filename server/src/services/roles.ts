/**
 * Platform roles → session permissions (spec section 6), written once. A session's permissions
 * are the union over the roles its account holds, computed at every request from the database,
 * so a role change applies at once. The table in docs/architecture.md, "Roles and permissions", documents this mapping.
 */
import { adjudicatePermission, listPermission, PERMISSIONS, REQUEST_KINDS, requestKindInfo, viewPermission, type Permission, type QueueRole } from '@portal/api';
import type { PlatformRole } from '../repositories/accounts.js';

/** The queues' permissions of the request kinds the role works (@portal/api's kinds' table says who works each). */
function queuesWorkedBy(role: QueueRole & PlatformRole): Permission[] {
  return REQUEST_KINDS.filter((kind) => requestKindInfo(kind).workedBy.includes(role)).flatMap((kind) => [
    listPermission(kind),
    viewPermission(kind),
    adjudicatePermission(kind),
  ]);
}

const USER: readonly Permission[] = ['VIEW_SUBSCRIPTIONS', 'EDIT_SUBSCRIPTIONS', 'CHANGE_EMAIL', 'allow-profilechange', 'allow-authchange'];

/** Granted with annual certification (a later issue), never by a role. */
const NEVER_BY_ROLE: readonly Permission[] = ['RENEW_ACCOUNT', 'allow-renewal'];

export const ROLE_PERMISSIONS: Readonly<Record<PlatformRole, readonly Permission[]>> = {
  user: USER,
  'help-desk': [
    ...USER,
    'SEARCH_ACCOUNTS',
    'VIEW_ACCOUNT',
    'LOCK_ACCOUNT',
    'UNLOCK_ACCOUNT',
    'VIEW_REQUEST_SUMMARY',
    ...queuesWorkedBy('help-desk'),
    'SUBMIT_SURROGATE_REQUEST',
  ],
  adjudicator: [
    ...USER,
    'SEARCH_ACCOUNTS',
    'VIEW_ACCOUNT',
    'VIEW_REQUEST_SUMMARY',
    'EDIT_ACCOUNT',
    ...queuesWorkedBy('adjudicator'),
  ],
  'site-admin': PERMISSIONS.filter((p) => !NEVER_BY_ROLE.includes(p)),
};

/** The union of the roles' permissions, in the order of PERMISSIONS. Unknown role names give nothing. */
export function permissionsOf(roles: readonly string[]): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles) {
    for (const permission of ROLE_PERMISSIONS[role as PlatformRole] ?? []) granted.add(permission);
  }
  return PERMISSIONS.filter((p) => granted.has(p));
}
