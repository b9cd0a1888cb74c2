/**
 * User groups (server/docs/groups.md): who sees a group and what they may do in it, the groups
 * list, a group's details and their update, its additional permission groups, and the request
 * for a new group. Every call checks the caller's permission in the group here: the routes can
 * only say that a signed-in caller is needed, since the group comes from the call.
 */
import {
  fixedGroups,
  GROUP_DOMAIN,
  GROUP_FORM_RULES,
  groupIdRules,
  groupPermissions,
  hiddenVisibility,
  isHidden,
  membershipParts,
  openAccessRule,
  permissionGroupProblem,
  SITE_APPROVED,
  supportedServices,
  type AccountSearchPage,
  type GroupMailingList,
  type GroupPermission,
  type GroupRole,
  type MemberConstraint,
  type Service,
  type UserGroup,
  type UserGroupRequestBody,
  type UserGroupSummary,
  type UserGroupUpdate,
} from '@portal/api';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { GROUP_ACTIONS, GROUP_SERVICE_MESSAGES } from '../group-messages.js';
import { MESSAGES } from '../messages.js';
import { addAccountUpdate } from '../repositories/accounts.js';
import {
  countMembers,
  deletePermissionGroupRow,
  findDirectMemberAuthentication,
  findHeldGroups,
  findPendingMembershipGroups,
  findPermissionGroups,
  findUserGroup,
  GROUP_UNIQUE_INDEXES,
  insertPermissionGroup,
  listUserGroupRows,
  removeAllMemberships,
  updateUserGroupRow,
  userGroupIdTaken,
  type UserGroupRecord,
} from '../repositories/groups.js';
import { listMailingListsOfGroups } from '../repositories/mailing-lists.js';
import { insertRequest, insertRequestUpdate } from '../repositories/requests.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import { SELF_SERVICE_COMMENTS } from '../self-service-messages.js';
import type { Actor, SelfServiceContext } from './account-access.js';
import { searchAccounts } from './account-admin.js';
import { enqueueMail } from './mail.js';

/** What the caller is in a group: their role (direct or nested), their permissions there, whether they see it. */
export interface GroupAccess {
  readonly group: UserGroupRecord;
  readonly role: GroupRole | null;
  /** Holds any of its names. */
  readonly member: boolean;
  readonly permissions: readonly GroupPermission[];
}

/** Spec section 6: a hidden group is seen by its admins, its members (the portal's choice) and holders of HIDDEN_GROUP. */
function sees(access: Omit<GroupAccess, 'group'>, group: UserGroupRecord): boolean {
  return !isHidden(group) || access.member || access.permissions.includes('HIDDEN_GROUP');
}

export async function accessTo(db: Queryable, actor: Actor, group: UserGroupRecord): Promise<GroupAccess> {
  const held = await findHeldGroups(db, actor.id, group.id);
  const { role } = membershipParts(group.id, held.map((h) => h.groupName), []);
  return { group, role, member: held.length > 0, permissions: groupPermissions(role, actor.permissions) };
}

/** The group as the caller may see it; 404 'User group not found.' when it does not exist or is hidden from them. */
export async function visibleGroup(db: Queryable, actor: Actor, id: string, forUpdate = false): Promise<GroupAccess> {
  const group = await findUserGroup(db, id, forUpdate);
  if (!group) throw new NotFoundError(GROUP_SERVICE_MESSAGES.groupNotFound);
  const access = await accessTo(db, actor, group);
  if (!sees(access, group)) throw new NotFoundError(GROUP_SERVICE_MESSAGES.groupNotFound);
  return access;
}

/** 403 'Forbidden' unless the caller holds the permission in the group. */
export function requireInGroup(access: GroupAccess, permission: GroupPermission): void {
  if (!access.permissions.includes(permission)) throw new ForbiddenError(MESSAGES.forbidden);
}

/** `pending`: the caller has a membership request waiting in the group. */
function summary(access: GroupAccess, pending: boolean): UserGroupSummary {
  const { group } = access;
  return {
    id: group.id,
    user_group: group.id,
    name: group.name,
    description: group.description,
    domain: GROUP_DOMAIN,
    open_access: group.open_access,
    visibility: group.visibility,
    memberConstraint: group.member_constraint,
    services: [...group.services],
    member: access.member,
    role: access.role,
    permissions: [...access.permissions],
    pending_request: pending,
  };
}

