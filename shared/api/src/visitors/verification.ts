/**
 * The verification flow (server/docs/self-service.md, "The verification flow"), public and
 * exempt from the anti-forgery check (spec section 7). The code travels as `Authorization:
 * Bearer <code>` on every call after the first.
 */

/** What a visitor's call may answer besides 200. */
export const VISITOR_ERRORS = [401, 403, 404, 409, 429] as const;
