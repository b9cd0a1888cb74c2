/**
 * What the portal accepts as a mail address: exactly one plain address (local@domain), without
 * a display name, a list, spaces or control characters, so that it can never smuggle a second
 * recipient or a header into a mail. The rule lives in shared, where the forms use it too.
 */
export { isMailAddress, MAX_MAIL_ADDRESS_LENGTH } from '@portal/api';
