/**
 * Nothing grows without bound: the rows that visitors and attackers can make are
 * deleted on a schedule (main.ts runs `purgeExpiredRows` every PORTAL_PURGE_INTERVAL_MS in every
 * server process). What is kept, and why (docs/operations.md, "Retention"):
 *
 * - sessions: until they end (absolute expiry, or idle for PORTAL_SESSION_IDLE_MINUTES);
 * - used bot challenges: until the challenge expires (after that it is refused as expired anyway);
 * - failed sign-in counts below PORTAL_LOGIN_MAX_FAILURES: PORTAL_LOGIN_FAILURE_RETENTION_HOURS after
 *   the last failure, for an account's count and an unknown identifier's alike, so that forgetting
 *   a count never tells them apart;
 * - an unknown identifier's count at the limit (it answers 423, as a locked account does): as long
 *   as an account locked by the same failures stays locked, which is until someone unlocks it, so
 *   by default for ever (PORTAL_LOCKED_IDENTIFIER_RETENTION_DAYS = 0). An account's count at the
 *   limit is one row per account, deleted when it is unlocked;
 * - verification codes: PORTAL_VERIFICATION_CODE_RETENTION_HOURS after they were asked for (at least
 *   the hour in which five sends an address are counted);
 * - sent mail: PORTAL_SENT_MAIL_RETENTION_DAYS after it was sent. Unsent mail is never deleted;
 * - the OpenID provider's records (its sessions, interactions, grants, codes and tokens): until
 *   they expire (the provider treats an expired one as gone already).
 *
 * Each table is purged in batches of BATCH_SIZE rows, each batch one short statement of its own
 * (no long lock, no long transaction). A batch takes its rows with FOR UPDATE SKIP LOCKED and the
 * delete checks the condition again, so several server processes purging at once, and a sign-in
 * counting a failure on a row being purged, are each correct: a row refreshed meanwhile is kept.
 */
import type { Queryable } from '../db/database.js';
import type { ServerSettings } from '../config.js';

export const PURGE_BATCH_SIZE = 1000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type RetentionSettings = Pick<
  ServerSettings,
  | 'loginMaxFailures'
  | 'sessionIdleMinutes'
  | 'loginFailureRetentionHours'
  | 'lockedIdentifierRetentionDays'
  | 'verificationCodeRetentionHours'
  | 'sentMailRetentionDays'
  | 'provisioningHistoryDays'
>;

export interface PurgeCounts {
  sessions: number;
  usedChallenges: number;
  loginFailures: number;
  lockedIdentifiers: number;
  verificationCodes: number;
  sentMail: number;
  /** Rate-limit counts whose window has ended (services/rate-limits.ts). */
  rateLimitHits: number;
  provisioningEvents: number;
  /** The OpenID provider's records past their expiry (services/service-sign-in/oidc/adapter.ts). */
  oidcRecords: number;
}

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

/** Deletes every row past its retention (see above) at `now`; returns the counts deleted. */
export async function purgeExpiredRows(db: Queryable, settings: RetentionSettings, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<PurgeCounts> {
  const at = (ms: number) => new Date(now.getTime() - ms);
  const sessions = await deleteAll(db, 'sessions', 'id_hash', '(expires_at <= $1 or last_seen_at <= $2)', [now, at(settings.sessionIdleMinutes * 60_000)], batchSize);
  const usedChallenges = await deleteAll(db, 'used_challenges', 'signature_hash', 'expires_at < $1', [now], batchSize);
  const loginFailures = await deleteAll(
    db,
    'login_failures',
    'key',
    'failures < $1 and last_failure_at < $2',
    [settings.loginMaxFailures, at(settings.loginFailureRetentionHours * HOUR_MS)],
    batchSize,
  );
  const lockedIdentifiers =
    settings.lockedIdentifierRetentionDays === 0
      ? 0
      : await deleteAll(
          db,
          'login_failures',
          'key',
          "failures >= $1 and last_failure_at < $2 and key like 'id:%'",
          [settings.loginMaxFailures, at(settings.lockedIdentifierRetentionDays * DAY_MS)],
          batchSize,
        );
  const verificationCodes = await deleteAll(db, 'verification_codes', 'id', 'created_at < $1', [at(settings.verificationCodeRetentionHours * HOUR_MS)], batchSize);
  const sentMail = await deleteAll(db, 'mail_outbox', 'id', 'sent_at < $1', [at(settings.sentMailRetentionDays * DAY_MS)], batchSize);
  const rateLimitHits = await deleteAll(db, 'rate_limit_hits', 'key', 'expires_at <= $1', [now], batchSize);
  const provisioningEvents = await deleteAll(db, 'provisioning_events', 'id', 'at < $1', [at(settings.provisioningHistoryDays * DAY_MS)], batchSize);
  // Its key is two columns (model, id): a batch names its rows by their physical address instead.
  const oidcRecords = await deleteAll(db, 'oidc_models', 'ctid', 'expires_at <= $1', [now], batchSize);
  return { sessions, usedChallenges, loginFailures, lockedIdentifiers, verificationCodes, sentMail, rateLimitHits, provisioningEvents, oidcRecords };
}
