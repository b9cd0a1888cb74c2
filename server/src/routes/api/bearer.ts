/** The visitors' verification code travels as `Authorization: Bearer <code>`; the routes read it here and hand the services the code. */
import type { FastifyRequest } from 'fastify';

const BEARER = /^Bearer[ ]+([^ ]+)[ ]*$/i;

/** The credential of the request's `Authorization: Bearer <credential>` header; undefined when there is no such header. */
export function bearerCode(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  const match = authorization === undefined ? null : BEARER.exec(authorization);
  return match?.[1];
}
