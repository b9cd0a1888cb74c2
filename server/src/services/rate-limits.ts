/**
 * Rate limits: a flood of calls without a session is held back per client address, on every server alike.
 *
 * The calls a visitor makes without a session declare a limit (@portal/api rate-limits.ts). Each
 * limit counts the calls of one client address in fixed windows with @fastify/rate-limit, on a
 * store in the database (databaseRateLimitStore), so every server of one PostgreSQL counts
 * together: a flood spread over several servers meets the same limit. An IPv6 client is counted by its /64 (one subscriber's network), an IPv4 client by its
 * address. Past the limit the call is refused (429) with Retry-After, until the window ends. A
 * fixed window lets a client send up to twice the limit across a window's edge; that is the
 * price of one short statement per call.
 *
 * The calls of a signed-in session count against a per-session limit kept in each server's
 * memory (PORTAL_SESSION_RATE_LIMIT): it costs no database write per request, and with N servers
 * a session may reach N times the limit, which is still a bound.
 */
import { isIP } from 'node:net';
import { RATE_LIMIT_NAMES, type RateLimitName } from '@portal/api';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Queryable } from '../db/database.js';
import { countRateLimitHit } from '../repositories/rate-limits.js';
import type { Clock } from './clock.js';

/**
 * The limits of the server's routes outside @portal/api's calls: the OpenID provider's token
 * endpoint (routes/service-sign-in/oidc.ts), which the services' servers call.
 */
export const SERVER_RATE_LIMIT_NAMES = ['oidc-token'] as const;
/** Every limit PORTAL_RATE_LIMITS may name: the calls' own, then the server's. */
export const ALL_RATE_LIMIT_NAMES: readonly LimitName[] = [...RATE_LIMIT_NAMES, ...SERVER_RATE_LIMIT_NAMES];
export type LimitName = RateLimitName | (typeof SERVER_RATE_LIMIT_NAMES)[number];
const isLimitName = (value: string): value is LimitName => (ALL_RATE_LIMIT_NAMES as readonly string[]).includes(value);

export interface RateLimit {
  /** Calls allowed per window. */
  readonly max: number;
  readonly windowSeconds: number;
}

/** Each limit's numbers; a limit left out is not applied. */
export type RateLimits = Readonly<Partial<Record<LimitName, RateLimit>>>;

/**
 * The defaults, per client address: generous for people (a busy office behind one address), a
 * wall for a script. Sign-in failures per identifier lock an account long before these matter.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  'sign-in': { max: 30, windowSeconds: 60 },
  challenge: { max: 60, windowSeconds: 60 },
  'session-start': { max: 120, windowSeconds: 60 },
  'verification-mail': { max: 30, windowSeconds: 3600 },
  'account-request': { max: 20, windowSeconds: 3600 },
  'status-check': { max: 60, windowSeconds: 600 },
  unlock: { max: 20, windowSeconds: 3600 },
  'token-reset': { max: 20, windowSeconds: 3600 },
  'cac-registration': { max: 20, windowSeconds: 3600 },
  // A service's server exchanges a code for each sign-in and refreshes its users' tokens: a busy
  // service signs in a few people a second; a script guessing codes is held to ten a second.
  'oidc-token': { max: 600, windowSeconds: 60 },
};

export const DEFAULT_SESSION_RATE_LIMIT: RateLimit = { max: 600, windowSeconds: 60 };

/** The longest window a limit may have (and so how long a row is kept). */
export const MAX_WINDOW_SECONDS = 86_400;

const LIMIT = /^(\d{1,9})\/(\d{1,6})$/;

/** 'max/seconds' → a limit, or a sentence saying what is wrong. */
export function parseRateLimit(text: string): RateLimit | string {
  const match = LIMIT.exec(text.trim());
  const max = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || max < 1 || windowSeconds < 1 || windowSeconds > MAX_WINDOW_SECONDS) {
    return `'${text.trim()}' is not a limit: write calls/seconds, e.g. 30/60 (at least 1 call, a window of 1 to ${MAX_WINDOW_SECONDS} seconds)`;
  }
  return { max, windowSeconds };
}

/**
 * PORTAL_RATE_LIMITS: 'name=max/seconds,…' changes those limits and keeps the other defaults;
 * 'name=off' turns one off; 'off' alone turns every limit off. A sentence when it is wrong.
 */
export function parseRateLimits(text: string): RateLimits | string {
  const value = text.trim();
  if (value === 'off') return {};
  const limits: Partial<Record<LimitName, RateLimit>> = { ...DEFAULT_RATE_LIMITS };
  const seen = new Set<string>();
  for (const item of value.split(',').map((i) => i.trim()).filter((i) => i !== '')) {
    const at = item.indexOf('=');
    const name = at < 0 ? item : item.slice(0, at).trim();
    const limit = at < 0 ? '' : item.slice(at + 1).trim();
    if (!isLimitName(name)) return `'${name}' is not a rate limit (the limits: ${ALL_RATE_LIMIT_NAMES.join(', ')}; or 'off' for none)`;
    if (seen.has(name)) return `'${name}' is given twice`;
    seen.add(name);
    if (limit === 'off') {
      delete limits[name];
      continue;
    }
    const parsed = parseRateLimit(limit);
    if (typeof parsed === 'string') return `${name}: ${parsed}`;
    limits[name] = parsed;
  }
  return limits;
}

/** What a client is counted as: its IPv4 address, or its IPv6 /64 (one network, however many addresses). */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail ('::ffff:1.2.3.4') is two groups; only the first four groups count here.
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * @fastify/rate-limit's store on the portal's database, so that every server of one PostgreSQL
 * counts together: fixed windows, one statement a call (a row per limit, client and window, kept
 * until its window ends; services/retention.ts deletes the old ones). The key the limiter gives is
 * `{limit name} {client}` (plugins/security.ts); the clock is the portal's, so tests can move it.
 */
export function databaseRateLimitStore(db: Queryable, clock: Clock): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = clock.now().getTime();
      const start = Math.floor(now / timeWindow) * timeWindow;
      const end = start + timeWindow;
      countRateLimitHit(db, `${key} ${start}`, new Date(end)).then(
        (current) => callback(null, { current, ttl: end - now }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return DatabaseRateLimitStore;
}

/** The key a limit counts a client's calls under (the store adds the window). */
export const limitKey = (name: LimitName, client: string): string => `${name} ${client}`;

export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds until the window ends (at least 1). */
  readonly retryAfterSeconds: number;
}

/**
 * The per-session limit, in this server's memory: fixed windows per session id hash. Old
 * windows are dropped as new ones start, so the map holds at most the sessions of one window.
 */
export class SessionRateLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(private readonly limit: RateLimit | undefined) {}

  count(sessionHash: string, now: Date): RateDecision {
    if (this.limit === undefined) return { allowed: true, retryAfterSeconds: 1 };
    const windowMs = this.limit.windowSeconds * 1000;
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts = new Map();
    }
    const hits = (this.counts.get(sessionHash) ?? 0) + 1;
    this.counts.set(sessionHash, hits);
    return { allowed: hits <= this.limit.max, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)) };
  }
}

/** '45 seconds', '1 minute', '2 minutes', '1 hour' …: how long to wait, in words. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export const RATE_LIMIT_MESSAGES = {
  /** A visitor's call past its address's limit. */
  tooManyFromAddress: (seconds: number) => `Too many attempts from your network. Please wait ${waitInWords(seconds)} and try again.`,
  /** A signed-in session past its limit. */
  tooManyFromSession: (seconds: number) => `Too many requests from this session. Please wait ${waitInWords(seconds)} and try again.`,
};
