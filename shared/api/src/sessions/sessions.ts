/** Sessions and sign-in (spec section 7, "Sessions and login"). */
import { Type, type Static } from 'typebox';
import { BotChallengeResponse, closed, OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** The signed-in user and the session permissions (spec section 6). */
export const SessionBody = Type.Object({ username: Type.String(), permissions: Type.Array(Type.String()) }, closed);
export type SessionBody = Static<typeof SessionBody>;

/** GET /xsrf: the caller's anti-forgery token (starts an anonymous session if needed). */
export const getXsrfToken = defineEndpoint({
  method: 'GET',
  path: '/xsrf',
  access: 'public',
  xsrf: false,
  summary: "The caller's anti-forgery token, sent back as X-XSRF-TOKEN",
  response: Type.Object({ ok: Type.String() }, closed),
});

/** GET /sessions/httpsession: starts an anonymous session if needed. */
export const startHttpSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/httpsession',
  access: 'public',
  xsrf: false,
  summary: 'Starts an anonymous session if there is none',
  response: OkTrue,
});

/** GET /sessions/current: the signed-in user; 401 when nobody is. Answers during renewal too. */
export const getCurrentSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/current',
  access: 'session',
  summary: 'The signed-in user and their permissions',
  response: SessionBody,
});

/** GET /sessions/logout: ends the session. */
export const signOut = defineEndpoint({
  method: 'GET',
  path: '/sessions/logout',
  access: 'public',
  summary: 'Ends the session',
  response: OkTrue,
});

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

/** POST /sessions: website-token sign-in with the bot challenge. */
export const signInWithToken = defineEndpoint({
  method: 'POST',
  path: '/sessions',
  access: 'public',
  xsrf: false,
  summary: 'Signs in with a username (or email) and website token',
  body: TokenSignIn,
  response: SessionBody,
  errors: [401, 423],
});

/** POST /cert/sessions: smart-card sign-in with the client certificate the browser presents. */
export const signInWithCertificate = defineEndpoint({
  method: 'POST',
  path: '/cert/sessions',
  access: 'public',
  xsrf: false,
  summary: 'Signs in with the smart card (client certificate) presented',
  response: SessionBody,
  errors: [401, 403, 404, 423],
});
