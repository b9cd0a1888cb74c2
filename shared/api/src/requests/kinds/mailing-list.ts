/** A mailing list request (spec sections 3 and 7): a group admin asks for a list of the group. */
import { Type } from 'typebox';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const mailingListRequestKind = defineRequestKind({
  kind: 'mailinglist',
  permission: 'MAILING_LIST',
  order: 30,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['adjudicator'],
  queue: { path: '/list-mailing-list-requests', listTitle: 'Mailing List Requests', detailTitle: 'Mailing List Request' },
  fields: {
    list_id: Type.String(),
    user_group: Type.String(),
    permission_group: Type.String(),
    description: Type.String(),
    /** 'closed', 'open' or 'announce'. */
    posting_permissions: Type.String(),
    /** True: members are subscribed and may opt out; false: they opt in. */
    automatic_subscription: Type.Boolean(),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    mailinglist: typeof mailingListRequestKind;
  }
}

export type MailingListRequestDetail = RequestDetailOf<'mailinglist'>;
