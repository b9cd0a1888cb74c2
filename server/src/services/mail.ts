/**
 * Mail: every mail goes through the outbox (table mail_outbox). `enqueueMail` is called inside
 * the transaction of the change that causes the mail, so a change that is rolled back sends
 * nothing, and a change that is committed always has its mail; the mail worker
 * (services/mail-worker.ts) delivers it later. A mail server that is down delays mail; it never
 * loses it or fails the user's action.
 */
import type { Queryable } from '../db/database.js';
import { findMailsTo, insertMail } from '../repositories/mail.js';
import { systemClock, type Clock } from './clock.js';
import { isMailAddress } from './mail-address.js';

export { isMailAddress } from './mail-address.js';

export const MAX_SUBJECT_LENGTH = 500;
export const MAX_TEXT_LENGTH = 100_000;

/** A mail refused before it is queued (a bad address, a header injection …). */
export class MailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailError';
  }
}

export interface Mail {
  to: string;
  subject: string;
  /** The plain-text body. */
  text: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** Throws MailError unless the mail is one address, a one-line subject and a text. */
export function checkMail(mail: Mail): void {
  if (typeof mail.to !== 'string' || typeof mail.subject !== 'string' || typeof mail.text !== 'string') {
    throw new MailError('A mail needs a recipient, a subject and a text.');
  }
  // CR/LF (or any control character) in a header would let its value add headers or recipients.
  if (CONTROL.test(mail.to)) throw new MailError('The recipient of a mail must not contain line breaks or control characters.');
  if (CONTROL.test(mail.subject)) throw new MailError('The subject of a mail must not contain line breaks or control characters.');
  if (!isMailAddress(mail.to.trim())) throw new MailError('The recipient of a mail must be one email address.');
  if (mail.subject.trim() === '') throw new MailError('A mail needs a subject.');
  if (mail.subject.length > MAX_SUBJECT_LENGTH) throw new MailError(`The subject of a mail is longer than ${MAX_SUBJECT_LENGTH} characters.`);
  if (mail.text.length > MAX_TEXT_LENGTH) throw new MailError(`The text of a mail is longer than ${MAX_TEXT_LENGTH} characters.`);
}

/**
 * Queues a mail in the outbox. Call it with the transaction of the change that causes the mail
 * (never a separate one): the mail is committed, or rolled back, with the change. Returns its id.
 */
export async function enqueueMail(tx: Queryable, mail: Mail, clock: Clock = systemClock): Promise<number> {
  checkMail(mail);
  return insertMail(tx, { to: mail.to.trim(), subject: mail.subject, text: mail.text, createdAt: clock.now() });
}

/** A mail as `portal mail list` shows it (and prints it with --json). */
export interface ListedMail {
  to: string;
  subject: string;
  text: string;
  /** ISO 8601 */
  created_at: string;
  /** ISO 8601; null while queued. */
  sent_at: string | null;
}

/** The mails sent (or queued) to an address, any letter case, newest first. */
export async function listMail(db: Queryable, address: string): Promise<ListedMail[]> {
  const mails = await findMailsTo(db, address.trim());
  return mails.map((mail) => ({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    created_at: mail.createdAt.toISOString(),
    sent_at: mail.sentAt === null ? null : mail.sentAt.toISOString(),
  }));
}
