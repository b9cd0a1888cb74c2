/** The error body of every failed API call (spec section 8): an error text and the numeric code. */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.Integer() },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;

export function errorBody(code: number, error: string): ErrorBody {
  return { error, code };
}

/**
 * An error a service throws on purpose; its status and message are shown to the caller as they
 * are. Anything else that is thrown becomes a 500 'Internal server error'.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
  }
}
