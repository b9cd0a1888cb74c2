/** The error body of every failed API call (spec section 8): an error text and the numeric code. */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.Integer(),
    /** A form's failing fields (flat field name → the spec's message), when the error is about fields. */
    fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;

export type FieldErrors = Readonly<Record<string, string>>;

export function errorBody(code: number, error: string, fields?: FieldErrors): ErrorBody {
  return fields && Object.keys(fields).length > 0 ? { error, code, fields: { ...fields } } : { error, code };
}

/**
 * An error a service throws on purpose; its status and message are shown to the caller as they
 * are. Anything else that is thrown becomes a 500 'Internal server error'.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The failing fields of a form, each with its message (shown beside the field). */
  readonly fields: FieldErrors | undefined;
  constructor(statusCode: number, message: string, fields?: FieldErrors) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.fields = fields;
  }
}

/**
 * A 400 (or another status) about a form's fields: the message is the first field's message, so
 * a caller that shows only `error` still shows something true.
 */
export function fieldError(fields: FieldErrors, statusCode = 400): ApiError {
  const first = Object.values(fields)[0] ?? 'Bad Request';
  return new ApiError(statusCode, first, fields);
}
