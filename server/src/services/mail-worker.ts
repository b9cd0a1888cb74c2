/**
 * The mail worker: delivers the outbox over SMTP (SMTP_URL). Every PORTAL_MAIL_POLL_MS it claims
 * the unsent mails that are due (repositories/mail.ts: one UPDATE over a FOR UPDATE SKIP LOCKED
 * select, which PGlite runs as well, so there is one code path), sends each with nodemailer and
 * marks it sent. A failed attempt is counted, its error kept (without secrets) and the mail tried
 * again after an exponential back-off (30 s, 1 min, 2 min … capped at 15 min): a mail server that
 * is down delays mail, it never loses it. Nothing here runs in a user's request.
 */
import nodemailer from 'nodemailer';
import type { Database } from '../db/database.js';
import { claimDueMails, markMailFailed, markMailSent, type DueMail } from '../repositories/mail.js';
import { systemClock, type Clock } from './clock.js';

export const FIRST_RETRY_DELAY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 15 * 60_000;
/** A claimed mail is not claimed again for this long (a worker that died while sending). */
export const CLAIM_LEASE_MS = 15 * 60_000;
const BATCH_SIZE = 10;
const MAX_ERROR_LENGTH = 1000;

/** The wait after the n-th failed attempt (n ≥ 1): doubling from 30 s, at most 15 minutes. */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** exponent, MAX_RETRY_DELAY_MS);
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A text (an error message) without the password of an SMTP URL, in any of its forms. */
export function withoutSecrets(text: string, smtpUrl: string): string {
  return redact(text, secretsOf(smtpUrl));
}

/** Replaces every secret in a text. */
function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === '') continue;
    result = result.split(secret).join('***');
  }
  return result;
}

function secretsOf(url: string): string[] {
  try {
    const { password, username } = new URL(url);
    const decoded = (value: string) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    };
    // The password, and the URL's user information as a whole, in both forms.
    return [password, decoded(password), username && password ? `${username}:${password}` : '', url].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  } catch {
    return [url];
  }
}

/** SMTP with nodemailer: smtp:// (STARTTLS when offered) or smtps://; errors never carry the URL's password. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const secrets = secretsOf(url);
  return {
    async send(mail) {
      try {
        await transporter.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, disableFileAccess: true, disableUrlAccess: true });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const message = redact((error as Error).message ?? String(error), secrets);
        throw new Error(typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message);
      }
    },
    close() {
      transporter.close();
    },
  };
}

export interface MailWorkerOptions {
  db: Database;
  transport: MailTransport;
  /** The sender of every mail. */
  from: string;
  clock?: Clock;
  /** Milliseconds between two looks at the outbox. */
  pollMs: number;
  /** Told about a failed look at the outbox (e.g. the database is down); the worker goes on. */
  onError?: (error: unknown) => void;
  /** Told about each failed delivery (it will be retried). */
  onDeliveryFailed?: (failure: { id: number; attempts: number; error: string; nextAttemptAt: Date }) => void;
}

export interface DeliveryRun {
  sent: number;
  failed: number;
}

export interface MailWorker {
  /** Starts polling (the first look at once). */
  start(): void;
  /** One look at the outbox: claims the due mails and tries each once. */
  runOnce(): Promise<DeliveryRun>;
  /** Stops polling, waits for the delivery under way and closes the transport. Safe to call twice. */
  stop(): Promise<void>;
}

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const clock = options.clock ?? systemClock;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<DeliveryRun> = Promise.resolve({ sent: 0, failed: 0 });
  let started = false;
  let stopped = false;
  let stopping: Promise<void> | undefined;

  async function deliver(mail: DueMail): Promise<boolean> {
    try {
      await options.transport.send({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    } catch (error) {
      const text = ((error as Error).message || 'unknown error').replace(/\s+/g, ' ').slice(0, MAX_ERROR_LENGTH);
      const attempts = mail.attempts + 1;
      const nextAttemptAt = new Date(clock.now().getTime() + retryDelayMs(attempts));
      await markMailFailed(options.db, mail.id, { error: text, nextAttemptAt });
      options.onDeliveryFailed?.({ id: mail.id, attempts, error: text, nextAttemptAt });
      return false;
    }
    await markMailSent(options.db, mail.id, clock.now());
    return true;
  }

  async function run(): Promise<DeliveryRun> {
    const now = clock.now();
    const mails = await claimDueMails(options.db, now, new Date(now.getTime() + CLAIM_LEASE_MS), BATCH_SIZE);
    const result: DeliveryRun = { sent: 0, failed: 0 };
    for (const mail of mails) {
      if (await deliver(mail)) result.sent++;
      else result.failed++;
    }
    return result;
  }

  function runOnce(): Promise<DeliveryRun> {
    // One run at a time: a run waits for the one under way.
    const next = current.catch(() => undefined).then(run);
    current = next;
    return next;
  }

  function schedule(delay: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      runOnce()
        .then(async (result) => {
          // A full batch: there may be more due at once.
          return result.sent + result.failed >= BATCH_SIZE;
        })
        .catch((error: unknown) => {
          options.onError?.(error);
          return false;
        })
        .then((more) => schedule(more ? 0 : options.pollMs));
    }, delay);
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      schedule(0);
    },
    runOnce,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        await current.catch(() => undefined);
        options.transport.close();
      })();
      return stopping;
    },
  };
}
