/**
 * Federation operations (not in the spec; docs/federation.md): the shapes of a platform
 * administrator's view of the remotes: what each environment runs, what is published, the
 * history of pins, and previews. Times are epoch milliseconds.
 */
import { Type, type Static } from 'typebox';
import { closed, nullable } from '../common.js';

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9_]*$' });
const VersionText = Type.String({ minLength: 1, maxLength: 100 });
/** Why a pin changes: recorded in the history. */
export const PinReason = Type.String({ maxLength: 1000 });
export const EnvironmentName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' });

export const PublishedRemoteVersion = Type.Object(
  {
    version: Type.String(),
    contract: Type.String(),
    published_at: Type.Integer(),
    published_by: Type.String(),
    /** This portal's host implements the contract range it needs. */
    compatible: Type.Boolean(),
  },
  closed,
);
export type PublishedRemoteVersion = Static<typeof PublishedRemoteVersion>;

export const RemoteState = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    contract: Type.String(),
    routes: Type.Array(Type.String()),
    pinned_at: Type.Integer(),
    pinned_by: Type.String(),
    reason: Type.String(),
    /** The version a rollback would pin; null when there was none before. */
    rollback_to: nullable(Type.String()),
    /** The version the caller's session previews instead, if any (this server's environment only). */
    preview: nullable(Type.String()),
    /** Published versions, newest first. */
    versions: Type.Array(PublishedRemoteVersion),
  },
  closed,
);
export type RemoteState = Static<typeof RemoteState>;

export const PinHistoryEntry = Type.Object(
  {
    id: Type.Integer(),
    environment: Type.String(),
    remote: Type.String(),
    action: Type.Union([Type.Literal('initial'), Type.Literal('pin'), Type.Literal('rollback')]),
    from_version: nullable(Type.String()),
    to_version: Type.String(),
    changed_at: Type.Integer(),
    changed_by: Type.String(),
    reason: Type.String(),
  },
  closed,
);
export type PinHistoryEntry = Static<typeof PinHistoryEntry>;

export const EnvironmentQuery = Type.Object({ environment: Type.Optional(EnvironmentName) }, closed);
export const RemoteParams = Type.Object({ remote: Name }, closed);
export { Name as RemoteName, VersionText as RemoteVersionText };
