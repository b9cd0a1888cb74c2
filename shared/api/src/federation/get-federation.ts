import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { EnvironmentQuery, RemoteState } from './federation.js';

/**
 * GET /federation?environment=: each remote's pin in an environment (this server's by default),
 * its published versions and the caller's preview; the environments that have pins.
 */
export const getFederation = defineEndpoint({
  method: 'GET',
  path: '/federation',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'What an environment runs, what is published, and the caller’s previews',
  query: EnvironmentQuery,
  response: Type.Object(
    {
      environment: Type.String(),
      /** The environment this server serves (previews apply there only). */
      served_environment: Type.String(),
      environments: Type.Array(Type.String()),
      /** The contract version this portal's host implements. */
      host_contract: Type.String(),
      remotes: Type.Array(RemoteState),
    },
    closed,
  ),
});
