/**
 * Requests a signed-in user makes about their own account (server/docs/self-service.md, "Signed
 * in" and "Renewal"): an email change (also by a surrogate), the email-exists check, an
 * authentication change either way, and the annual renewal.
 */

/** 'Reason optional' is sent for a change to CAC without a reason (spec section 5). */
export const REASON_OPTIONAL = 'Reason optional';

/** The reason the renewal sends (spec section 9). */
export const RENEWAL_REASON = 'Certifying';