async function groupView(db: Queryable, actor: Actor, access: GroupAccess): Promise<UserGroup> {
  const groups = await findPermissionGroups(db, access.group.id);
  const fixed = new Set(fixedGroups(access.group.id));
  const pending = (await findPendingMembershipGroups(db, actor.id, access.group.id)).has(access.group.id);
  return { ...summary(access, pending), groups: groups.filter((g) => !fixed.has(g)), member_count: await countMembers(db, access.group.id) };
}

/** GET /usergroups: every group the caller sees, with their role and permissions in it. */
export async function listUserGroups(context: SelfServiceContext, actor: Actor): Promise<{ rows: UserGroupSummary[] }> {
  const [groups, held, pending] = [
    await listUserGroupRows(context.db),
    await findHeldGroups(context.db, actor.id),
    await findPendingMembershipGroups(context.db, actor.id),
  ];
  const rows: UserGroupSummary[] = [];
  for (const group of groups) {
    const names = held.filter((h) => h.userGroupId === group.id).map((h) => h.groupName);
    const { role } = membershipParts(group.id, names, []);
    const access: GroupAccess = { group, role, member: names.length > 0, permissions: groupPermissions(role, actor.permissions) };
    if (sees(access, group)) rows.push(summary(access, pending.has(group.id)));
  }
  return { rows };
}

/** GET /usergroups/{id}. */
export async function getUserGroup(context: SelfServiceContext, actor: Actor, id: string): Promise<UserGroup> {
  return groupView(context.db, actor, await visibleGroup(context.db, actor, id));
}

