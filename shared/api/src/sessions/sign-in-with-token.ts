import { defineEndpoint } from '../endpoint.js';
import { SessionBody, TokenSignIn } from './sessions.js';

/** POST /sessions: website-token sign-in with the bot challenge. */
export const signInWithToken = defineEndpoint({
  method: 'POST',
  path: '/sessions',
  access: 'public',
  limit: 'sign-in',
  xsrf: false,
  summary: 'Signs in with a username (or email) and website token',
  body: TokenSignIn,
  response: SessionBody,
  errors: [401, 423],
});
