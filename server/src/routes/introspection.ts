/**
 * POST /oauth2/introspect (RFC 7662; server/docs/tokens.md): the platform's services ask whether
 * a token is active. Not part of the browser's API under /accounts/rest: no session, no
 * anti-forgery header; a service authenticates with its own credential (HTTP Basic) and sends
 * `token=…` form-encoded. Answered only when the portal issues the tokens itself.
 */
import type { FastifyPluginAsync } from 'fastify';
import { answerIntrospection } from '../services/tokens/introspection.js';

export const INTROSPECTION_PATH = '/oauth2/introspect';

export const introspectionRoutes: FastifyPluginAsync = async (app) => {
  if (app.tokenIssuer.name !== 'embedded') return;
  const clock = () => app.security.clock;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(INTROSPECTION_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const body = request.body as Record<string, unknown> | undefined;
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true;
    const token = form && typeof body?.token === 'string' ? body.token : undefined;
    const answer = await answerIntrospection(app.db, request.headers.authorization, token, clock().now());
    if (answer === 'unauthenticated') {
      reply.header('www-authenticate', 'Basic realm="token introspection", charset="UTF-8"');
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Unknown service or wrong secret.' });
    }
    if (answer === 'no token') {
      return reply.code(400).send({ error: 'invalid_request', error_description: 'Send token=… as application/x-www-form-urlencoded.' });
    }
    return answer;
  });
};