/** GET /usergroups/{id}/mailinglists: the group's mailing lists. */
export async function listGroupMailingLists(context: SelfServiceContext, actor: Actor, id: string): Promise<{ rows: GroupMailingList[] }> {
  const access = await visibleGroup(context.db, actor, id);
  requireInGroup(access, 'VIEW_MEMBERSHIP');
  const lists = await listMailingListsOfGroups(context.db, [access.group.id]);
  return {
    rows: lists.map((l) => ({
      id: l.id,
      description: l.description,
      permission_group: l.permissionGroup,
      posting_permissions: l.postingPermissions,
      automatic_subscription: l.automaticSubscription,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The group form: a new group's request and an update

interface GroupFields {
  name: string;
  description: string;
  open_access: boolean;
  member_constraint: MemberConstraint;
  visibility: string;
  services: Service[];
}

/**
 * The form's rules (spec section 5) and who may choose what (section 4): the visibility only with
 * HIDDEN_GROUP, the constraint only with smart-card support, services only those configured.
 */
function groupFields(context: SelfServiceContext, actor: Actor, id: string, body: UserGroupUpdate, current?: UserGroupRecord): GroupFields {
  const errors: Record<string, string> = {};
  const name = body.name.trim();
  const description = body.description.trim();
  const nameProblem = GROUP_FORM_RULES.name(name);
  if (nameProblem) errors.name = nameProblem;
  const descriptionProblem = GROUP_FORM_RULES.description(description);
  if (descriptionProblem) errors.description = descriptionProblem;
  const constraint = body.memberConstraint ?? current?.member_constraint ?? 'None';
  if (constraint === 'DoD' && !context.config.cac_support && current?.member_constraint !== 'DoD') {
    errors.memberConstraint = GROUP_SERVICE_MESSAGES.constraintNeedsSmartCards;
  }
  const openAccessProblem = openAccessRule(body.open_access, constraint);
  if (openAccessProblem) errors.open_access = openAccessProblem;
  const visibility = body.visibility ?? current?.visibility ?? SITE_APPROVED;
  if (visibility !== SITE_APPROVED && visibility !== hiddenVisibility(id)) errors.visibility = GROUP_SERVICE_MESSAGES.visibilityInvalid(id);
  else if (visibility !== (current?.visibility ?? SITE_APPROVED) && !actor.permissions.includes('HIDDEN_GROUP')) {
    errors.visibility = GROUP_SERVICE_MESSAGES.hiddenNeedsPermission;
  }
  const supported = supportedServices(context.config);
  const kept = current?.services ?? [];
  const services = [...new Set([...(body.services ?? kept)])];
  const dropped = kept.find((service) => !services.includes(service));
  if (dropped) errors.services = GROUP_SERVICE_MESSAGES.servicesKept(dropped);
  const unsupported = services.find((s) => !supported.includes(s) && !kept.includes(s));
  if (unsupported && !dropped) errors.services = GROUP_SERVICE_MESSAGES.serviceNotOffered(unsupported);
  if (Object.keys(errors).length > 0) throw InvalidInputError.ofFields(errors);
  return { name, description, open_access: body.open_access, member_constraint: constraint, visibility, services };
}

/**
 * POST /requests/usergroup: a pending user group request with its first update. The identifier
 * must be free (whatever the letter case) and not asked for by a pending request (the partial
 * unique index holds when two arrive at once); the additional groups follow section 5's rules.
 */
export async function requestUserGroup(context: SelfServiceContext, actor: Actor, body: UserGroupRequestBody): Promise<void> {
  const id = body.user_group.trim();
  const errors: Record<string, string> = {};
  const idProblem = groupIdRules(id);
  if (idProblem) errors.user_group = idProblem;
  const reasonProblem = GROUP_FORM_RULES.reason(body.reason.trim());
  if (reasonProblem) errors.reason = reasonProblem;
  const groups: string[] = [];
  for (const name of (body.groups ?? []).map((g) => g.trim()).filter(Boolean)) {
    const problem = idProblem ? undefined : permissionGroupProblem(id, name, groups);
    if (problem) {
      errors.groups = problem;
      break;
    }
    groups.push(name);
  }
  let fields: GroupFields | undefined;
  try {
    fields = groupFields(context, actor, id, body);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    Object.assign(errors, error.fields);
  }
  if (Object.keys(errors).length > 0 || !fields) throw InvalidInputError.ofFields(errors);
  if (await userGroupIdTaken(context.db, id)) throw InvalidInputError.ofFields({ user_group: GROUP_SERVICE_MESSAGES.idTaken(id) });
  const at = context.clock.now();
  const pending = new ConflictError(GROUP_SERVICE_MESSAGES.userGroupPending(id));
  try {
    await context.db.transaction(async (tx) => {
      const requestId = await insertRequest(tx, {
        kind: 'usergroup',
        status: 'pending',
        accountId: actor.id,
        username: actor.username,
        email: '',
        reason: body.reason.trim(),
        details: {
          user_group: id,
          name: fields.name,
          description: fields.description,
          open_access: fields.open_access,
          memberConstraint: fields.member_constraint,
          visibility: fields.visibility,
          services: fields.services,
          groups,
        },
        createdAt: at,
      });
      await insertRequestUpdate(tx, { requestId, status: 'pending', username: actor.username, comment: SELF_SERVICE_COMMENTS.requestSubmitted, createdAt: at });
    });
  } catch (error) {
    if (isUniqueViolation(error, GROUP_UNIQUE_INDEXES.pendingUserGroup)) throw pending;
    throw error;
  }
}

/**
 * POST /usergroups/{id} (EDIT_USER_GROUP in the group). Choosing DoD removes, in the same
 * transaction, every direct member whose account does not sign in with a smart card, with a
 * history entry and a mail each; it is refused when that would leave the group without an admin.
 */
export async function updateUserGroup(context: SelfServiceContext, actor: Actor, id: string, body: UserGroupUpdate): Promise<UserGroup> {
  return context.db.transaction(async (tx) => {
    const access = await visibleGroup(tx, actor, id, true);
    requireInGroup(access, 'EDIT_USER_GROUP');
    const { group } = access;
    const fields = groupFields(context, actor, group.id, body, group);
    const at = context.clock.now();
    await updateUserGroupRow(tx, { id: group.id, ...fields });
    if (fields.member_constraint === 'DoD' && group.member_constraint !== 'DoD') {
      const members = await findDirectMemberAuthentication(tx, group.id);
      const removed = members.filter((m) => !m.certificate);
      const keptAdmins = await adminsAfterRemoving(tx, group.id, new Set(removed.map((m) => m.accountId)));
      if (keptAdmins === 0 && removed.length > 0) throw new ConflictError(GROUP_SERVICE_MESSAGES.lastAdmin(group.id));
      for (const member of removed) {
        const names = await removeAllMemberships(tx, group.id, member.accountId);
        await addAccountUpdate(tx, {
          accountId: member.accountId,
          username: actor.username,
          active: true,
          action: GROUP_ACTIONS.removedByConstraint,
          comment: `${group.id} now requires DoD PKI authentication; left ${names.join(', ')}.`,
          at,
        });
        await enqueueMail(
          tx,
          {
            to: member.email,
            subject: `You were removed from ${group.id}`,
            text: `${group.id} (${fields.name}) now requires DoD PKI authentication (a smart card), and your account signs in with a website token, so you are no longer a member. Ask for a change of authentication type, then ask to join again.`,
          },
          context.clock,
        );
      }
    }
    return groupView(tx, actor, await accessTo(tx, actor, { ...group, ...fields }));
  });
}

/** How many admins the group keeps once these accounts lose their direct memberships (nested admins count). */
async function adminsAfterRemoving(db: Queryable, id: string, removed: ReadonlySet<number>): Promise<number> {
  const { rows } = await db.query<{ account_id: string | number; direct: boolean }>(
    `with recursive implied(member_group, group_name) as (
       select member_group, group_name from group_nestings where user_group_id = $1
       union
       select n.member_group, i.group_name from group_nestings n join implied i on n.group_name = i.member_group
     )
     select account_id, true as direct from group_memberships where group_name = $2
     union all
     select m.account_id, m.user_group_id = $1 as direct from group_memberships m join implied i on i.member_group = m.group_name where i.group_name = $2`,
    [id, `${id}-admin`],
  );
  // An account removed from this group's names keeps only what it holds through other user groups.
  return new Set(rows.filter((r) => !(removed.has(Number(r.account_id)) && r.direct)).map((r) => Number(r.account_id))).size;
}

// ---------------------------------------------------------------------------------------------
// Additional permission groups

/** POST /usergroups/{id}/permission-group/{group} (EDIT_USER_GROUP in the group). */
export async function addPermissionGroup(context: SelfServiceContext, actor: Actor, id: string, name: string): Promise<UserGroup> {
  try {
    return await context.db.transaction(async (tx) => {
      const access = await visibleGroup(tx, actor, id, true);
      requireInGroup(access, 'EDIT_USER_GROUP');
      const existing = await findPermissionGroups(tx, access.group.id);
      const problem = permissionGroupProblem(access.group.id, name.trim(), existing);
      if (problem) throw InvalidInputError.ofFields({ group: problem });
      await insertPermissionGroup(tx, access.group.id, name.trim(), context.clock.now());
      return groupView(tx, actor, access);
    });
  } catch (error) {
    if (isUniqueViolation(error, GROUP_UNIQUE_INDEXES.permissionGroupLower) || isUniqueViolation(error, GROUP_UNIQUE_INDEXES.permissionGroupsPkey)) {
      throw InvalidInputError.ofFields({ group: `The group ${name.trim()} already exists and cannot be created.` });
    }
    throw error;
  }
}

/** DELETE /usergroups/{id}/permission-group/{group} (EDIT_USER_GROUP in the group): its members lose it. */
export async function deletePermissionGroup(context: SelfServiceContext, actor: Actor, id: string, name: string): Promise<UserGroup> {
  return context.db.transaction(async (tx) => {
    const access = await visibleGroup(tx, actor, id, true);
    requireInGroup(access, 'EDIT_USER_GROUP');
    if (!(await deletePermissionGroupRow(tx, access.group.id, name))) throw new NotFoundError(GROUP_SERVICE_MESSAGES.permissionGroupNotFound(name));
    return groupView(tx, actor, access);
  });
}

/** POST /usergroups/{id}/candidates (ADJUDICATE_MEMBERSHIP_REQUEST in the group): the account search, for adding a user. */
export async function searchGroupCandidates(
  context: SelfServiceContext,
  actor: Actor,
  id: string,
  search: { term?: string | undefined; start_index?: number | undefined; max_results?: number | undefined },
): Promise<AccountSearchPage> {
  requireInGroup(await visibleGroup(context.db, actor, id), 'ADJUDICATE_MEMBERSHIP_REQUEST');
  return searchAccounts(context, { term: search.term, starts_with: true, start_index: search.start_index, max_results: search.max_results });
}
