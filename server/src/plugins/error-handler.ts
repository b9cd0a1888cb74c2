/**
 * One place that turns errors into responses. Validation errors → 400 with a readable message;
 * the errors services throw on purpose (DomainError: its kind gives the status, here and nowhere
 * else), a route's ApiError and Fastify's own client errors (bad JSON, wrong content type, body
 * too large) → their status; anything else → 500 'Internal server error'. A response never
 * carries a stack trace or an internal message; the error is logged instead.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  ConflictError,
  DomainError,
  errorBody,
  ForbiddenError,
  InvalidInputError,
  LockedError,
  NotFoundError,
  NotSignedInError,
  TooManyRequestsError,
  type FieldErrors,
} from '../errors.js';
import { unencapsulated } from './unencapsulated.js';

/** The HTTP status of each kind of domain error. */
const DOMAIN_STATUSES: readonly (readonly [abstract new (...args: never[]) => DomainError, number])[] = [
  [InvalidInputError, 400],
  [NotSignedInError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [LockedError, 423],
  [TooManyRequestsError, 429],
];

/** The status an error thrown on purpose answers with (a domain error's by its kind); undefined for anything else. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.statusCode;
  if (error instanceof DomainError) return DOMAIN_STATUSES.find(([kind]) => error instanceof kind)?.[1];
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

function isFastifyClientError(error: unknown): boolean {
  const status = statusOf(error);
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return status !== undefined && status >= 400 && status < 500 && typeof code === 'string' && code.startsWith('FST_');
}

export function sendError(reply: FastifyReply, status: number, message: string, fields?: FieldErrors): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(status, message, fields));
}

export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if ('validation' in error && error.validation) {
    request.log.info({ err: error }, 'request failed validation');
    return sendError(reply, 400, error.message);
  }
  const status = httpStatusOf(error);
  if (status !== undefined && (error instanceof DomainError || error instanceof ApiError)) {
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, status, error.message, error.fields);
  }
  if (isFastifyClientError(error)) {
    const status = statusOf(error) ?? 400;
    request.log.info({ err: error }, 'bad request');
    return sendError(reply, status, STATUS_CODES[status] ?? 'Bad Request');
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 500, 'Internal server error');
}

export function handleNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'Not found');
}

export const errorHandlerPlugin = unencapsulated(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
}, 'error-handler');
