/** A new account request (spec sections 2 and 3): a visitor asks for an account. */
import { Type } from 'typebox';
import { Address, Certificate, Supervisor } from '../../accounts/account.js';
import { nullable } from '../../common.js';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const newAccountRequestKind = defineRequestKind({
  kind: 'new',
  permission: 'NEW_ACCOUNT',
  order: 40,
  decisions: ['approved', 'denied', 'incomplete'],
  commentLimit: LIMITS.comment,
  workedBy: ['adjudicator'],
  queue: { path: '/list-account-requests', listTitle: 'New Account Requests', detailTitle: 'New Account Request' },
  fields: {
    phone: Type.String(),
    address: Type.Partial(Address),
    company: Type.String(),
    project: Type.String(),
    supervisor: Type.Partial(Supervisor),
    /** The applicant presented a smart card, kept with the request. */
    cac_eligible: Type.Boolean(),
    certificate: nullable(Certificate),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    new: typeof newAccountRequestKind;
  }
}

export type NewAccountRequestDetail = RequestDetailOf<'new'>;
