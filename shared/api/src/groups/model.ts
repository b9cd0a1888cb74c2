/**
 * The group model of spec sections 3, 5 and 6, once, for the server and the screens: the names
 * of a user group's groups (role, notification, service and additional permission groups), a
 * member's role, notification level and special permissions derived from the names held, the
 * join and leave lists a membership change sends, the `groups` query parameter, and what a
 * caller may do in a group. Nothing here imports React, antd or the server.
 */
import { SERVICES, type Service } from '../config.js';
import type { Permission } from '../permissions.js';
import type { GROUP_ROLES, NOTIFICATION_LEVELS } from '../accounts/account.js';

export type GroupRole = (typeof GROUP_ROLES)[number];
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** Spec section 5: highest first. */
export const ROLE_ORDER: readonly GroupRole[] = ['admin', 'team', 'user'];
export const NOTIFICATION_ORDER: readonly NotificationLevel[] = ['high', 'medium', 'low', 'none'];

/** Spec section 9. */
export const GROUP_DOMAIN = 'TRMC';
export const SITE_APPROVED = 'site-approved';
export const MEMBER_CONSTRAINTS = ['None', 'DoD'] as const;
export type MemberConstraint = (typeof MEMBER_CONSTRAINTS)[number];
/** Spec section 9: the show-more flag when a group has more additional permission groups than this. */
export const SHOW_MORE_ABOVE = 6;
/** The longest group identifier (the spec gives none; see server/docs/groups.md). */
export const MAX_GROUP_ID_LENGTH = 32;
/** The longest additional permission group name (the spec gives none; see server/docs/groups.md). */
export const MAX_PERMISSION_GROUP_LENGTH = 64;

/** Spec section 8's constraint texts: what a group's membership constraint means. */
export const CONSTRAINT_TEXT: Readonly<Record<MemberConstraint, string>> = {
  None: 'No authentication requirements.',
  DoD: 'US DoD PKI authentication is required to be a member.',
};

/**
 * How a visibility reads on every screen (a group's page and a request for a new group alike):
 * 'Site approved', or hidden with the group that sees it.
 */
export const visibilityText = (visibility: string): string => (visibility === SITE_APPROVED ? 'Site approved' : `Hidden (${visibility})`);

/** The group a hidden group is visible to: its admins ('{id}-admin'). */
export const hiddenVisibility = (id: string): string => `${id}-admin`;
export const isHidden = (group: { readonly id: string; readonly visibility: string }): boolean => group.visibility !== SITE_APPROVED;

export const roleGroup = (id: string, role: GroupRole): string => `${id}-${role}`;
/** 'none' has no group. */
export const notificationGroup = (id: string, level: Exclude<NotificationLevel, 'none'>): string => `${id}-notification-${level}`;

/** The fixed groups of every user group (filtered from its additional groups, spec section 9). */
export function fixedGroups(id: string): string[] {
  return [...ROLE_ORDER.map((role) => roleGroup(id, role)), ...(['high', 'medium', 'low'] as const).map((level) => notificationGroup(id, level))];
}

/**
 * Spec section 6: the groups each service gives a user group, lowest access first (a member holds
 * at most one per service). A service's admin group is the id, the service and 'Admin'.
 */
export const SERVICE_GROUP_SUFFIXES: Readonly<Record<Service, readonly string[]>> = {
  artifacts: ['artifactsRead', 'artifactsWrite', 'artifactsAdmin'],
  bitbucket: ['bitbucketRead', 'bitbucketWrite', 'bitbucketAdmin'],
  confluence: ['confluenceAdmin'],
  jenkins: ['jenkins', 'jenkinsAdmin'],
  jira: ['jiraSprintManager', 'jiraAdmin'],
  jsm: ['jsmUser', 'jsmTeam', 'jsmAdmin'],
  sonarqube: ['sonarqube', 'sonarqubeAdmin'],
  repository: ['repositoryRead', 'repositoryWrite', 'repositoryAdmin'],
};

/** A service's groups in a user group ('PORTAL-artifactsRead' …), lowest access first. */
export const serviceGroups = (id: string, service: Service): string[] => SERVICE_GROUP_SUFFIXES[service].map((suffix) => `${id}-${suffix}`);

/** The service a name is a service group of in this user group, if it is one (whatever the letter case). */
export function serviceOfGroup(id: string, name: string): Service | undefined {
  const lower = name.toLowerCase();
  return SERVICES.find((service) => serviceGroups(id, service).some((group) => group.toLowerCase() === lower));
}

/** Fixed groups and every service's groups: never created as additional permission groups (case-insensitive). */
export function isReservedGroup(id: string, name: string): boolean {
  const lower = name.toLowerCase();
  return fixedGroups(id).some((group) => group.toLowerCase() === lower) || serviceOfGroup(id, name) !== undefined;
}

/** What a set of group names held in a user group means (spec sections 3 and 6). */
export interface MembershipParts {
  /** The highest role held; null when none is. */
  readonly role: GroupRole | null;
  readonly notification: NotificationLevel;
  /** Per service the group uses, the service group held (the highest), else null. */
  readonly services: Partial<Record<Service, string | null>>;
  /** Additional (special) permission groups: neither fixed nor a service group. */
  readonly special: string[];
}

