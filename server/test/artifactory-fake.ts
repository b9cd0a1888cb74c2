/**
 * A stand-in for JFrog Artifactory's Access Tokens and Users REST APIs, for the Artifactory
 * issuer's tests (no Artifactory runs here). It answers the requests as JFrog's documentation
 * shows them (server/docs/tokens.md names the pages):
 *  - POST /access/api/v1/tokens (JSON or form-encoded): { token_id, access_token, expires_in,
 *    scope, token_type, reference_token when include_reference_token, refresh_token when refreshable };
 *  - GET /access/api/v1/tokens: { tokens: [{ token_id, issuer, subject, issued_at, expiry,
 *    refreshable, description }] }, filtered by the documented query parameters;
 *  - DELETE /access/api/v1/tokens/{id}: 200 when revoked; 204 when the id is not known;
 *  - GET /access/api/v2/users/{username}: the user's details, or 404.
 * Every call needs `Authorization: Bearer <admin token>` (401 otherwise). Tokens live in memory,
 * the test says which users exist, and can make the next calls fail (500), hang (no answer) or
 * drop the connection (unreachable). Each request is recorded with its headers and body.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface FakeToken {
  readonly token_id: string;
  readonly subject: string;
  readonly issuer: string;
  readonly issued_at: number;
  /** 0: never expires (the list then leaves `expiry` out). */
  readonly expiry: number;
  readonly refreshable: boolean;
  readonly description: string | undefined;
  readonly scope: string;
  readonly username: string;
  readonly reference_token: string | undefined;
}

/** What the next calls do instead of answering: an error status, no answer at all, or a dropped connection. */
export type FakeFailure = number | 'hang' | 'drop';

export interface ArtifactoryFake {
  readonly url: string;
  readonly adminToken: string;
  readonly requests: FakeRequest[];
  readonly tokens: Map<string, FakeToken>;
  readonly users: Set<string>;
  /** The service id in subjects and the issuer: `jfac@<id>`. */
  readonly serviceId: string;
  /** The next `times` calls fail this way. */
  failNext(failure: FakeFailure, times?: number): void;
  /** Every call fails this way until told otherwise (undefined: answers again). */
  setDown(failure: FakeFailure | undefined): void;
  /** The status DELETE answers for an id it does not know: 204 as documented, or 404. */
  unknownRevokeStatus: 204 | 404;
  /** A token made at Artifactory itself (not through the portal). */
  addToken(username: string, description?: string): FakeToken;
  /** The tokens Artifactory would list for a user. */
  tokensOf(username: string): FakeToken[];
  close(): Promise<void>;
}

const SERVICE_ID = 'jfac@01fakeartifactory0000000000';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A reference token as JFrog describes them: 'cmVmd' and 59 letters or digits. */
function referenceToken(): string {
  return `cmVmd${Array.from(randomBytes(59), (byte) => ALNUM[byte % ALNUM.length]).join('')}`;
}

function json(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body, null, 2);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

const errors = (code: string, message: string) => ({ errors: [{ code, message }] });

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The create call's parameters: JSON or form-encoded, both documented. */
function createParameters(request: IncomingMessage, body: string): Record<string, unknown> | undefined {
  const type = request.headers['content-type'] ?? '';
  try {
    if (type.startsWith('application/json')) {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    }
    if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  } catch {
    return undefined;
  }
  return undefined;
}

const asBoolean = (value: unknown): boolean => value === true || value === 'true';

