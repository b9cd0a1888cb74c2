/**
 * Helpers of the signed-in self-service tests (accounts, subscriptions, self-requests, renewal):
 * an app on a fresh database with a movable clock, calls as a principal, and a full profile.
 */
import type { ProvisioningEngine } from '../src/services/provisioning/engine.js';
import type { TokenIssuer } from '../src/services/tokens/issuer.js';
import type { ListEngine } from '../src/services/lists/engine.js';
import type { PortalConfiguration } from '@portal/api';
import type { App, AppServerSettings } from '../src/app.js';
import type { Database, DatabaseKind, Queryable } from '../src/db/database.js';
import { updateProfile, type PlatformRole, type ProfileFields } from '../src/repositories/accounts.js';
import { API, TestClock, as, createAccount, signIn, type Principal, type TestAccount } from './auth-helpers.js';
import { createTestApp, createTestDatabase, type Fixture } from './helpers.js';

export const DAY = 86_400_000;

export const FORBIDDEN = { error: 'Forbidden', code: 403 };
export const NOT_FOUND = { error: 'Account not found.', code: 404 };
export const RENEWAL_REQUIRED = { error: 'Your account must be renewed before you continue.', code: 403 };

export interface World {
  db: Database;
  app: App;
  clock: TestClock;
  close(): Promise<void>;
}

export async function createWorld(
  kind: DatabaseKind,
  fixture: Fixture,
  options: {
    portal?: Partial<PortalConfiguration>;
    server?: Partial<AppServerSettings>;
    tokenIssuer?: TokenIssuer;
    listEngine?: ListEngine;
    logs?: string[];
    /** The provisioning engine the API's retries and reconciles reach, made on the world's database. */
    provisioning?: (db: Database) => ProvisioningEngine;
  } = {},
): Promise<World> {
  const db = await createTestDatabase(kind);
  const provisioning = options.provisioning?.(db);
  const clock = new TestClock();
  const app = createTestApp({
    db,
    fixture,
    clock,
    ...(options.portal ? { portal: options.portal } : {}),
    ...(options.server ? { server: options.server } : {}),
    ...(options.tokenIssuer ? { tokenIssuer: options.tokenIssuer } : {}),
    ...(options.listEngine ? { listEngine: options.listEngine } : {}),
    ...(options.logs ? { logs: options.logs } : {}),
    ...(provisioning ? { provisioning } : {}),
  });
  await app.ready();
  return {
    db,
    app,
    clock,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call to the API as a principal (cookie and anti-forgery token). */
export function call(app: App, who: Principal, method: Method, path: string, payload?: unknown, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) {
  return app.inject({
    method,
    url: `${API}${path}`,
    headers: { ...as(who), ...(extra.headers ?? {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });
}

/** An account (with the given roles; default user) and a signed-in session of it. */
export async function signedIn(
  world: World,
  username: string,
  options: { roles?: PlatformRole[]; email?: string } = {},
): Promise<{ account: TestAccount; who: Principal }> {
  const account = await createAccount(world.db, { username, ...options });
  return { account, who: await signIn(world.app, username, account.token) };
}

export const FULL_PROFILE: ProfileFields = {
  phone: '555-0100',
  street: '1 Main Street',
  city: 'Springfield',
  state: 'VA',
  zip: '22150',
  country: 'USA',
  company: 'Example Corp',
  project: 'Portal',
  supervisor_first_name: 'Sam',
  supervisor_last_name: "O'Brien",
  supervisor_email: 'sam.obrien@example.test',
  supervisor_phone: '555-0199',
  reason: 'Builds the portal',
};

export async function setProfile(db: Queryable, accountId: number, profile: ProfileFields = FULL_PROFILE): Promise<void> {
  await updateProfile(db, accountId, profile);
}

/** The body of POST /accounts/{username} for flat profile fields. */
export function profileBody(p: ProfileFields) {
  return {
    phone: p.phone,
    address: { street: p.street, city: p.city, state: p.state, zip: p.zip, country: p.country },
    company: p.company,
    project: p.project,
    supervisor: { first_name: p.supervisor_first_name, last_name: p.supervisor_last_name, email: p.supervisor_email, phone: p.supervisor_phone },
    reason: p.reason,
  };
}

export async function count(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) as counted`, params);
  return rows[0]?.n ?? 0;
}
