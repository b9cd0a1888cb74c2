/**
 * Sessions: a 256-bit random id in a cookie; the database keeps only its SHA-256. Idle and
 * absolute expiry. Idle expiry is exact to the second: last_seen_at holds the last use rounded up
 * to the next whole second, so a session ends between PORTAL_SESSION_IDLE_MINUTES and that plus
 * one second after its last use (never early), and it is written at most once a second per
 * session (not on every request of a page's burst). The anti-forgery
 * token is derived from the session id (HMAC with a server secret), so it is bound to the
 * session, changes with it, and needs no storage.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Permission } from '@portal/api';
import type { Queryable } from '../db/database.js';
import {
  deleteAccountSessions,
  deleteSession,
  findSession,
  insertSession,
  purgeExpiredSessions,
  touchSession,
  type SessionRecord,
} from '../repositories/sessions.js';
import { isRenewalDue, RENEWAL_PERMISSIONS } from './renewal.js';
import { permissionsOf } from './roles.js';
import type { SecurityContext } from './security-context.js';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at's resolution: a use is recorded as the next whole second (or this one, if exact). */
const LAST_SEEN_RESOLUTION_MS = 1000;

export interface SignedInAccount {
  id: number;
  username: string;
  /** Exactly RENEW_ACCOUNT and allow-renewal while the account must renew; else its roles' permissions. */
  permissions: Permission[];
  /** The account must renew (annual certification) before anything else (services/renewal.ts). */
  renewalDue: boolean;
}

export interface CurrentSession {
  /** The id in the cookie (never stored). */
  readonly id: string;
  readonly idHash: string;
  readonly accountId: number | null;
  /** The signed-in account, when the session has one that is active and not closed. */
  readonly account: SignedInAccount | undefined;
  /** A session of an account that is now locked or closed: refused, as if not signed in. */
  readonly refused: boolean;
}

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function idleMs(context: SecurityContext): number {
  return context.settings.sessionIdleMinutes * 60_000;
}

/** The last_seen_at a use at `now` records: `now` rounded up to the whole second. */
function lastSeenMark(now: Date): Date {
  return new Date(Math.ceil(now.getTime() / LAST_SEEN_RESOLUTION_MS) * LAST_SEEN_RESOLUTION_MS);
}

/** Reads a session's record by the hash of its id. */
export type SessionLoader = (idHash: string) => Promise<SessionRecord | undefined>;

/**
 * The session a cookie names, if it exists and has not expired (an expired one is deleted).
 * `load` reads its record: by default the session lookup every request makes (kept in memory on
 * the embedded database); a caller that needs more in the same statement passes its own.
 */
export async function resolveSession(
  context: SecurityContext,
  id: string | undefined,
  load: SessionLoader = (idHash) => sessionRecord(context, idHash),
): Promise<CurrentSession | undefined> {
  if (id === undefined || !SESSION_ID.test(id)) return undefined;
  const idHash = hashSessionId(id);
  const record = await load(idHash);
  if (!record) return undefined;
  const now = context.clock.now();
  if (now.getTime() >= record.expiresAt.getTime() || now.getTime() >= record.lastSeenAt.getTime() + idleMs(context)) {
    context.sessions?.forget(idHash);
    await deleteSession(context.db, idHash);
    return undefined;
  }
  // Written only when the mark moves (at most once a second); never moved back (another server's later write wins).
  const mark = lastSeenMark(now);
  if (mark.getTime() > record.lastSeenAt.getTime()) await markLastSeen(context, idHash, mark);
  const account = record.account;
  const usable = account !== null && account.active && !account.closed;
  const renewalDue = usable && isRenewalDue(account.lastCertified, account.createdAt, now);
  return {
    id,
    idHash,
    accountId: record.accountId,
    account: usable
      ? {
          id: account.id,
          username: account.username,
          permissions: renewalDue ? [...RENEWAL_PERMISSIONS] : permissionsOf(account.roles),
          renewalDue,
        }
      : undefined,
    refused: record.accountId !== null && !usable,
  };
}

