/** What the group screens say (spec sections 5, 8 and 9, word for word; the portal's own marked so). */
import { CONSTRAINT_TEXT, SYNC_NOTICES } from '@portal/api';

export const GROUP_TEXT = {
  userGroupRequestSent: 'User group request sent.',
  changesSaved: 'Changes to group saved.',
  joinSent: (group: string) => `Request to join ${group} sent.`,
  removed: (user: string, group: string) => `${user} has been removed from ${group}`,
  left: (group: string) => `You left the ${group} user group.`,
  /** The portal's own: a change applied at once (no group admin needed). */
  membershipSaved: (group: string) => `Membership of ${group} changed.`,
  /** The portal's own: a change that waits for a group admin. */
  changeSent: (group: string) => `Membership change for ${group} sent.`,
  /** The portal's own: an admin's add. */
  added: (user: string, group: string) => `${user} has been added to ${group}.`,
  /** The portal's own: after a group admin's decision. */
  membershipDecided: (user: string, group: string, decision: 'approved' | 'denied') => `Membership request of ${user} for ${group} ${decision}.`,
  permissionGroupAdded: 'Permission group added.',
  permissionGroupDeleted: 'Permission group deleted.',
  couldNotAdd: 'Could not add permission group.',
  couldNotDelete: 'Could not delete permission group.',
  noRequests: 'No pending membership requests',
  noMembers: 'No members in group',
  /** The portal's own: on the page of a group whose requests the caller decides without VIEW_MEMBERSHIP. */
  membersNotShown: "The group's members are listed for its admins and team.",
  /** The portal's own: the members' filters match nobody (the group has members). */
  noMatchingMembers: 'No member matches the filter.',
  noMailingLists: 'There are no mailing lists associated with this group.',
  mailingListsFailed: (id: string) => `Could not retrieve mailing lists for group ${id}.`,
  sessionExpired: 'Your session has expired. Please refresh to log in again.',
  notAMember: 'You are not a member of any available group.',
  /** The portal's own: the caller's membership request waits for the group's admins. */
  requestPending: 'Request pending',
  requestPendingNote: (group: string) => `Your membership request for ${group} is waiting for the group's admins: you may send another once it is decided.`,
  memberOfAll: 'You are a member of all available groups',
  syncNotice: SYNC_NOTICES.membership,
  /** Spec section 8's constraint texts. */
  constraint: CONSTRAINT_TEXT,
  dodWarning: 'Choosing DoD removes the members who do not sign in with a smart card (DoD PKI) from this group.',
  /** The portal's own: the DoD warning of the new group form. */
  dodRequestWarning: 'Members of a DoD group must sign in with a smart card (DoD PKI); others cannot join it.',
} as const;
