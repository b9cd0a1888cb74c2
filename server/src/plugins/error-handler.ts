/**
 * One place that turns errors into responses. Validation errors → 400 with a readable message;
 * errors a service throws on purpose (ApiError) and Fastify's own client errors (bad JSON, wrong
 * content type, body too large) → their status; anything else → 500 'Internal server error'.
 * A response never carries a stack trace or an internal message; the error is logged instead.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, type FieldErrors } from '../errors.js';
import { unencapsulated } from './unencapsulated.js';

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
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, error.statusCode, error.message, error.fields);
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
