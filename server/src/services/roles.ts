/**
 * Platform roles → session permissions (spec section 6), written once. A session's permissions
 * are the union over the roles its account holds, computed at every request from the database,
 * so a role change applies at once. The table in docs/architecture.md, "Roles and permissions", documents this mapping.
 */
import { permissionsWith, type Permission, type QueueRole } from '@portal/api';
import type { PlatformRole } from '../repositories/accounts.js';
import { registeredKinds } from './request-kinds/registry.js';

/** The queues' permissions of the registered request kinds the role works (each kind's declaration says who works it). */
function queuesWorkedBy(role: QueueRole & PlatformRole): Permission[] {
  return registeredKinds()
    .filter(({ declaration }) => declaration.workedBy.includes(role))
    .flatMap(({ permissions }) => [permissions.list, permissions.view, permissions.adjudicate]);
}

/** Every permission, the registered request kinds' included, in the order of spec section 6. */
export function allPermissions(): Permission[] {
  return permissionsWith(registeredKinds().map(({ declaration }) => declaration));
}

const USER: readonly Permission[] = ['VIEW_SUBSCRIPTIONS', 'EDIT_SUBSCRIPTIONS', 'CHANGE_EMAIL', 'allow-profilechange', 'allow-authchange'];

/** Granted with annual certification (a later issue), never by a role. */
const NEVER_BY_ROLE: readonly Permission[] = ['RENEW_ACCOUNT', 'allow-renewal'];

/**
 * A role's permissions. Read when asked, not when this module loads: the request kinds' modules
 * register their kinds (and so their queues' permissions) after it.
 */
export function rolePermissions(role: PlatformRole): readonly Permission[] {
  return table().byRole[role];
}

/** The roles' permissions and every permission, as of the kinds registered (built again when one more is). */
let built: { kinds: readonly unknown[]; all: readonly Permission[]; byRole: Readonly<Record<PlatformRole, readonly Permission[]>> } | undefined;
function table(): NonNullable<typeof built> {
  const kinds = registeredKinds();
  if (built?.kinds !== kinds) built = { kinds, all: allPermissions(), byRole: rolesPermissions() };
  return built;
}

const rolesPermissions = (): Readonly<Record<PlatformRole, readonly Permission[]>> => ({
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
  'site-admin': allPermissions().filter((p) => !NEVER_BY_ROLE.includes(p)),
});

/** The union of the roles' permissions, in the order of spec section 6. Unknown role names give nothing. */
export function permissionsOf(roles: readonly string[]): Permission[] {
  const { all, byRole } = table();
  const granted = new Set<Permission>();
  for (const role of roles) {
    for (const permission of Object.hasOwn(byRole, role) ? byRole[role as PlatformRole] : []) granted.add(permission);
  }
  return all.filter((p) => granted.has(p));
}
