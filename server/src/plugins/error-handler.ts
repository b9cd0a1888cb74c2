/**
 * One place that turns errors into responses. Validation errors → 400 in words a person
 * understands, with the field each is about (a path parameter that fails its schema names nothing
 * that exists: 404, as the screens show their not-found view; a schema's own words, such as "params/id must be
 * integer", mean nothing to a person on a screen);
 * the errors services throw on purpose (DomainError: its kind gives the status, here and nowhere
 * else), a route's ApiError, Fastify's own client errors (bad JSON, wrong content type, body
 * too large, a malformed URL) and the file sender's (a Range it cannot satisfy) → their status; anything else → 500 'Internal server error'. A response never
 * carries a stack trace or an internal message; the error is logged instead.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { RULE_MESSAGES } from '@portal/api';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
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
  UnavailableError,
} from '../errors.js';
import { securityHeaders } from './security-headers.js';
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
  [UnavailableError, 503],
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

/**
 * Fastify's own client errors (bad JSON, wrong content type, body too large, a malformed URL), and
 * the client errors the static file sender throws as http-errors marked `expose` (a Range header
 * that cannot be satisfied: 416, not a 500).
 */
function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined || status < 400 || status >= 500 || typeof error !== 'object' || error === null) return false;
  const { code, expose } = error as { code?: unknown; expose?: unknown };
  return (typeof code === 'string' && code.startsWith('FST_')) || expose === true;
}

export function sendError(reply: FastifyReply, status: number, message: string, fields?: FieldErrors): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(status, message, fields));
}

/** The words a schema failure is told in (never the validator's own text). */
export const VALIDATION_MESSAGES = {
  required: 'This field is required.',
  invalid: 'This value is not valid.',
  atLeast: (min: number) => `Must be at least ${min}`,
  atMost: (max: number) => `Must be at most ${max}`,
  unknownField: (field: string) => `The field ${field} is not accepted.`,
  request: 'The request is not valid.',
} as const;

/** Names shown before a message that no form field displays ('Search term: …'). */
const FIELD_LABELS: Readonly<Record<string, string>> = { term: 'Search term', id: 'Username or email', botChallengeResponse: 'Security challenge' };

const labelOf = (field: string) => FIELD_LABELS[field] ?? `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')}`;

/** '/address/street' → street, '/supervisor/first_name' → supervisor_first_name: the forms' flat names (self-service.md). */
function flatName(segments: readonly string[]): string {
  const parts = segments[0] === 'address' && segments.length > 1 ? segments.slice(1) : segments;
  return parts.join('_');
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  let value = data;
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** One schema failure as a field and a message in words. */
function describeFailure(failure: FastifySchemaValidationError, data: unknown): { field: string | undefined; message: string } {
  const segments = failure.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = failure.params as Record<string, unknown>;
  const limit = typeof params.limit === 'number' ? params.limit : undefined;
  const field = segments.length > 0 ? flatName(segments) : undefined;
  switch (failure.keyword) {
    case 'required':
      return { field: flatName([...segments, String(params.missingProperty)]), message: VALIDATION_MESSAGES.required };
    case 'additionalProperties':
      return { field: undefined, message: VALIDATION_MESSAGES.unknownField(flatName([...segments, String(params.additionalProperty)])) };
    case 'maxLength': {
      const value = valueAt(data, segments);
      return { field, message: RULE_MESSAGES.lessThan(limit ?? 0, typeof value === 'string' ? value.length : (limit ?? 0) + 1) };
    }
    case 'minLength':
      return { field, message: limit !== undefined && limit <= 1 ? VALIDATION_MESSAGES.required : `Must be at least ${limit ?? 0} characters` };
    case 'minimum':
      return { field, message: VALIDATION_MESSAGES.atLeast(limit ?? 0) };
    case 'maximum':
      return { field, message: VALIDATION_MESSAGES.atMost(limit ?? 0) };
    default:
      return { field, message: VALIDATION_MESSAGES.invalid };
  }
}

/** A schema failure as the answer a person can read: 404 for the path, else 400 naming each field. */
function sendValidationError(reply: FastifyReply, request: FastifyRequest, error: FastifyError): FastifyReply {
  if (error.validationContext === 'params') return sendError(reply, 404, 'Not found');
  const data = error.validationContext === 'body' ? request.body : error.validationContext === 'querystring' ? request.query : undefined;
  const described = (error.validation ?? []).map((failure) => describeFailure(failure, data));
  const first = described[0];
  if (!first) return sendError(reply, 400, VALIDATION_MESSAGES.request);
  const fields: Record<string, string> = {};
  for (const { field, message } of described) if (field !== undefined && !(field in fields)) fields[field] = message;
  const message = first.field === undefined ? first.message : `${labelOf(first.field)}: ${first.message}`;
  return sendError(reply, 400, message, Object.keys(fields).length > 0 ? fields : undefined);
}

export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if ('validation' in error && error.validation) {
    request.log.info({ err: error }, 'request failed validation');
    return sendValidationError(reply, request, error);
  }
  const status = httpStatusOf(error);
  if (status !== undefined && (error instanceof DomainError || error instanceof ApiError)) {
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, status, error.message, error.fields);
  }
  if (isClientError(error)) {
    const status = statusOf(error) ?? 400;
    request.log.info({ err: error }, 'bad request');
    return sendError(reply, status, STATUS_CODES[status] ?? 'Bad Request');
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 500, 'Internal server error');
}

/**
 * Node's 'clientError' (Fastify's clientErrorHandler): a request its HTTP parser refuses, answered
 * on the raw socket as Fastify's default does (408 for a timeout, 431 for headers too large, else
 * 400), but in the one error shape and with the security headers every answer carries.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify(errorBody(status, reason));
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...securityHeaders(socket instanceof TLSSocket && socket.encrypted),
  };
  this.log.trace({ err: error }, 'client error');
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`);
  socket.destroy(error);
}

export function handleNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'Not found');
}

export const errorHandlerPlugin = unencapsulated(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
}, 'error-handler');
