/** pino options for Fastify's logger: JSON lines, secrets redacted wherever they are logged. */
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.js';

export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'req.body.token',
  'req.body.password',
  'res.headers["set-cookie"]',
  // Objects logged directly, e.g. log.info({ body }) or log.info({ headers }).
  'body.token',
  'body.password',
  'headers.cookie',
  'headers.authorization',
  'headers["x-xsrf-token"]',
];

export const REDACTED = '[redacted]';

/** Where log lines go instead of stdout (tests collect them). */
export interface LogStream {
  write(line: string): void;
}

export function loggerOptions(level: LogLevel, stream?: LogStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    ...(stream === undefined ? {} : { stream }),
  };
}
