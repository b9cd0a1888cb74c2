/** A user group request (spec sections 3 and 4): a user asks for a new group. */
import { Type } from 'typebox';
import { LIMITS } from '../../rules.js';
import { defineRequestKind, type RequestDetailOf } from '../kinds.js';

export const userGroupRequestKind = defineRequestKind({
  kind: 'usergroup',
  permission: 'USER_GROUP',
  order: 50,
  decisions: ['approved', 'denied'],
  commentLimit: LIMITS.reason,
  workedBy: ['adjudicator'],
  queue: { path: '/list-user-group-requests', listTitle: 'User Group Requests', detailTitle: 'User Group Request' },
  fields: {
    user_group: Type.String(),
    name: Type.String(),
    description: Type.String(),
    open_access: Type.Boolean(),
    /** 'None' or 'DoD'. */
    memberConstraint: Type.String(),
    /** 'site-approved' or '{id}-admin'. */
    visibility: Type.String(),
    /** Additional permission groups. */
    groups: Type.Optional(Type.Array(Type.String())),
    /** The services the group will use. */
    services: Type.Optional(Type.Array(Type.String())),
  },
});

declare module '../kinds.js' {
  interface RequestKinds {
    usergroup: typeof userGroupRequestKind;
  }
}

export type UserGroupRequestDetail = RequestDetailOf<'usergroup'>;