export async function startArtifactoryFake(options: { adminToken: string; users?: readonly string[]; now?: () => number }): Promise<ArtifactoryFake> {
  const requests: FakeRequest[] = [];
  const tokens = new Map<string, FakeToken>();
  const users = new Set(options.users ?? []);
  const now = () => Math.floor((options.now ?? Date.now)() / 1000);
  const failures: FakeFailure[] = [];
  let down: FakeFailure | undefined;

  const addToken = (username: string, scope: string, expiresIn: number, description: string | undefined, refreshable: boolean, reference: boolean): FakeToken => {
    const issuedAt = now();
    const token: FakeToken = {
      token_id: randomUUID(),
      subject: `${SERVICE_ID}/users/${username}`,
      issuer: SERVICE_ID,
      issued_at: issuedAt,
      expiry: expiresIn === 0 ? 0 : issuedAt + expiresIn,
      refreshable,
      description,
      scope,
      username,
      reference_token: reference ? referenceToken() : undefined,
    };
    tokens.set(token.token_id, token);
    return token;
  };

  const listed = (token: FakeToken) => ({
    token_id: token.token_id,
    issuer: token.issuer,
    subject: token.subject,
    issued_at: token.issued_at,
    ...(token.expiry === 0 ? {} : { expiry: token.expiry }),
    refreshable: token.refreshable,
    ...(token.description === undefined ? {} : { description: token.description }),
  });

  async function handle(request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams, body: string): Promise<void> {
    if (request.headers.authorization !== `Bearer ${options.adminToken}`) {
      json(response, 401, errors('UNAUTHORIZED', 'Bad credentials'));
      return;
    }
    const method = request.method ?? 'GET';
    if (path === '/access/api/v1/tokens' && method === 'POST') {
      const parameters = createParameters(request, body);
      if (!parameters) {
        json(response, 400, errors('BAD_REQUEST', 'Invalid request body'));
        return;
      }
      const expiresIn = parameters.expires_in === undefined ? 31_536_000 : Number(parameters.expires_in);
      const username = typeof parameters.username === 'string' ? parameters.username : 'admin';
      const scope = typeof parameters.scope === 'string' ? parameters.scope : 'applied-permissions/user';
      const description = typeof parameters.description === 'string' ? parameters.description : undefined;
      if (!Number.isInteger(expiresIn) || expiresIn < 0 || username.length > 255 || scope.length > 500 || (description?.length ?? 0) > 1024) {
        json(response, 400, errors('BAD_REQUEST', 'Invalid input'));
        return;
      }
      const refreshable = asBoolean(parameters.refreshable);
      const token = addToken(username, scope, expiresIn, description, refreshable, asBoolean(parameters.include_reference_token));
      json(response, 200, {
        token_id: token.token_id,
        access_token: `eyJ2ZXIiOiIyIn0.${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`,
        ...(refreshable ? { refresh_token: randomUUID() } : {}),
        expires_in: expiresIn,
        scope,
        token_type: 'Bearer',
        ...(token.reference_token === undefined ? {} : { reference_token: token.reference_token }),
      });
      return;
    }
    if (path === '/access/api/v1/tokens' && method === 'GET') {
      let rows = [...tokens.values()];
      const description = query.get('description');
      if (description !== null) {
        rows = rows.filter((t) => (description.endsWith('*') ? (t.description ?? '').startsWith(description.slice(0, -1)) : t.description === description));
      }
      const username = query.get('username');
      if (username !== null) rows = rows.filter((t) => t.username === username);
      const refreshable = query.get('refreshable');
      if (refreshable !== null) rows = rows.filter((t) => String(t.refreshable) === refreshable);
      const tokenId = query.get('token_id');
      if (tokenId !== null) rows = rows.filter((t) => t.token_id === tokenId);
      json(response, 200, { tokens: rows.map(listed) });
      return;
    }
    const tokenPath = /^\/access\/api\/v1\/tokens\/([^/]+)$/.exec(path);
    if (tokenPath && method === 'DELETE') {
      const id = decodeURIComponent(tokenPath[1]!);
      if (tokens.delete(id)) json(response, 200);
      else json(response, fake.unknownRevokeStatus, fake.unknownRevokeStatus === 404 ? errors('NOT_FOUND', 'Token not found') : undefined);
      return;
    }
    const userPath = /^\/access\/api\/v2\/users\/([^/]+)$/.exec(path);
    if (userPath && method === 'GET') {
      const username = decodeURIComponent(userPath[1]!);
      if (!users.has(username)) {
        json(response, 404, errors('NOT_FOUND', `User '${username}' not found`));
        return;
      }
      json(response, 200, {
        username, email: `${username}@example.test`, admin: false, effective_admin: false, profile_updatable: true, disable_ui_access: false,
        internal_password_disabled: false, realm: 'internal', groups: ['readers'], status: 'enabled',
      });
      return;
    }
    json(response, 404, errors('NOT_FOUND', 'Not found'));
  }

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://fake.invalid');
      requests.push({ method: request.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers, body });
      const failure = failures.length > 0 ? failures.shift() : down;
      if (failure === 'hang') return;
      if (failure === 'drop') {
        request.socket.destroy();
        return;
      }
      if (typeof failure === 'number') {
        json(response, failure, errors('INTERNAL_SERVER_ERROR', 'Something went wrong'));
        return;
      }
      await handle(request, response, url.pathname, url.searchParams, body);
    })().catch(() => {
      if (!response.headersSent) json(response, 500);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: ArtifactoryFake = {
    url: `http://127.0.0.1:${port}`,
    adminToken: options.adminToken,
    requests,
    tokens,
    users,
    serviceId: SERVICE_ID,
    unknownRevokeStatus: 204,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    setDown(failure) {
      down = failure;
    },
    addToken(username, description) {
      return addToken(username, 'applied-permissions/user', 3600, description, false, true);
    },
    tokensOf(username) {
      return [...tokens.values()].filter((t) => t.username === username);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
