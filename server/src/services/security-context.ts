/**
 * What the sign-in and session services share: the database, the clock, the settings and the
 * server's secrets. Secrets are read (or generated) on first use, not at start, so an app whose
 * database is down still starts and answers its public routes.
 */
import { randomBytes } from 'node:crypto';
import type { ServerSettings } from '../config.js';
import { DEFAULT_CHALLENGE_COST, DEFAULT_PERSONAL_EMAIL_DOMAINS } from '../config.js';
import type { Database } from '../db/database.js';
import { ensureSecret } from '../repositories/secrets.js';
import type { Clock } from './clock.js';
import { SessionCache } from './session-cache.js';
import { SignOutHooks } from './sign-out-hooks.js';

export type SecuritySettings = Pick<
  ServerSettings,
  | 'loginMaxFailures'
  | 'challengeSecret'
  | 'challengeCost'
  | 'sessionIdleMinutes'
  | 'sessionAbsoluteHours'
  | 'trustedProxies'
  | 'rateLimits'
  | 'sessionRateLimit'
  // The visitors' flows (services/verification.ts, services/account-requests.ts).
  | 'personalEmailDomains'
  | 'publicUrl'
  // The session cookie's Domain (plugins/security.ts).
  | 'cookieDomain'
>;

export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  loginMaxFailures: 5,
  challengeSecret: undefined,
  challengeCost: DEFAULT_CHALLENGE_COST,
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  trustedProxies: [],
  // An app built without settings (the tests) limits no rate; the server's defaults are in config.ts.
  rateLimits: {},
  sessionRateLimit: undefined,
  personalEmailDomains: DEFAULT_PERSONAL_EMAIL_DOMAINS,
  publicUrl: undefined,
  cookieDomain: undefined,
};

/**
 * 'verification': the HMAC key of the verification codes (services/verification.ts);
 * 'oidc-cookies': the key of the OpenID provider's signed cookies (services/service-sign-in/oidc/provider.ts).
 */
export type SecretName = 'xsrf' | 'challenge' | 'verification' | 'oidc-cookies';

export interface SecurityContext {
  readonly db: Database;
  readonly clock: Clock;
  readonly settings: SecuritySettings;
  /** A secret shared by every server process on this database (generated once, then stored). */
  secret(name: SecretName): Promise<string>;
  /** The embedded database's session lookups kept in memory (services/session-cache.ts); none on PostgreSQL. */
  readonly sessions?: SessionCache;
  /** Told when an account's sign-ins end (services/sign-out-hooks.ts): the OpenID provider listens. */
  readonly signOuts: SignOutHooks;
}

export function createSecurityContext(db: Database, clock: Clock, settings: SecuritySettings): SecurityContext {
  const cache = new Map<SecretName, Promise<string>>();
  const writeGeneration = db.writeGeneration?.bind(db);
  return {
    db,
    clock,
    settings,
    ...(writeGeneration === undefined ? {} : { sessions: new SessionCache(writeGeneration) }),
    signOuts: new SignOutHooks(),
    secret(name) {
      let value = cache.get(name);
      if (!value) {
        value = ensureSecret(db, name, randomBytes(32).toString('base64url'));
        // A failure (database down) is not remembered: the next call tries again.
        value.catch(() => cache.delete(name));
        cache.set(name, value);
      }
      return value;
    },
  };
}
