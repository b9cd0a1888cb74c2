/** Sessions and sign-in (spec section 7, "Sessions and login"). */
import { Type, type Static } from 'typebox';
import { BotChallengeResponse, closed } from '../common.js';

/** The signed-in user and the session permissions (spec section 6). */
export const SessionBody = Type.Object({ username: Type.String(), permissions: Type.Array(Type.String()) }, closed);
export type SessionBody = Static<typeof SessionBody>;

export const TokenSignIn = Type.Object(
  {
    /** Username or email. */
    id: Type.String({ maxLength: 255 }),
    /** The website token. */
    token: Type.String({ maxLength: 512 }),
    botChallengeResponse: BotChallengeResponse,
  },
  closed,
);
export type TokenSignIn = Static<typeof TokenSignIn>;
