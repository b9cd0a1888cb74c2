import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ArtifactToken } from './tokens.js';

/**
 * GET /tokens: the caller's tokens, newest first; revoked ones are gone, expired ones stay
 * (shown EXPIRED). 400 with the 'You need an Artifactory account…' message when the artifact
 * repository does not know the caller (spec section 8).
 */
export const listTokens = defineEndpoint({
  method: 'GET',
  path: '/tokens',
  access: 'session',
  summary: "The caller's artifact-repository tokens",
  response: Type.Object({ tokens: Type.Array(ArtifactToken) }, closed),
  errors: [404, 503],
});
