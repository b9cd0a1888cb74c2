/** An email change request (spec section 3): a user asks for a new address. */
import { Type } from 'typebox';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const profileChangeRequestKind = defineRequestKind({
  kind: 'profilechange',
  permission: 'EMAIL_CHANGE',
  order: 20,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['adjudicator'],
  queue: { path: '/list-email-change-requests', listTitle: 'Email Change Requests', detailTitle: 'Email Change Request' },
  fields: {
    /** The account's address when the request was made (`email` is the new one). */
    previous_email: Type.String(),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    profilechange: typeof profileChangeRequestKind;
  }
}

export type EmailChangeRequestDetail = RequestDetailOf<'profilechange'>;
