/**
 * User group requests (kind 'usergroup', USER_GROUP): a new user group (details: user_group,
 * name, description, open_access, memberConstraint, visibility, services, groups). Approval
 * creates the group with its additional permission groups and makes the requester its admin, in
 * the decision's transaction with the requester's history entry and mail; denial mails only.
 */
import { roleGroup, type Service } from '@portal/api';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';
import { ConflictError } from '../../../errors.js';
import { GROUP_ACTIONS, GROUP_SERVICE_MESSAGES } from '../../../group-messages.js';
import { addAccountUpdate } from '../../../repositories/accounts.js';
import { addMembership, GROUP_UNIQUE_INDEXES, insertPermissionGroup, insertUserGroup, userGroupIdTaken } from '../../../repositories/groups.js';
import type { RequestRowRecord } from '../../../repositories/request-queue.js';
import { isUniqueViolation } from '../../../repositories/unique-violation.js';
import { accountOf, PENDING_QUEUE, str, withComment } from '../common.js';
import { registerRequestKind } from '../registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.user_group);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

registerRequestKind(userGroupRequestKind, {
  ...PENDING_QUEUE,
  identifier,
  detailFields: ({ details }) => ({
    user_group: str(details.user_group),
    name: str(details.name),
    description: str(details.description),
    open_access: details.open_access === true,
    memberConstraint: str(details.memberConstraint) || 'None',
    visibility: str(details.visibility) || 'site-approved',
    services: strings(details.services),
    groups: strings(details.groups),
  }),
  async decide(tx, request, decision, { actor, comment, at, publicUrl }) {
    const id = identifier(request);
    const account = await accountOf(tx, request);
    if (decision !== 'approved') {
      return {
        mails: [
          {
            to: account.email,
            subject: `Your user group request was ${decision}`,
            text: [`Your request for the user group ${id} was ${decision}.`, ...withComment(comment)].join('\n'),
          },
        ],
      };
    }
    if (await userGroupIdTaken(tx, id)) throw new ConflictError(GROUP_SERVICE_MESSAGES.idTaken(id));
    // The requester becomes its admin: a DoD group's admin must sign in with a smart card too.
    if (request.details.memberConstraint === 'DoD' && !account.authentication.includes('certificate')) {
      throw new ConflictError(GROUP_SERVICE_MESSAGES.dodOnly(id));
    }
    const d = request.details;
    await insertUserGroup(tx, {
      id,
      name: str(d.name),
      description: str(d.description),
      open_access: d.open_access === true,
      visibility: str(d.visibility) || 'site-approved',
      member_constraint: d.memberConstraint === 'DoD' ? 'DoD' : 'None',
      services: strings(d.services) as Service[],
    });
    for (const group of strings(d.groups)) await insertPermissionGroup(tx, id, group, at);
    await addMembership(tx, id, account.id, roleGroup(id, 'admin'), at);
    await addAccountUpdate(tx, {
      accountId: account.id,
      username: actor.username,
      active: account.active,
      action: GROUP_ACTIONS.groupCreated,
      comment: `Created user group ${id} from request ${request.id}; admin of ${id}.`,
      at,
    });
    const link = `${publicUrl}/group-administration/${encodeURIComponent(id)}`;
    return {
      mails: [
        {
          to: account.email,
          subject: `New user group ${id} created`,
          text: [`New user group ${id} created. You are its admin.`, '', `Administer it at ${link}`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  },
  raceConflict(error, request) {
    const id = identifier(request);
    return isUniqueViolation(error, GROUP_UNIQUE_INDEXES.idLower) || isUniqueViolation(error, GROUP_UNIQUE_INDEXES.userGroupsPkey)
      ? new ConflictError(GROUP_SERVICE_MESSAGES.idTaken(id))
      : undefined;
  },
});
