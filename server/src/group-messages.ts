/**
 * The API's texts about groups and memberships (server/docs/groups.md). The forms' messages (group
 * identifier, names, permission groups, membership reason) are @portal/api's GROUP_MESSAGES.
 */
import { GROUP_MESSAGES } from '@portal/api';

export const GROUP_SERVICE_MESSAGES = {
  groupNotFound: 'User group not found.',
  accountNotFound: 'Account not found.',
  idTaken: (id: string) => `The group ${id} already exists.`,
  userGroupPending: (id: string) => `A request for the group ${id} is already pending.`,
  hiddenNeedsPermission: 'Only holders of the hidden group permission may hide a group.',
  constraintNeedsSmartCards: 'Smart cards are not supported on this portal, so a group cannot require DoD PKI authentication.',
  visibilityInvalid: (id: string) => `The visibility must be site-approved or ${id}-admin.`,
  serviceNotOffered: (service: string) => `The service ${service} is not offered on this portal.`,
  servicesKept: (service: string) => `The group already uses ${service}; a service cannot be removed.`,
  notAGroup: (name: string, id: string) => `The group ${name} is not a group of ${id}.`,
  oneRole: 'Choose one role.',
  oneNotification: 'Choose one notification level.',
  oneServiceGroup: (service: string) => `Choose one ${service} group.`,
  joinAndLeave: (name: string) => `The group ${name} cannot be both joined and left.`,
  nothingToChange: 'Nothing to change: choose a role, a notification level or a group.',
  wrongIntent: 'This kind of membership request is not sent here.',
  alreadyMember: (username: string, id: string) => `${username} is already a member of ${id}.`,
  notMember: (username: string, id: string) => `${username} is not a member of ${id}.`,
  membershipPending: (username: string, id: string) => `A membership request for ${username} in ${id} is already pending.`,
  lastAdmin: (id: string) => `${id} must keep at least one admin: make another member an admin first.`,
  dodOnly: GROUP_MESSAGES.dodOnly,
  ownAdd: 'You cannot add yourself to a group: send a membership request.',
  permissionGroupNotFound: (name: string) => `The group ${name} does not exist.`,
  groupGone: (name: string) => `The group ${name} no longer exists.`,
} as const;

/** What a group change wrote in an account's history (account_updates.action). */
export const GROUP_ACTIONS = {
  membershipChanged: 'Membership changed',
  groupCreated: 'User group created',
  removedByConstraint: 'Removed from group',
} as const;
