/** The shapes the token calls share (spec section 3: Token, Artifactory token). */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { TOKEN_LEVELS } from './model.js';

/** A token as its owner (or an account administrator) sees it: never its secret. */
export const ArtifactToken = Type.Object(
  {
    token_id: Type.String(),
    description: Type.String(),
    /** Epoch seconds. */
    issued_at: Type.Integer(),
    /** Epoch seconds; 0 means none. */
    expiry: Type.Integer(),
    /** Spec section 4: its lifetime was at least the revocable threshold. */
    revocable: Type.Boolean(),
    /** The permission strings it carries ('PORTAL-artifactsRead' …). */
    scope: Type.Array(Type.String()),
  },
  closed,
);
export type ArtifactToken = Static<typeof ArtifactToken>;

export const TokenIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, closed);

/** A group the caller may create tokens for, with the levels offered (spec section 5). */
export const TokenGroup = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    levels: Type.Array(Type.Enum(TOKEN_LEVELS)),
  },
  closed,
);
export type TokenGroup = Static<typeof TokenGroup>;
