import { Type } from 'typebox';
import { closed, nullable, OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { EnvironmentName, PinReason, RemoteName, RemoteParams, RemoteVersionText } from './federation.js';

export const PinChange = Type.Object(
  {
    environment: Type.String(),
    remote: Type.String(),
    action: Type.Union([Type.Literal('pin'), Type.Literal('rollback')]),
    from_version: nullable(Type.String()),
    to_version: Type.String(),
  },
  closed,
);

/**
 * POST /federation/pins: pins a published version of a remote in an environment. 404: not
 * published; 409: its files differ from what was published, the host's contract does not
 * satisfy it, it claims another remote's path, or it is pinned already (the message says which).
 */
export const pinRemoteVersion = defineEndpoint({
  method: 'POST',
  path: '/federation/pins',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'Pin a published version of a remote in an environment',
  body: Type.Object({ environment: EnvironmentName, remote: RemoteName, version: RemoteVersionText, reason: PinReason }, closed),
  response: PinChange,
  errors: [404, 409],
});

/** POST /federation/rollbacks: pins the version that ran before the current pin (same checks as a pin). */
export const rollbackRemoteVersion = defineEndpoint({
  method: 'POST',
  path: '/federation/rollbacks',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'Roll a remote back to the version pinned before the current one',
  body: Type.Object({ environment: EnvironmentName, remote: RemoteName, reason: PinReason }, closed),
  response: PinChange,
  errors: [404, 409],
});

/**
 * PUT /federation/previews/{remote}: the caller's session (only) loads this published version of
 * the remote instead of the pin of this server's environment, until it ends the preview or signs out.
 */
export const startRemotePreview = defineEndpoint({
  method: 'PUT',
  path: '/federation/previews/:remote',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'Preview a published version of a remote in the caller’s browser only',
  params: RemoteParams,
  body: Type.Object({ version: RemoteVersionText }, closed),
  response: OkTrue,
  errors: [404, 409],
});

/** DELETE /federation/previews/{remote}: ends the caller's preview; the pin runs again. */
export const endRemotePreview = defineEndpoint({
  method: 'DELETE',
  path: '/federation/previews/:remote',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'End the caller’s preview of a remote',
  params: RemoteParams,
  response: OkTrue,
  errors: [404],
});
