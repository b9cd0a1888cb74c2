/**
 * GET /accounts/rest/openapi.json: the API described for automation. Every check walks the route
 * table (listApiRoutes), so a route added later is covered without touching this file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as api from '@portal/api';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { OPENAPI_PATH } from '../src/plugins/openapi.js';
import { INTROSPECTION_PATH } from '../src/routes/introspection.js';
import { registeredKinds } from '../src/services/request-kinds/index.js';
import { API_PREFIX, isApiPath, listApiRoutes, type ApiRoute } from '../src/plugins/route-access.js';
import { createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

interface Operation {
  summary?: string;
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; license?: { name: string } };
  servers?: { url: string }[];
  components?: { securitySchemes?: Record<string, Record<string, string>> };
  paths: Record<string, Record<string, Operation>>;
}

interface RouteSchema {
  summary?: string;
  params?: { properties?: Record<string, unknown> };
  querystring?: { properties?: Record<string, unknown> };
  body?: unknown;
  response?: Record<string, unknown>;
}

/** Fastify's /accounts/:username is OpenAPI's /accounts/{username}. */
function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationOf(doc: OpenApiDocument, route: Pick<ApiRoute, 'method' | 'url'>): Operation | undefined {
  return doc.paths[openapiPath(route.url)]?.[route.method.toLowerCase()];
}

/** What the document says about a route's access, in the shape of its declaration. */
function accessOf(operation: Operation): unknown {
  return { access: operation['x-access'], permission: operation['x-permission'], xsrf: operation['x-xsrf'] };
}

function declared(route: ApiRoute): unknown {
  return {
    access: route.access.kind,
    permission: route.access.kind === 'permission' ? route.access.permission : undefined,
    xsrf: route.xsrf,
  };
}

let fixture: Fixture;
let db: Database;
let app: App;
let doc: OpenApiDocument;
/** Every route's own schema, as registered ('GET /accounts/rest/…' → schema). */
const schemas = new Map<string, RouteSchema>();

before(async () => {
  fixture = createFixture();
  db = await createTestDatabase();
  app = createTestApp({ db, fixture });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) schemas.set(`${method} ${route.url}`, (route.schema ?? {}) as RouteSchema);
  });
  const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  assert.equal(response.statusCode, 200, response.body);
  doc = response.json<OpenApiDocument>();
});

after(async () => {
  await app.close();
  await db.close();
  fixture.remove();
});

