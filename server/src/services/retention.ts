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
 * Each table is purged in batches of PURGE_BATCH_SIZE rows, each batch one short statement of its
 * own (repositories/retention.ts), so that several server processes may purge at once.
 */
import type { Queryable } from '../db/database.js';
import type { ServerSettings } from '../config.js';
import {
  deleteEndedRateLimitWindows,
  deleteEndedSessions,
  deleteExpiredChallenges,
  deleteExpiredOidcRecords,
  deleteLockedIdentifiers,
  deleteLoginFailuresBelow,
  deleteProvisioningEvents,
  deleteSentMail,
  deleteVerificationCodes,
} from '../repositories/retention.js';

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

/** Deletes every row past its retention (see above) at `now`; returns the counts deleted. */
export async function purgeExpiredRows(db: Queryable, settings: RetentionSettings, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<PurgeCounts> {
  const at = (ms: number) => new Date(now.getTime() - ms);
  const sessions = await deleteEndedSessions(db, now, at(settings.sessionIdleMinutes * 60_000), batchSize);
  const usedChallenges = await deleteExpiredChallenges(db, now, batchSize);
  const loginFailures = await deleteLoginFailuresBelow(db, settings.loginMaxFailures, at(settings.loginFailureRetentionHours * HOUR_MS), batchSize);
  const lockedIdentifiers =
    settings.lockedIdentifierRetentionDays === 0
      ? 0
      : await deleteLockedIdentifiers(db, settings.loginMaxFailures, at(settings.lockedIdentifierRetentionDays * DAY_MS), batchSize);
  const verificationCodes = await deleteVerificationCodes(db, at(settings.verificationCodeRetentionHours * HOUR_MS), batchSize);
  const sentMail = await deleteSentMail(db, at(settings.sentMailRetentionDays * DAY_MS), batchSize);
  const rateLimitHits = await deleteEndedRateLimitWindows(db, now, batchSize);
  const provisioningEvents = await deleteProvisioningEvents(db, at(settings.provisioningHistoryDays * DAY_MS), batchSize);
  const oidcRecords = await deleteExpiredOidcRecords(db, now, batchSize);
  return { sessions, usedChallenges, loginFailures, lockedIdentifiers, verificationCodes, sentMail, rateLimitHits, provisioningEvents, oidcRecords };
}
