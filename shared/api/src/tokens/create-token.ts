import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ArtifactToken } from './tokens.js';

/**
 * POST /tokens: description (the name), groups (the permission strings chosen) and expiry in
 * seconds (spec sections 7 and 9). The answer carries the secret, once: reference_token.
 */
export const CreateTokenBody = Type.Object(
  {
    description: Type.String({ maxLength: 10_000 }),
    groups: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 200 }),
    expiry: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  },
  closed,
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;

export const CreatedToken = Type.Object({ ...ArtifactToken.properties, reference_token: Type.String() }, closed);
export type CreatedToken = Static<typeof CreatedToken>;

export const createToken = defineEndpoint({
  method: 'POST',
  path: '/tokens',
  access: 'session',
  summary: 'Create an artifact-repository token (its secret is in this answer only)',
  body: CreateTokenBody,
  response: CreatedToken,
  errors: [404, 503],
});
