/**
 * SQL for the purge of rows past their retention (services/retention.ts says what is kept and
 * why; these delete what it decides is old). Each table is purged in batches, each batch one
 * short statement of its own (no long lock, no long transaction). A batch takes its rows with
 * FOR UPDATE SKIP LOCKED and the delete checks the condition again, so several server processes
 * purging at once, and a sign-in counting a failure on a row being purged, are each correct: a
 * row refreshed meanwhile is kept. Each function returns how many rows it deleted.
 */
import type { Queryable } from '../db/database.js';

/**
 * One batch: deletes up to `limit` rows of `table` (by its key `key`) matching `where` (with $1,
 * $2 … from `params`, and $<n+1> the limit); returns how many it deleted.
 */
async function deleteBatch(db: Queryable, table: string, key: string, where: string, params: readonly unknown[], limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `with gone as (
       delete from ${table} where ${key} in (
         select ${key} from ${table} where ${where} limit $${params.length + 1} for update skip locked
       ) and ${where}
       returning 1
     ) select count(*)::int as n from gone`,
    [...params, limit],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Batches until one deletes fewer than a full batch. */
async function deleteAll(db: Queryable, table: string, key: string, where: string, params: readonly unknown[], batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(db, table, key, where, params, batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Sessions expired at `now`, or last seen at or before `idleSince`. */
export function deleteEndedSessions(db: Queryable, now: Date, idleSince: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'sessions', 'id_hash', '(expires_at <= $1 or last_seen_at <= $2)', [now, idleSince], batchSize);
}

/** Used bot challenges that have expired. */
export function deleteExpiredChallenges(db: Queryable, now: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'used_challenges', 'signature_hash', 'expires_at < $1', [now], batchSize);
}

/** Failed sign-in counts below `maxFailures` whose last failure was before `lastBefore` (accounts' and unknown identifiers' alike). */
export function deleteLoginFailuresBelow(db: Queryable, maxFailures: number, lastBefore: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'login_failures', 'key', 'failures < $1 and last_failure_at < $2', [maxFailures, lastBefore], batchSize);
}

/** Unknown identifiers' counts at `maxFailures` or more whose last failure was before `lastBefore`. */
export function deleteLockedIdentifiers(db: Queryable, maxFailures: number, lastBefore: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'login_failures', 'key', "failures >= $1 and last_failure_at < $2 and key like 'id:%'", [maxFailures, lastBefore], batchSize);
}

/** Verification codes asked for before `createdBefore`. */
export function deleteVerificationCodes(db: Queryable, createdBefore: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'verification_codes', 'id', 'created_at < $1', [createdBefore], batchSize);
}

/** Mail sent before `sentBefore` (unsent mail is never deleted). */
export function deleteSentMail(db: Queryable, sentBefore: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'mail_outbox', 'id', 'sent_at < $1', [sentBefore], batchSize);
}

/** Rate-limit counts whose window has ended at `now`. */
export function deleteEndedRateLimitWindows(db: Queryable, now: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'rate_limit_hits', 'key', 'expires_at <= $1', [now], batchSize);
}

/** Provisioning history from before `before`. */
export function deleteProvisioningEvents(db: Queryable, before: Date, batchSize: number): Promise<number> {
  return deleteAll(db, 'provisioning_events', 'id', 'at < $1', [before], batchSize);
}

/** The OpenID provider's records expired at `now`. */
export function deleteExpiredOidcRecords(db: Queryable, now: Date, batchSize: number): Promise<number> {
  // Its key is two columns (model, id): a batch names its rows by their physical address instead.
  return deleteAll(db, 'oidc_models', 'ctid', 'expires_at <= $1', [now], batchSize);
}
