import { Type } from 'typebox';
import { closed, OkTrue, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ArtifactToken } from './tokens.js';

/** GET /accounts/{username}/tokens: an account's live tokens for Account Administration (never their secrets). */
export const listAccountTokens = defineEndpoint({
  method: 'GET',
  path: '/accounts/:username/tokens',
  access: { permission: 'VIEW_ACCOUNT' },
  summary: "An account's artifact-repository tokens",
  params: UsernameParams,
  response: Type.Object({ tokens: Type.Array(ArtifactToken) }, closed),
  errors: [404, 503],
});

/**
 * DELETE /accounts/{username}/tokens/{id}: an administrator revokes one of an account's tokens
 * (whatever its lifetime), recorded in the account's history. LOCK_ACCOUNT: who may cut an
 * account off may cut off one of its tokens.
 */
export const revokeAccountToken = defineEndpoint({
  method: 'DELETE',
  path: '/accounts/:username/tokens/:id',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: "Revoke one of an account's tokens",
  params: Type.Object({ username: UsernameParams.properties.username, id: Type.String({ minLength: 1, maxLength: 200 }) }, closed),
  response: OkTrue,
  errors: [404, 503],
});
