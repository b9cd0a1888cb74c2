/**
 * The user group requests' queue (spec sections 2 and 3, "User Group Requests"): its kind is this
 * remote's, so are its list and its details, served by @portal/shared/requests' pages. A chunk of
 * its own: /groups does not carry it.
 */
import { CONSTRAINT_TEXT, serviceNames, visibilityText, type MemberConstraint } from '@portal/api';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';
import { APPROVE_OR_DENY, multiline, queueInfo, requestDetailPage, requester, requestListPage, yesNo, type KindConfig } from '@portal/shared/requests';

/** Spec section 8's success feedback, word for word. */
export const USER_GROUP_FEEDBACK = {
  approved: (group: string) => `New user group ${group} created.`,
  denied: (group: string) => `User group request for ${group} denied.`,
} as const;

export const USER_GROUP_QUEUE: KindConfig<'usergroup'> = {
  ...queueInfo(userGroupRequestKind),
  identifierLabel: 'Group',
  showUsername: false,
  buttons: APPROVE_OR_DENY,
  fields: (request) => [
    { key: 'group', label: 'Group ID', children: request.user_group },
    { key: 'name', label: 'Group name', children: request.name },
    { key: 'description', label: 'Description', children: multiline(request.description) },
    { key: 'open-access', label: 'Open access', children: yesNo(request.open_access) },
    // In the group page's words (group administration), so that both read alike.
    { key: 'constraint', label: 'Membership constraint', children: CONSTRAINT_TEXT[request.memberConstraint as MemberConstraint] ?? request.memberConstraint },
    { key: 'visibility', label: 'Visibility', children: visibilityText(request.visibility) },
    { key: 'services', label: 'Services', children: serviceNames(request.services ?? []) },
    {
      key: 'groups',
      label: 'Additional permission groups',
      children: request.groups && request.groups.length > 0 ? request.groups.join(', ') : 'None',
    },
    { key: 'requester', label: 'Requested by', children: requester(request) },
    { key: 'reason', label: 'Reason', children: multiline(request.reason) },
  ],
  feedback: (decision, request) => (decision === 'approved' ? USER_GROUP_FEEDBACK.approved(request.user_group) : USER_GROUP_FEEDBACK.denied(request.user_group)),
  returnTo: 'list',
};

export const UserGroupRequestsPage = requestListPage(USER_GROUP_QUEUE);
export const UserGroupRequestPage = requestDetailPage(USER_GROUP_QUEUE);
