/** A membership request (spec section 4): a user asks to join or leave a group's permission groups; decided in the group's administration, not in a queue. */
import { Type } from 'typebox';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const membershipRequestKind = defineRequestKind({
  kind: 'membership',
  permission: 'MEMBERSHIP',
  order: 70,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['adjudicator'],
  decidedInGroup: true,
  fields: {
    user_group: Type.String(),
    join: Type.Array(Type.String()),
    leave: Type.Array(Type.String()),
    /** 'request', 'update', 'leave' or 'join' (spec section 4). */
    updateIntent: Type.Optional(Type.String()),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    membership: typeof membershipRequestKind;
  }
}

export type MembershipRequestDetail = RequestDetailOf<'membership'>;
