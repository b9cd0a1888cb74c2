/** An unlock request (spec sections 2 and 3): a locked-out user asks to be let back in. */
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const unlockRequestKind = defineRequestKind({
  kind: 'unlock',
  permission: 'UNLOCK',
  order: 60,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['help-desk', 'adjudicator'],
  queue: { path: '/list-unlock-account-requests', listTitle: 'Unlock Account Requests', detailTitle: 'Unlock Account Request' },
  fields: {},
});

declare module '../kinds.js' {
  interface RequestKinds {
    unlock: typeof unlockRequestKind;
  }
}

export type UnlockRequestDetail = RequestDetailOf<'unlock'>;
