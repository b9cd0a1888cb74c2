/**
 * POST /oauth2/introspect (RFC 7662; server/docs/tokens.md): the platform's services ask whether
 * a token is active. Not part of the browser's API under /accounts/rest: no session, no
 * anti-forgery header; a service authenticates with its own credential (HTTP Basic) and sends
 * `token=…` form-encoded. Answered only when the portal issues the tokens itself.
 */
import type { FastifyPluginAsync } from 'fastify';
import { answerIntrospection } from '../services/tokens/introspection.js';
import { basicCredential } from './basic-credential.js';

export const INTROSPECTION_PATH = '/oauth2/introspect';

const OAUTH_ERROR = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
} as const;

/**
 * How the OpenAPI document (plugins/openapi.ts) describes this call, beside the route it
 * describes: RFC 7662's form and answers, a service's Basic credential. Only the document uses
 * it; the handler below checks the request itself, and answers RFC 7662's error shape.
 */
export const INTROSPECTION_OPERATION = {
  operationId: 'introspectToken',
  summary: "A platform service asks whether an artifact-repository token is active (RFC 7662), with its own credential",
  consumes: ['application/x-www-form-urlencoded'],
  body: {
    type: 'object',
    required: ['token'],
    properties: { token: { type: 'string', description: 'The token the service was shown' } },
  },
  security: [{ serviceCredential: [] }],
  response: {
    200: {
      description: '{ active: false } for any token that is not active; else what it grants',
      type: 'object',
      required: ['active'],
      properties: {
        active: { type: 'boolean' },
        scope: { type: 'string', description: 'The scopes still held, space-separated' },
        username: { type: 'string' },
        sub: { type: 'string' },
        client_id: { type: 'string', description: "The asking service's name" },
        token_type: { type: 'string' },
        exp: { type: 'integer' },
        iat: { type: 'integer' },
        jti: { type: 'string' },
      },
    },
    400: { ...OAUTH_ERROR, description: 'invalid_request: no token=… form' },
    401: { ...OAUTH_ERROR, description: 'invalid_client: an unknown service or a wrong secret' },
  },
};

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
    // No Basic header, or one that is not a credential, is answered like a wrong secret: the
    // service is asked only about a service name and a secret.
    const credential = basicCredential(request.headers.authorization);
    const answer = credential === undefined ? 'unauthenticated' : await answerIntrospection(app.db, credential, token, clock().now());
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
