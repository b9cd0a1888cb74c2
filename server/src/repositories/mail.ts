/** SQL for the mail outbox (migration 0004). */
import type { Queryable } from '../db/database.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

/** A mail claimed for delivery. */
export interface DueMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  attempts: number;
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

interface OutboxRow {
  id: string | number;
  to_address: string;
  subject: string;
  body: string;
  created_at: Date | string;
  attempts: number;
  next_attempt_at: Date | string;
  last_error: string | null;
  sent_at: Date | string | null;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function outboxMail(row: OutboxRow): OutboxMail {
  return {
    id: Number(row.id),
    to: row.to_address,
    subject: row.subject,
    text: row.body,
    createdAt: date(row.created_at),
    attempts: Number(row.attempts),
    nextAttemptAt: date(row.next_attempt_at),
    lastError: row.last_error,
    sentAt: row.sent_at === null ? null : date(row.sent_at),
  };
}

/** Queues a mail, due at once; returns its id. */
export async function insertMail(db: Queryable, mail: NewMail): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at)
     values ($1, $2, $3, $4, $4) returning id`,
    [mail.to, mail.subject, mail.text, mail.createdAt],
  );
  return Number(rows[0]?.id);
}

/**
 * Claims up to `limit` unsent mails due at `now`, in one statement: their next attempt moves to
 * `leaseUntil`, so no other worker takes them meanwhile (FOR UPDATE SKIP LOCKED: workers claiming
 * at the same moment take different mails), and a worker that dies while sending leaves them to
 * be retried once the lease has passed.
 */
export async function claimDueMails(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<DueMail[]> {
  const { rows } = await db.query<{ id: string | number; to_address: string; subject: string; body: string; attempts: number }>(
    `update mail_outbox set next_attempt_at = $2
      where id in (select id from mail_outbox
                    where sent_at is null and next_attempt_at <= $1
                    order by next_attempt_at, id
                    limit $3
                    for update skip locked)
      returning id, to_address, subject, body, attempts`,
    [now, leaseUntil, limit],
  );
  return rows
    .map((row) => ({ id: Number(row.id), to: row.to_address, subject: row.subject, text: row.body, attempts: Number(row.attempts) }))
    .sort((a, b) => a.id - b.id);
}

export async function markMailSent(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query('update mail_outbox set sent_at = $2, last_error = null where id = $1 and sent_at is null', [id, at]);
}

/** Records a failed attempt and when to try again. */
export async function markMailFailed(db: Queryable, id: number, failure: { error: string; nextAttemptAt: Date }): Promise<void> {
  await db.query(
    'update mail_outbox set attempts = attempts + 1, last_error = $2, next_attempt_at = $3 where id = $1 and sent_at is null',
    [id, failure.error, failure.nextAttemptAt],
  );
}

/** The mails to an address (any letter case), newest first. */
export async function findMailsTo(db: Queryable, address: string): Promise<OutboxMail[]> {
  const { rows } = await db.query<OutboxRow>(
    `select id, to_address, subject, body, created_at, attempts, next_attempt_at, last_error, sent_at
       from mail_outbox where lower(to_address) = lower($1)
      order by created_at desc, id desc`,
    [address],
  );
  return rows.map(outboxMail);
}

/** Every mail, oldest first (tests and diagnostics). */
export async function allMails(db: Queryable): Promise<OutboxMail[]> {
  const { rows } = await db.query<OutboxRow>(
    'select id, to_address, subject, body, created_at, attempts, next_attempt_at, last_error, sent_at from mail_outbox order by id',
  );
  return rows.map(outboxMail);
}