describe(`GET ${OPENAPI_PATH}`, () => {
  test('is an OpenAPI 3 document, public and without anti-forgery token (no cookie, no header)', async () => {
    const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.match(doc.openapi, /^3\.\d+\.\d+$/);
    assert.equal(doc.info.title, 'Portal API');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    assert.equal(typeof doc.paths, 'object');
  });

  test('describes every API route with its method, its path, and the access and anti-forgery rule it declares', () => {
    const routes = listApiRoutes(app);
    assert.ok(routes.length > 40, `only ${routes.length} API routes`);
    assert.ok(routes.some((route) => route.method === 'GET' && route.url === OPENAPI_PATH), 'the document describes itself');
    for (const route of routes) {
      const operation = operationOf(doc, route);
      assert.ok(operation, `${route.method} ${route.url} is not in the document (as ${openapiPath(route.url)})`);
      assert.deepEqual(accessOf(operation), declared(route), `${route.method} ${route.url}`);
    }
  });

  test('a call checked inside a user group names the permission it needs there (x-group-permission)', () => {
    const requestCalls: unknown[] = registeredKinds().flatMap(({ declaration }) => [api.getRequest(declaration), ...declaration.decisions.map((d) => api.decideRequest(declaration, d))]);
    const inGroup = [...(Object.values(api) as unknown[]), ...requestCalls]
      .filter((value): value is api.AnyEndpoint => typeof value === 'object' && value !== null && 'access' in value && 'method' in value && 'path' in value)
      .filter((endpoint) => typeof endpoint.access === 'object' && 'groupPermission' in endpoint.access);
    assert.ok(inGroup.length >= 8, `only ${inGroup.length} group calls`);
    for (const endpoint of inGroup) {
      const operation = operationOf(doc, { method: endpoint.method, url: `${API_PREFIX}${endpoint.path}` });
      assert.ok(operation, `${endpoint.method} ${endpoint.path}`);
      assert.equal(operation['x-access'], 'session', endpoint.path);
      assert.equal(operation['x-group-permission'], (endpoint.access as { groupPermission: string }).groupPermission, endpoint.path);
    }
    const approve = operationOf(doc, { method: 'POST', url: `${API_PREFIX}/requests/membership/:id/approved` });
    assert.equal(approve?.['x-group-permission'], 'ADJUDICATE_MEMBERSHIP_REQUEST');
  });

  test('describes nothing else: no route outside the API, no operation without a route', () => {
    // Routes the document leaves out do exist (the environment manifest, the remotes' and the host's files).
    const outside = [...schemas.keys()].filter((key) => !isApiPath(key.slice(key.indexOf(' ') + 1)));
    assert.ok(outside.includes('GET /environment.json'), outside.join(', '));
    assert.ok(outside.some((key) => key.startsWith('GET /remotes/')), outside.join(', '));
    // And the platform services' token check, outside the API (server/docs/tokens.md).
    const routes = new Set([...listApiRoutes(app).map((route) => `${route.method} ${openapiPath(route.url)}`), `POST ${INTROSPECTION_PATH}`]);
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      assert.ok(path.startsWith(`${API_PREFIX}/`) || path === INTROSPECTION_PATH, `${path} is not an API path`);
      for (const method of Object.keys(methods)) {
        operations += 1;
        assert.ok(routes.has(`${method.toUpperCase()} ${path}`), `${method.toUpperCase()} ${path} is not a registered API route`);
      }
    }
    assert.equal(operations, routes.size);
  });

  test("each operation is generated from its route's own schemas", () => {
    for (const route of listApiRoutes(app)) {
      const schema = schemas.get(`${route.method} ${route.url}`);
      assert.ok(schema, `${route.method} ${route.url} was not seen registered`);
      const operation = operationOf(doc, route);
      assert.ok(operation);
      const where = `${route.method} ${route.url}`;
      assert.equal(operation.summary, schema.summary, where);
      const parameters = (operation.parameters ?? []).map((p) => `${p.in} ${p.name}`).sort();
      const expected = [
        ...Object.keys(schema.params?.properties ?? {}).map((name) => `path ${name}`),
        ...Object.keys(schema.querystring?.properties ?? {}).map((name) => `query ${name}`),
      ].sort();
      assert.deepEqual(parameters, expected, where);
      if (schema.body === undefined) assert.equal(operation.requestBody, undefined, where);
      else assert.ok(operation.requestBody?.content?.['application/json']?.schema, `${where}: no JSON request body`);
      for (const status of Object.keys(schema.response ?? {})) {
        assert.ok(operation.responses?.[status], `${where}: no ${status} response`);
      }
    }
  });

  test('every operation has an operationId a person would choose: the name of its definition in @portal/api, each once', () => {
    const ids: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        assert.match(operation.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method.toUpperCase()} ${path}`);
        ids.push(operation.operationId as string);
      }
    }
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'operationIds used twice');
    const idOf = (method: string, url: string) => operationOf(doc, { method, url: url === INTROSPECTION_PATH ? url : `${API_PREFIX}${url}` })?.operationId;
    assert.equal(idOf('GET', api.getAccount.path), 'getAccount');
    assert.equal(idOf('POST', api.lockAccount.path), 'lockAccount');
    assert.equal(idOf('POST', api.createToken.path), 'createToken');
    assert.equal(idOf('GET', '/requests/unlock'), 'listUnlockRequests');
    assert.equal(idOf('GET', '/requests/profilechange/:id'), 'getEmailChangeRequest');
    assert.equal(idOf('POST', '/requests/new/:id/approved'), 'approveNewAccountRequest');
    assert.equal(idOf('POST', '/requests/membership/:id/denied'), 'denyMembershipRequest');
    assert.equal(idOf('POST', '/requests/new/:id/incomplete'), 'requestMoreInformationOnNewAccountRequest');
    assert.equal(idOf('GET', '/openapi.json'), 'getOpenApiDocument');
    assert.equal(idOf('POST', INTROSPECTION_PATH), 'introspectToken');
  });

  test('says how to authenticate: the session cookie, the anti-forgery header where x-xsrf, nothing for a public call without it, Basic for introspection', () => {
    const schemes = doc.components?.securitySchemes ?? {};
    assert.deepEqual(schemes.session, { type: 'apiKey', in: 'cookie', name: 'portal-session', description: schemes.session?.description });
    assert.deepEqual(schemes.secureSession, { type: 'apiKey', in: 'cookie', name: '__Host-portal-session', description: schemes.secureSession?.description });
    assert.deepEqual(schemes.xsrf, { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN', description: schemes.xsrf?.description });
    assert.deepEqual(schemes.serviceCredential, { type: 'http', scheme: 'basic', description: schemes.serviceCredential?.description });
    for (const route of listApiRoutes(app)) {
      const operation = operationOf(doc, route);
      const where = `${route.method} ${route.url}`;
      const header = route.xsrf ? { xsrf: [] } : {};
      const expected = route.access.kind === 'public' && !route.xsrf ? [] : [{ session: [], ...header }, { secureSession: [], ...header }];
      assert.deepEqual(operation?.security, expected, where);
    }
    assert.deepEqual(operationOf(doc, { method: 'POST', url: '/accounts/rest/sessions' })?.security, [], 'sign-in needs nothing');
    assert.deepEqual(operationOf(doc, { method: 'GET', url: `${API_PREFIX}/accounts/:username` })?.security, [{ session: [], xsrf: [] }, { secureSession: [], xsrf: [] }]);
    assert.deepEqual(operationOf(doc, { method: 'POST', url: INTROSPECTION_PATH })?.security, [{ serviceCredential: [] }]);
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This portal' }]);
    assert.equal(doc.info.license?.name, 'Proprietary');
  });

  test('redocly lint (its recommended rules, offline) finds no error in the document the server serves', async () => {
    const require = createRequire(import.meta.url);
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const dir = mkdtempSync(join(tmpdir(), 'portal-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [cli, 'lint', file, '--format=json', '--max-problems=1000'],
          // No telemetry, no update check: nothing leaves the machine.
          { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[] };
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
      assert.deepEqual(errors, [], run.stderr);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
