/**
 * The rate limits a call a visitor makes without a session declares, so that a flood cannot wear the portal down: each such call
 * names the limit it counts against, per client address, shared by every server of the database.
 * The numbers are the server's configuration (PORTAL_RATE_LIMITS); an answer past a limit is 429
 * with Retry-After and a sentence saying how long to wait.
 */
export const RATE_LIMIT_NAMES = [
  'sign-in',
  'challenge',
  'session-start',
  'verification-mail',
  'account-request',
  'status-check',
  'unlock',
  'token-reset',
  'cac-registration',
] as const;

export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

export function isRateLimitName(value: unknown): value is RateLimitName {
  return typeof value === 'string' && (RATE_LIMIT_NAMES as readonly string[]).includes(value);
}