export function membershipParts(id: string, names: readonly string[], services: readonly Service[] = SERVICES): MembershipParts {
  const held = new Set(names);
  const role = ROLE_ORDER.find((r) => held.has(roleGroup(id, r))) ?? null;
  const notification = NOTIFICATION_ORDER.find((level) => level !== 'none' && held.has(notificationGroup(id, level))) ?? 'none';
  const perService: Partial<Record<Service, string | null>> = {};
  for (const service of services) perService[service] = [...serviceGroups(id, service)].reverse().find((group) => held.has(group)) ?? null;
  const special = [...held].filter((name) => name.startsWith(`${id}-`) && !isReservedGroup(id, name)).sort();
  return { role, notification, services: perService, special };
}

/** What a member asks to hold: a role (null: none), a notification level, the additional groups ticked, a group per service. */
export interface MembershipChoice {
  readonly role: GroupRole | null;
  readonly notification: NotificationLevel;
  readonly special: readonly string[];
  readonly services: Partial<Record<Service, string | null>>;
}

export interface JoinLeave {
  readonly join: string[];
  readonly leave: string[];
}

/**
 * Spec section 5, "Join and leave lists": a changed role joins the new role and leaves the old; a
 * changed notification joins it, or leaves the old when set to none; ticked additional groups
 * join, an unticked held one leaves; a per-service change joins the new and leaves the old.
 */
export function joinLeave(id: string, current: MembershipParts, choice: MembershipChoice): JoinLeave {
  const join: string[] = [];
  const leave: string[] = [];
  if (choice.role !== current.role) {
    if (choice.role !== null) join.push(roleGroup(id, choice.role));
    if (current.role !== null) leave.push(roleGroup(id, current.role));
  }
  if (choice.notification !== current.notification) {
    if (choice.notification !== 'none') join.push(notificationGroup(id, choice.notification));
    if (current.notification !== 'none') leave.push(notificationGroup(id, current.notification));
  }
  for (const group of choice.special) if (!current.special.includes(group)) join.push(group);
  for (const group of current.special) if (!choice.special.includes(group)) leave.push(group);
  for (const [service, wanted] of Object.entries(choice.services) as [Service, string | null][]) {
    const held = current.services[service] ?? null;
    if (wanted === held) continue;
    if (wanted !== null) join.push(wanted);
    if (held !== null) leave.push(held);
  }
  return { join, leave };
}

/**
 * Spec section 5, "Query parameter groups": the names of a comma-separated list matched to a
 * role, a notification level or an additional group of this user group; unknown names ignored;
 * the highest role and notification win. Undefined parts were not asked for.
 */
export function preselection(
  id: string,
  param: string | null | undefined,
  additional: readonly string[],
): { role?: GroupRole; notification?: Exclude<NotificationLevel, 'none'>; special: string[] } {
  const names = new Set((param ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const role = ROLE_ORDER.find((r) => names.has(roleGroup(id, r)));
  const notification = (['high', 'medium', 'low'] as const).find((level) => names.has(notificationGroup(id, level)));
  const special = additional.filter((group) => names.has(group));
  return { ...(role ? { role } : {}), ...(notification ? { notification } : {}), special };
}

// ---------------------------------------------------------------------------------------------
// What a caller may do in a group

/** The permissions a user group's `permissions` list may hold (spec section 6, "Rules"). */
export const GROUP_PERMISSIONS = [
  'VIEW_MEMBERSHIP',
  'EDIT_USER_GROUP',
  'LIST_USER_GROUP_REQUESTS',
  'VIEW_ACCOUNT',
  'LIST_MEMBERSHIP_REQUESTS',
  'VIEW_MEMBERSHIP_REQUEST',
  'ADJUDICATE_MEMBERSHIP_REQUEST',
  'SUBMIT_MAILING_LIST_REQUEST',
  'SUBMIT_SURROGATE_REQUEST',
  'HIDDEN_GROUP',
] as const satisfies readonly Permission[];
export type GroupPermission = (typeof GROUP_PERMISSIONS)[number];

/**
 * What a role in a group grants in that group (server/docs/groups.md): an admin runs the group
 * (its details, its additional groups, its members and their requests, its mailing lists); a
 * team member sees its members and requests; a user only belongs.
 */
export const GROUP_ROLE_PERMISSIONS: Readonly<Record<GroupRole, readonly GroupPermission[]>> = {
  admin: [
    'VIEW_MEMBERSHIP',
    'EDIT_USER_GROUP',
    'LIST_MEMBERSHIP_REQUESTS',
    'VIEW_MEMBERSHIP_REQUEST',
    'ADJUDICATE_MEMBERSHIP_REQUEST',
    'SUBMIT_MAILING_LIST_REQUEST',
    'SUBMIT_SURROGATE_REQUEST',
  ],
  team: ['VIEW_MEMBERSHIP', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST'],
  user: [],
};

/** The caller's permissions in a group: their role's there, and the site permissions that reach every group. */
export function groupPermissions(role: GroupRole | null, sitePermissions: readonly string[]): GroupPermission[] {
  const granted = new Set<GroupPermission>(role ? GROUP_ROLE_PERMISSIONS[role] : []);
  for (const permission of GROUP_PERMISSIONS) if (sitePermissions.includes(permission)) granted.add(permission);
  return GROUP_PERMISSIONS.filter((p) => granted.has(p));
}
