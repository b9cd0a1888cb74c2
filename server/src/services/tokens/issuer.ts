/**
 * Who issues artifact-repository tokens (server/docs/tokens.md), behind one interface chosen by
 * PORTAL_TOKEN_ISSUER: the portal itself ('embedded', the default; services verify tokens through
 * its RFC 7662 introspection endpoint) or JFrog Artifactory's Access Tokens REST API
 * ('artifactory'). Either way the portal keeps its own record of each token (never the secret):
 * who owns it, its name, scopes, expiry and revocability, so listing, the expiry mail and the
 * account's history work alike.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export interface IssueRequest {
  readonly username: string;
  readonly description: string;
  /** The permission strings ('PORTAL-artifactsWrite' …). */
  readonly scopes: readonly string[];
  readonly expiresInSeconds: number;
  readonly issuedAt: Date;
}

export interface IssuedToken {
  readonly tokenId: string;
  /** The secret, shown to the user once and never stored. */
  readonly referenceToken: string;
  /** The embedded issuer: SHA-256 of the secret (what introspection looks up); else null. */
  readonly secretHash: string | null;
}

export interface TokenIssuer {
  readonly name: 'embedded' | 'artifactory';
  /** Throws NoArtifactRepositoryAccountError when the issuer does not know the user. */
  issue(request: IssueRequest): Promise<IssuedToken>;
  /**
   * The ids of the user's tokens the issuer still honours; undefined when the portal's record is
   * the whole truth (the embedded issuer). Throws NoArtifactRepositoryAccountError as issue does.
   */
  liveTokenIds(username: string): Promise<ReadonlySet<string> | undefined>;
  /** Revokes at the issuer; a token it no longer knows counts as revoked. Throws when the issuer cannot be reached. */
  revoke(tokenId: string): Promise<void>;
}

/** The artifact repository has no account for the user (spec section 8: the 400 on listing). */
export class NoArtifactRepositoryAccountError extends Error {
  constructor(username: string) {
    super(`the artifact repository has no account for ${username}`);
    this.name = 'NoArtifactRepositoryAccountError';
  }
}

/** The embedded issuer's secrets: 'ptk_' and 32 random bytes, base64url (256 bits). */
export const EMBEDDED_TOKEN_PREFIX = 'ptk_';

/**
 * SHA-256, hex. A token or service secret has 256 random bits, so a fast hash is enough: nobody
 * can guess one from its hash, and a lookup by hash needs no per-row salt.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export const embeddedIssuer: TokenIssuer = {
  name: 'embedded',
  async issue() {
    const referenceToken = newSecret(EMBEDDED_TOKEN_PREFIX);
    return { tokenId: randomUUID(), referenceToken, secretHash: secretHash(referenceToken) };
  },
  async liveTokenIds() {
    return undefined;
  },
  async revoke() {
    // The portal's record is the token: marking it revoked is the revocation.
  },
};
