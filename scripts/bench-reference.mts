// npm run bench's reference for the session check: a bare Fastify server with one route,
// GET /accounts/rest/sessions/current, doing the portal's own session lookup (the same
// resolveSession of server/src/services/sessions.ts: the session row, its account and roles in one
// query, the expiry checks, last_seen_at written when its second moves) on the same database
// (DATABASE_URL, a pool of the portal's size), answering the same JSON. What it leaves out is what
// the portal adds around the lookup: its plugins and hooks, the anti-forgery check, the security
// headers, the logger, the response schema. The bench runs it with `node --import tsx` from server/.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openPostgres } from '../server/src/db/postgres.js';
import { systemClock } from '../server/src/services/clock.js';
import { createSecurityContext, DEFAULT_SECURITY_SETTINGS } from '../server/src/services/security-context.js';
import { resolveSession } from '../server/src/services/sessions.js';

// Fastify is the server's dependency (pnpm keeps it under server/node_modules).
const requireServer = createRequire(join(import.meta.dirname, '..', 'server', 'package.json'));
const Fastify = requireServer('fastify') as (options: object) => FastifyInstance;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const db = openPostgres({ connectionString: databaseUrl });
const context = createSecurityContext(db, systemClock, DEFAULT_SECURITY_SETTINGS);
const COOKIE = /(?:^|;\s*)portal-session=([^;]*)/;

const app = Fastify({ logger: false });
app.get('/accounts/rest/sessions/current', async (request, reply) => {
  const id = COOKIE.exec(request.headers.cookie ?? '')?.[1];
  const session = await resolveSession(context, id);
  if (!session?.account) return reply.code(401).send({ error: 'Not signed in' });
  return { username: session.account.username, permissions: session.account.permissions };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${new URL(address).port}`);
process.on('SIGTERM', () => {
  void app.close().then(() => db.close()).then(() => process.exit(0));
});
