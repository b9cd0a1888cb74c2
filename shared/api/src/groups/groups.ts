/**
 * The shapes the group calls share (spec section 3: User group, Membership, Membership request):
 * a user group as a caller sees it, a member, and the bodies of the group and membership forms.
 */
import { Type, type Static } from 'typebox';
import { GROUP_ROLES, NOTIFICATION_LEVELS } from '../accounts/account.js';
import { closed, MAX_PAGE_SIZE, nullable } from '../common.js';
import { SERVICES } from '../config.js';
import { GROUP_PERMISSIONS, MAX_GROUP_ID_LENGTH, MAX_PERMISSION_GROUP_LENGTH, MEMBER_CONSTRAINTS } from './model.js';

/** A user group's identifier in a path (the rules' message answers a bad one; this only bounds it). */
export const GroupIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);
export const GroupName = Type.String({ minLength: 1, maxLength: 200 });

export const GroupRoleSchema = Type.Enum(GROUP_ROLES);
export const NotificationSchema = Type.Enum(NOTIFICATION_LEVELS);
export const ServiceSchema = Type.Enum(SERVICES);

/** What every listing of a group shows. */
const summaryProperties = {
  id: Type.String(),
  /** The same as id (spec section 3: "id (also user_group)"). */
  user_group: Type.String(),
  name: Type.String(),
  description: Type.String(),
  /** Fixed: 'TRMC'. */
  domain: Type.String(),
  open_access: Type.Boolean(),
  /** 'site-approved', or '{id}-admin' for a group only its admins see. */
  visibility: Type.String(),
  memberConstraint: Type.Enum(MEMBER_CONSTRAINTS),
  /** The services the group uses. */
  services: Type.Array(ServiceSchema),
  /** The caller holds one of its groups (directly or through another group). */
  member: Type.Boolean(),
  /** The caller's role in the group (held directly or through another group); null: none. */
  role: nullable(GroupRoleSchema),
  /** What the caller may do in this group. */
  permissions: Type.Array(Type.Enum(GROUP_PERMISSIONS)),
  /** A membership request for the caller waits for the group's admins (another would be refused until it is decided). */
  pending_request: Type.Boolean(),
};

/** A row of GET /usergroups. */
export const UserGroupSummary = Type.Object(summaryProperties, closed);
export type UserGroupSummary = Static<typeof UserGroupSummary>;

/** GET /usergroups/{id}: the group with its additional permission groups (the fixed ones filtered out). */
export const UserGroup = Type.Object(
  {
    ...summaryProperties,
    groups: Type.Array(Type.String()),
    /** How many accounts hold a group of it, directly or through another group. */
    member_count: Type.Integer(),
  },
  closed,
);
export type UserGroup = Static<typeof UserGroup>;

const GroupText = Type.String({ maxLength: 2000 });

/** The group form's fields (spec section 5): a new group's request, or an update of one. */
const groupFormProperties = {
  name: GroupText,
  description: GroupText,
  open_access: Type.Boolean(),
  memberConstraint: Type.Optional(Type.Enum(MEMBER_CONSTRAINTS)),
  visibility: Type.Optional(Type.String({ maxLength: 200 })),
  services: Type.Optional(Type.Array(ServiceSchema, { maxItems: SERVICES.length, uniqueItems: true })),
};

/** POST /usergroups/{id}. */
export const UserGroupUpdate = Type.Object(groupFormProperties, closed);
export type UserGroupUpdate = Static<typeof UserGroupUpdate>;

/** POST /requests/usergroup. */
export const UserGroupRequestBody = Type.Object(
  {
    user_group: Type.String({ maxLength: MAX_GROUP_ID_LENGTH + 100 }),
    ...groupFormProperties,
    /** Additional permission groups to create with it. */
    groups: Type.Optional(Type.Array(Type.String({ maxLength: MAX_PERMISSION_GROUP_LENGTH + 100 }), { maxItems: 100 })),
    reason: GroupText,
  },
  closed,
);
export type UserGroupRequestBody = Static<typeof UserGroupRequestBody>;

/** A member of a group (spec section 3, "Membership"). */
export const Membership = Type.Object(
  {
    user_group: Type.String(),
    username: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    /** 'Active', 'Closed' or 'Locked'. */
    status: Type.String(),
    /** The group names held directly. */
    direct: Type.Array(Type.String()),
    /** The group names held through another group (not left by leaving this one). */
    nested: Type.Array(Type.String()),
    role: nullable(GroupRoleSchema),
    notification: NotificationSchema,
    /** Additional permission groups held. */
    special: Type.Array(Type.String()),
    /** Per service the group uses, the service group held (null: none). */
    services: Type.Record(Type.String(), nullable(Type.String())),
  },
  closed,
);
export type Membership = Static<typeof Membership>;
/** A page of members, and how many match in all. */
export const MembershipPage = Type.Object({ rows: Type.Array(Membership), has_more_results: Type.Boolean(), total: Type.Integer() }, closed);
export type MembershipPage = Static<typeof MembershipPage>;

/** POST /memberships/search. */
export const MembershipSearch = Type.Object(
  {
    user_group: Type.Optional(Type.String({ maxLength: 100 })),
    username: Type.Optional(Type.String({ maxLength: 255 })),
    /** Last name, first name or username: a case-insensitive part of one. */
    filter: Type.Optional(Type.String({ maxLength: 255 })),
    role: Type.Optional(Type.Union([Type.Literal('all'), GroupRoleSchema])),
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  },
  closed,
);
export type MembershipSearch = Static<typeof MembershipSearch>;

/** Spec section 4: what a membership request is for. */
export const UPDATE_INTENTS = ['request', 'update', 'leave', 'join'] as const;
export type UpdateIntent = (typeof UPDATE_INTENTS)[number];

/** POST /requests/membership/new and /update. */
export const MembershipRequestBody = Type.Object(
  {
    user_group: Type.String({ maxLength: 100 }),
    username: Type.String({ maxLength: 255 }),
    join: Type.Array(GroupName, { maxItems: 200 }),
    leave: Type.Array(GroupName, { maxItems: 200 }),
    reason: Type.Optional(GroupText),
    updateIntent: Type.Enum(UPDATE_INTENTS),
  },
  closed,
);
export type MembershipRequestBody = Static<typeof MembershipRequestBody>;

/** The answer to a membership request: applied at once ('approved') or waiting for a group admin ('pending'). */
export const MembershipRequestAnswer = Type.Object(
  { ok: Type.Literal(true), code: Type.Literal(200), id: Type.Integer(), status: Type.Union([Type.Literal('pending'), Type.Literal('approved')]) },
  closed,
);
export type MembershipRequestAnswer = Static<typeof MembershipRequestAnswer>;

/** A row of GET /usergroups/{id}/mailinglists (filled by the mailing lists work). */
export const GroupMailingList = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    permission_group: Type.String(),
    posting_permissions: Type.String(),
    automatic_subscription: Type.Boolean(),
  },
  closed,
);
export type GroupMailingList = Static<typeof GroupMailingList>;
