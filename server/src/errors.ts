/**
 * The error body of every failed API call (spec section 8), and the errors thrown on purpose.
 *
 * Services speak the domain: they throw a DomainError that says what went wrong (not found, a
 * conflict, not allowed …) with the caller's message, word for word, and never an HTTP status.
 * plugins/error-handler.ts is the one place that turns each kind into its status.
 */
import { ErrorBody } from '@portal/api';

/** The body's schema is the API's (one definition, in @portal/api common.ts). */
export { ErrorBody };

export type FieldErrors = Readonly<Record<string, string>>;

export function errorBody(code: number, error: string, fields?: FieldErrors): ErrorBody {
  return fields && Object.keys(fields).length > 0 ? { error, code, fields: { ...fields } } : { error, code };
}

/**
 * An error thrown on purpose: its message (and a form's failing fields, each with its message,
 * shown beside the field) are for the caller as they are. Anything else that is thrown is an
 * internal error, and the caller learns nothing of it.
 */
export abstract class DomainError extends Error {
  /** The failing fields of a form, each with its message. */
  readonly fields: FieldErrors | undefined;
  constructor(message: string, fields?: FieldErrors) {
    super(message);
    this.name = new.target.name;
    this.fields = fields;
  }

  /**
   * An error about a form's fields: the message is the first field's, so a caller that shows
   * only the message still shows something true.
   */
  static ofFields<E extends DomainError>(this: new (message: string, fields?: FieldErrors) => E, fields: FieldErrors): E {
    return new this(Object.values(fields)[0] ?? 'Bad Request', fields);
  }
}

/** The input breaks a rule (a form's fields, when given: InvalidInputError.ofFields). */
export class InvalidInputError extends DomainError {}

/** Who the caller is was not established: not signed in, wrong credentials, a wrong or dead verification code. */
export class NotSignedInError extends DomainError {}

/** The caller may not do this. */
export class ForbiddenError extends DomainError {}

/** What the call names does not exist (or the caller may not know that it does). */
export class NotFoundError extends DomainError {}

/** The call clashes with the state of things: taken, pending already, decided already, in the wrong state. */
export class ConflictError extends DomainError {}

/** The account is locked. */
export class LockedError extends DomainError {}

/** Too many calls of a kind in a while. */
export class TooManyRequestsError extends DomainError {}

/** A system the portal relies on (the artifact repository) did not answer; the message says which, without secrets. */
export class UnavailableError extends DomainError {}

/**
 * HTTP only: an error with a status of its own, for a route's concern that the domain does not
 * have. Services never throw it.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The failing fields of a form, each with its message. */
  readonly fields: FieldErrors | undefined;
  constructor(statusCode: number, message: string, fields?: FieldErrors) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.fields = fields;
  }
}
