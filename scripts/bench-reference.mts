// npm run bench's reference for the session check: a bare Fastify server with one route,
// GET /accounts/rest/sessions/current, doing the portal's own session lookup (the same
// resolveSession of server/src/services/sessions.ts: the session row, its account and roles in one
// query, the expiry checks, last_seen_at written when its second moves) on the same database
// (DATABASE_URL, a pool of the portal's size), answering the same JSON. What it leaves out is what
// the portal adds around the lookup: its plugins and hooks, the anti-forgery check, the security
// headers, the logger, the response schema. The bench runs it with `node --import tsx` from server/.
// A second route, GET /accounts/rest/forward-auth/{service}, does forward auth's own work the same
// way (decideForwardAuth: the same statements, the same holds kept between calls, the same identity
// headers), so that the bench can tell what forward auth costs from what the portal adds around it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openPostgres } from '../server/src/db/postgres.js';
import { systemClock } from '../server/src/services/clock.js';
import { createSecurityContext, DEFAULT_SECURITY_SETTINGS } from '../server/src/services/security-context.js';
import { decideForwardAuth } from '../server/src/services/service-sign-in/forward-auth.js';
import { GrantCache } from '../server/src/services/service-sign-in/grant-cache.js';
import { resolveSession } from '../server/src/services/sessions.js';
// @portal/api is the server's dependency: its source, read where the server reads it.
import { FORWARD_AUTH_HEADERS, SERVICES } from '../shared/api/src/index.js';

// Fastify is the server's dependency (pnpm keeps it under server/node_modules).
const requireServer = createRequire(join(import.meta.dirname, '..', 'server', 'package.json'));
const Fastify = requireServer('fastify') as (options: object) => FastifyInstance;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const db = openPostgres({ connectionString: databaseUrl });
const context = createSecurityContext(db, systemClock, DEFAULT_SECURITY_SETTINGS);
const grants = new GrantCache();
const COOKIE = /(?:^|;\s*)portal-session=([^;]*)/;

const app = Fastify({ logger: false });
app.get('/accounts/rest/sessions/current', async (request, reply) => {
  const id = COOKIE.exec(request.headers.cookie ?? '')?.[1];
  const session = await resolveSession(context, id);
  if (!session?.account) return reply.code(401).send({ error: 'Not signed in' });
  return { username: session.account.username, permissions: session.account.permissions };
});

app.get<{ Params: { service: string } }>('/accounts/rest/forward-auth/:service', async (request, reply) => {
  const service = SERVICES.find((id) => id === request.params.service);
  if (service === undefined) return reply.code(404).send({ error: 'Not found' });
  const id = COOKIE.exec(request.headers.cookie ?? '')?.[1];
  const decision = await decideForwardAuth(context, grants, id, service);
  if (decision.outcome !== 'allowed') return reply.code(decision.outcome === 'sign-in' ? 401 : 403).send({ error: decision.message });
  const { identity } = decision;
  reply.header(FORWARD_AUTH_HEADERS.user, identity.username);
  reply.header(FORWARD_AUTH_HEADERS.email, identity.email);
  reply.header(FORWARD_AUTH_HEADERS.name, identity.name);
  reply.header(FORWARD_AUTH_HEADERS.groups, identity.groups.join(','));
  return { ok: true };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${new URL(address).port}`);
process.on('SIGTERM', () => {
  void app.close().then(() => db.close()).then(() => process.exit(0));
});
