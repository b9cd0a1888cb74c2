/** An authentication change request (spec section 3): a user asks to sign in with a token or with a certificate. */
import { Type } from 'typebox';
import { Certificate } from '../../accounts/account.js';
import { nullable } from '../../common.js';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const authChangeRequestKind = defineRequestKind({
  kind: 'authchange',
  permission: 'AUTH_CHANGE',
  order: 10,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['adjudicator'],
  queue: {
    path: '/list-authentication-change-requests',
    listTitle: 'Authentication Change Requests',
    detailTitle: 'Authentication Change Request',
    smartCardsOnly: true,
  },
  fields: {
    /** The requested authentication: ['token'] or ['certificate']. */
    authentication: Type.Array(Type.String()),
    certificate: nullable(Certificate),
    /** The government sponsor of a change to a website token ('' when none). */
    sponsor_email: Type.String(),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    authchange: typeof authChangeRequestKind;
  }
}

export type AuthChangeRequestDetail = RequestDetailOf<'authchange'>;
