import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/**
 * POST /sessions/end-all: ends every session of the caller's account, this one too
 * ("signing out everywhere"), for a browser left signed in elsewhere. Answers how many ended.
 */
export const signOutEverywhere = defineEndpoint({
  method: 'POST',
  path: '/sessions/end-all',
  access: 'session',
  summary: "Ends every session of the caller's account, this one included",
  response: Type.Object({ ok: Type.Literal(true), ended: Type.Integer({ minimum: 1 }) }, closed),
});
