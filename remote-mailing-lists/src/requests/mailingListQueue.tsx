/**
 * The mailing list requests' queue (spec sections 2 and 3, "Mailing List Requests"): its kind is
 * this remote's, so are its list and its details, served by @portal/shared/requests' pages. A
 * chunk of its own: the list pages do not carry it.
 */
import { MAILING_LIST_MESSAGES } from '@portal/api';
import { mailingListRequestKind } from '@portal/api/request-kinds/mailing-list';
import { APPROVE_OR_DENY, multiline, queueInfo, requestDetailPage, requester, requestListPage, type KindConfig } from '@portal/shared/requests';

/** Spec section 3: automatic_subscription true means opt-out, else opt-in. */
export const subscriptionPolicy = (automatic: boolean) => (automatic ? 'opt-out' : 'opt-in');

export const MAILING_LIST_QUEUE: KindConfig<'mailinglist'> = {
  ...queueInfo(mailingListRequestKind),
  identifierLabel: 'Mailing List',
  showUsername: false,
  buttons: APPROVE_OR_DENY,
  fields: (request) => [
    { key: 'list', label: 'Mailing list', children: request.list_id },
    { key: 'group', label: 'Group', children: request.user_group },
    { key: 'description', label: 'Description', children: multiline(request.description) },
    { key: 'permission-group', label: 'Permission group', children: request.permission_group },
    { key: 'posting', label: 'Posting permissions', children: request.posting_permissions },
    { key: 'subscription', label: 'Subscription', children: subscriptionPolicy(request.automatic_subscription) },
    { key: 'requester', label: 'Requested by', children: requester(request) },
    { key: 'reason', label: 'Reason', children: multiline(request.reason) },
  ],
  feedback: (decision, request) => (decision === 'approved' ? MAILING_LIST_MESSAGES.created(request.list_id) : MAILING_LIST_MESSAGES.denied(request.list_id)),
  returnTo: 'list',
};

export const MailingListRequestsPage = requestListPage(MAILING_LIST_QUEUE);
export const MailingListRequestPage = requestDetailPage(MAILING_LIST_QUEUE);
