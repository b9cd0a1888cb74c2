/**
 * Membership requests (kind 'membership', MEMBERSHIP): joining or leaving groups of a user group
 * (details: user_group, join, leave, updateIntent). Decided by the group's admins
 * (ADJUDICATE_MEMBERSHIP_REQUEST in that group) or site-wide; approval applies the lists in the
 * decision's transaction (the group row locked), with the history entry and the member's mail.
 */
import { groupPermissions, membershipParts } from '@portal/api';
import { membershipRequestKind } from '@portal/api/request-kinds/membership';
import { ConflictError } from '../../../errors.js';
import { GROUP_SERVICE_MESSAGES } from '../../../group-messages.js';
import { findHeldGroups, findUserGroup } from '../../../repositories/groups.js';
import type { RequestRowRecord } from '../../../repositories/request-queue.js';
import { applyMembership, checkedLists, checkJoiner, membershipMail } from '../../memberships.js';
import { accountOf, PENDING_QUEUE, str } from '../common.js';
import { registerRequestKind } from '../registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.user_group);
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

registerRequestKind(membershipRequestKind, {
  ...PENDING_QUEUE,
  identifier,
  detailFields: ({ details }) => ({
    user_group: str(details.user_group),
    join: list(details.join),
    leave: list(details.leave),
    updateIntent: str(details.updateIntent),
  }),
  async access(db, actor, request) {
    const held = await findHeldGroups(db, actor.id, identifier(request));
    const { role } = membershipParts(identifier(request), held.map((h) => h.groupName), []);
    const permissions = groupPermissions(role, actor.permissions);
    return { view: permissions.includes('VIEW_MEMBERSHIP_REQUEST'), adjudicate: permissions.includes('ADJUDICATE_MEMBERSHIP_REQUEST') };
  },
  async decide(tx, request, decision, { actor, comment, at }) {
    const group = await findUserGroup(tx, identifier(request), true);
    if (!group) throw new ConflictError(GROUP_SERVICE_MESSAGES.groupGone(identifier(request)));
    const account = await accountOf(tx, request);
    const intent = str(request.details.updateIntent);
    if (decision !== 'approved') return { mails: [membershipMail(group, account, { decision: 'denied', intent }, undefined, comment)] };
    // Checked again: the account, the group's constraint or its additional groups may have changed since.
    const lists = await checkedLists(tx, group, { join: list(request.details.join), leave: list(request.details.leave) });
    checkJoiner(group, account, lists.join);
    const applied = await applyMembership(tx, group, account, lists, { username: actor.username, reason: request.reason, at });
    return { mails: [membershipMail(group, account, { decision: 'approved', intent }, applied, comment)] };
  },
});
