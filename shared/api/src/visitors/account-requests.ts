/**
 * New account requests (server/docs/self-service.md, "The account request"), public and exempt
 * from the anti-forgery check (spec section 7).
 */
import { Type, type Static } from 'typebox';
import { BotChallengeResponse, closed, Text } from '../common.js';
import { REQUEST_STATUSES } from '../requests/model.js';
const Field = Type.Optional(Text);

/** Every field optional: a missing one gets the spec's 'Please enter …' message in `fields`, as an empty one does. */
export const AccountRequest = Type.Object(
  {
    first_name: Field,
    last_name: Field,
    username: Field,
    email: Field,
    phone: Field,
    address: Type.Optional(Type.Object({ street: Field, city: Field, state: Field, zip: Field, country: Field }, closed)),
    company: Field,
    project: Field,
    reason: Field,
    supervisor: Type.Optional(Type.Object({ first_name: Field, last_name: Field, email: Field, phone: Field }, closed)),
    botChallengeResponse: Type.Optional(BotChallengeResponse),
  },
  closed,
);
export type AccountRequest = Static<typeof AccountRequest>;

export const Submitted = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), id: Type.Integer() }, closed);

export const AccountRequestStatus = Type.Object(
  {
    status: Type.Enum(REQUEST_STATUSES),
    comment: Type.String(),
    username: Type.String(),
    /** The adjudicator asked for more information: the applicant must answer. */
    awaiting_response: Type.Boolean(),
  },
  closed,
);
export type AccountRequestStatus = Static<typeof AccountRequestStatus>;
