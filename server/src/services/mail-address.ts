/**
 * What the portal accepts as a mail address: exactly one plain address (local@domain), without
 * a display name, a list, spaces or control characters, so that it can never smuggle a second
 * recipient or a header into a mail.
 */
const MAIL_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** At most 254 characters (RFC 5321's path limit less the angle brackets). */
export const MAX_MAIL_ADDRESS_LENGTH = 254;

export function isMailAddress(text: string): boolean {
  return text.length <= MAX_MAIL_ADDRESS_LENGTH && MAIL_ADDRESS.test(text);
}
