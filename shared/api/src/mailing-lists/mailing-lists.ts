/** The shapes the mailing list calls share (spec section 3: Mailing list, List member, Held message). */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { HELD_ACTIONS, POSTING_PERMISSIONS } from './model.js';

/** A list's address in a path. */
export const ListIdParams = Type.Object({ id: Type.String({ minLength: 3, maxLength: 320 }) }, closed);

export const MailingList = Type.Object(
  {
    /** The list's address. */
    id: Type.String(),
    description: Type.String(),
    /** The user group it belongs to. */
    user_group: Type.String(),
    /** Its members are eligible. */
    permission_group: Type.String(),
    /** True: opt-out (eligible members are subscribed); false: opt-in. */
    automatic_subscription: Type.Boolean(),
    posting_permissions: Type.Enum(POSTING_PERMISSIONS),
    is_subscribed: Type.Boolean(),
    /** True: each message at once; false: a daily digest. */
    is_regular_subscription: Type.Boolean(),
    is_moderator: Type.Boolean(),
    /**
     * The caller holds the list's permission group (or a role above it) and may subscribe; false
     * for a moderator outside it (a group admin of a list for an additional group): such a
     * subscription is refused.
     */
    is_eligible: Type.Boolean(),
    /** Moderators only: how many messages the list holds (beyond the spec). */
    held_count: Type.Optional(Type.Integer()),
  },
  closed,
);
export type MailingList = Static<typeof MailingList>;

export const ListMember = Type.Object(
  {
    list_id: Type.String(),
    user_email: Type.String(),
    user_full_name: Type.String(),
    is_subscribed: Type.Boolean(),
  },
  closed,
);
export type ListMember = Static<typeof ListMember>;

export const HeldMessage = Type.Object(
  {
    request_id: Type.Integer(),
    /** Moderators' list of all held messages: the list it is held on. */
    list_id: Type.String(),
    sender: Type.String(),
    /** ISO 8601. */
    hold_date: Type.String(),
    /** Kilobytes. */
    original_size: Type.Number(),
    subject: Type.String(),
    /** The message's text, plain (never HTML). */
    msg: Type.String(),
    /** Why it is held. */
    reason: Type.String(),
  },
  closed,
);
export type HeldMessage = Static<typeof HeldMessage>;

export const HeldActionSchema = Type.Enum(HELD_ACTIONS);