/** The session's record: kept in memory on the embedded database (services/session-cache.ts), else read. */
async function sessionRecord(context: SecurityContext, idHash: string): Promise<SessionRecord | undefined> {
  const cache = context.sessions;
  if (!cache) return findSession(context.db, idHash);
  const kept = cache.get(idHash);
  if (kept) return kept;
  const ticket = cache.ticket();
  const record = await findSession(context.db, idHash);
  if (record) cache.keep(idHash, ticket, record);
  return record;
}

/** Writes the session's last-seen mark; the cache applies it to the record it keeps. */
async function markLastSeen(context: SecurityContext, idHash: string, mark: Date): Promise<void> {
  const cache = context.sessions;
  try {
    await touchSession(context.db, idHash, mark, cache !== undefined);
  } catch (error) {
    cache?.forget(idHash);
    throw error;
  }
  cache?.marked(idHash, mark);
}

/** Creates a session (anonymous when accountId is null); returns its id. Purges expired sessions. */
export async function createSession(context: SecurityContext, accountId: number | null, db: Queryable = context.db): Promise<string> {
  const now = context.clock.now();
  await purgeExpiredSessions(db, now, new Date(now.getTime() - idleMs(context)));
  const id = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + context.settings.sessionAbsoluteHours * 3_600_000);
  await insertSession(db, { idHash: hashSessionId(id), accountId, now, lastSeenAt: lastSeenMark(now), expiresAt });
  return id;
}

/**
 * Ends every session of an account (Sign Out Everywhere), and its sign-ins to the platform's
 * services (services/sign-out-hooks.ts); answers how many sessions there were.
 */
export async function endAccountSessions(context: SecurityContext, accountId: number): Promise<number> {
  const ended = await deleteAccountSessions(context.db, accountId);
  await context.signOuts.signedOut({ accountId, reason: 'sign-out-everywhere' });
  return ended;
}

/** Deletes a session (no more): a new session replacing it, or a sign-out made elsewhere. */
export async function endSession(context: SecurityContext, session: { idHash: string }, db: Queryable = context.db): Promise<void> {
  await deleteSession(db, session.idHash);
}

/**
 * The portal's sign-out: ends the session, and the sign-ins to the platform's services made in
 * the same browser (whose Cookie header names them; services/sign-out-hooks.ts).
 */
export async function signOutSession(context: SecurityContext, session: { idHash: string; accountId: number | null }, cookieHeader: string | undefined): Promise<void> {
  await deleteSession(context.db, session.idHash);
  if (session.accountId !== null) {
    await context.signOuts.signedOut({ accountId: session.accountId, reason: 'sign-out', ...(cookieHeader === undefined ? {} : { cookieHeader }) });
  }
}

/** The anti-forgery token of a session. */
export async function xsrfTokenOf(context: SecurityContext, sessionId: string): Promise<string> {
  const secret = await context.secret('xsrf');
  return createHmac('sha256', secret).update(`xsrf:${sessionId}`).digest('base64url');
}

/** Anti-forgery tokens presented and found right, kept by session id (at most this many; the oldest goes first). */
export const XSRF_TOKENS_KEPT = 10_000;
const confirmedTokens = new WeakMap<SecurityContext, Map<string, Buffer>>();

/**
 * Whether a presented anti-forgery token is the session's (constant time). Every call of a page
 * presents the same token, so a token once found right is kept and compared again without deriving
 * it (deriving it took 4-5 µs of the portal's 65-70 µs of CPU per session check on PostgreSQL). Only a right token is kept: made-up cookies and wrong tokens cost a derivation each,
 * never memory. The secret cannot change while the process runs (services/security-context.ts), so
 * a kept token stays right for as long as its session id exists; whether the session does is the
 * guard's next question.
 */
export async function isXsrfTokenOf(context: SecurityContext, sessionId: string, presented: unknown): Promise<boolean> {
  if (typeof presented !== 'string') return false;
  let kept = confirmedTokens.get(context);
  if (!kept) confirmedTokens.set(context, (kept = new Map()));
  const given = Buffer.from(presented);
  const confirmed = kept.get(sessionId);
  if (confirmed) return given.length === confirmed.length && timingSafeEqual(given, confirmed);
  const expected = Buffer.from(await xsrfTokenOf(context, sessionId));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  if (kept.size >= XSRF_TOKENS_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(sessionId, expected);
  return true;
}
