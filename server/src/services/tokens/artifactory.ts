/**
 * The Artifactory issuer (PORTAL_TOKEN_ISSUER=artifactory; server/docs/tokens.md): JFrog
 * Artifactory issues the tokens through its Access Tokens REST API, called with an admin token.
 *  - issue: GET /access/api/v2/users/{username} (404: no account), then POST /access/api/v1/tokens
 *    with the user, the scope `applied-permissions/groups:<group>,<group>…`, expires_in in seconds,
 *    the description and include_reference_token; the reference token is the secret shown once.
 *  - liveTokenIds: the user check, then GET /access/api/v1/tokens, kept to the tokens whose subject
 *    is the user (`…/users/<username>`).
 *  - revoke: DELETE /access/api/v1/tokens/{token_id}; a token Artifactory no longer knows counts
 *    as revoked.
 * Every other failure (unreachable, too slow, an error status, an answer of another shape) is an
 * ArtifactRepositoryError whose message may be shown to anyone: it never holds the admin token,
 * a reference token or what Artifactory answered.
 */
import { NoArtifactRepositoryAccountError, type IssueRequest, type IssuedToken, type TokenIssuer } from './issuer.js';

export interface ArtifactoryIssuerOptions {
  /** Artifactory's address, e.g. https://artifacts.example.test (a trailing slash is fine). */
  readonly url: string;
  /** An admin-scoped access token; sent as `Authorization: Bearer …` and nowhere else. */
  readonly adminToken: string;
  readonly fetch?: typeof fetch;
  /** How long one call may take; 10 seconds unless told. */
  readonly timeoutMs?: number;
}

export const ARTIFACTORY_TIMEOUT_MS = 10_000;

/** The paths of JFrog's Access Tokens and Users REST APIs this issuer calls. */
export const ARTIFACTORY_PATHS = {
  tokens: '/access/api/v1/tokens',
  token: (tokenId: string) => `/access/api/v1/tokens/${encodeURIComponent(tokenId)}`,
  user: (username: string) => `/access/api/v2/users/${encodeURIComponent(username)}`,
} as const;

/** The scope of a token that grants the rights of these Artifactory groups (the permission strings). */
export function groupsScope(groups: readonly string[]): string {
  return `applied-permissions/groups:${groups.join(',')}`;
}

/** Artifactory could not be used; the message is safe to show a user. */
export class ArtifactRepositoryError extends Error {
  constructor(problem: string) {
    super(`The artifact repository did not answer: ${problem}`);
    this.name = 'ArtifactRepositoryError';
  }
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Whether a token's subject (`<service id>/users/<username>`, or the bare name) is the user's. */
export function subjectIsUser(subject: string, username: string): boolean {
  return subject === username || subject.endsWith(`/users/${username}`);
}

export function createArtifactoryIssuer(options: ArtifactoryIssuerOptions): TokenIssuer {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? ARTIFACTORY_TIMEOUT_MS;
  const waited = timeoutMs === 1000 ? '1 second' : timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} seconds` : `${timeoutMs} ms`;

  /** One call; only its status and parsed body come back, and no failure carries what was sent. */
  async function send(what: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.adminToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      // The error itself (and its cause) is not passed on: only what kind of failure it was.
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ArtifactRepositoryError(timedOut ? `no answer within ${waited} while ${what}.` : `no connection while ${what}.`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ArtifactRepositoryError(timedOut ? `no full answer within ${waited} while ${what}.` : `the answer broke off while ${what}.`);
    }
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed };
  }

  const failed = (what: string, answer: Answer) =>
    new ArtifactRepositoryError(answer.status >= 200 && answer.status < 300 ? `an unexpected answer while ${what}.` : `HTTP ${answer.status} while ${what}.`);

  /** GET /access/api/v2/users/{username}: 404 is no account; any other failure throws. */
  async function requireAccount(username: string): Promise<void> {
    const what = 'looking up the user';
    const answer = await send(what, 'GET', ARTIFACTORY_PATHS.user(username));
    if (answer.status === 404) throw new NoArtifactRepositoryAccountError(username);
    if (answer.status < 200 || answer.status >= 300) throw failed(what, answer);
  }

  async function revoke(tokenId: string): Promise<void> {
    const what = 'revoking a token';
    const answer = await send(what, 'DELETE', ARTIFACTORY_PATHS.token(tokenId));
    // 200: revoked; 204 (JFrog's documented answer) or 404: not known, so revoked already.
    if (answer.status === 200 || answer.status === 204 || answer.status === 404) return;
    throw failed(what, answer);
  }

  return {
    name: 'artifactory',

    async issue(request: IssueRequest): Promise<IssuedToken> {
      await requireAccount(request.username);
      const what = 'creating a token';
      const answer = await send(what, 'POST', ARTIFACTORY_PATHS.tokens, {
        username: request.username,
        scope: groupsScope(request.scopes),
        expires_in: request.expiresInSeconds,
        description: request.description,
        refreshable: false,
        include_reference_token: true,
      });
      if (answer.status !== 200 && answer.status !== 201) throw failed(what, answer);
      const body = answer.body;
      if (!isRecord(body) || !nonEmptyString(body.token_id)) throw failed(what, answer);
      if (!nonEmptyString(body.reference_token)) {
        // Made but unusable here (an Artifactory before 7.38.10 gives no reference token): not left working.
        await revoke(body.token_id).catch(() => undefined);
        throw failed(what, answer);
      }
      return { tokenId: body.token_id, referenceToken: body.reference_token, secretHash: null };
    },

    async liveTokenIds(username: string): Promise<ReadonlySet<string>> {
      await requireAccount(username);
      const what = 'listing tokens';
      // `username` narrows the list where Artifactory supports it; the subject is checked here anyway.
      const answer = await send(what, 'GET', `${ARTIFACTORY_PATHS.tokens}?${new URLSearchParams({ username }).toString()}`);
      if (answer.status !== 200) throw failed(what, answer);
      const body = answer.body;
      if (!isRecord(body) || !Array.isArray(body.tokens)) throw failed(what, answer);
      const ids = new Set<string>();
      for (const token of body.tokens as unknown[]) {
        if (!isRecord(token) || !nonEmptyString(token.token_id)) throw failed(what, answer);
        if (typeof token.subject === 'string' && subjectIsUser(token.subject, username)) ids.add(token.token_id);
      }
      return ids;
    },

    revoke,
  };
}
