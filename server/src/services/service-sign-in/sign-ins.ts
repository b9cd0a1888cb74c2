/**
 * The sign-ins to services an account holds through the portal's OpenID provider
 * (server/docs/service-sign-in.md, "Sign-ins to services"): listed for the user (the profile) and
 * for an administrator (Account Administration, LOCK_ACCOUNT), and ended by either. One row per
 * client: its live grants (when the sign-in was made: the newest grant's issue time; its end: the
 * latest grant's expiry), else the live provider sessions that signed in to it (their sign-in time
 * and expiry). An ending goes through the sign-out hooks ('ended', services/sign-out-hooks.ts):
 * the provider's listener (oidc/sign-out.ts) revokes the client's grants and tokens, takes its part
 * out of the sessions and sends the client a back-channel logout token when it registered a URI.
 */
import type { EndedServiceSignIns, ServiceSignIn, ServiceSignInList } from '@portal/api';
import type { Queryable } from '../../db/database.js';
import { NotFoundError } from '../../errors.js';
import { findAccountByUsername } from '../../repositories/account-view.js';
import { addAccountUpdate } from '../../repositories/accounts.js';
import { findLiveOidcSignInsOfAccount, findOidcClientByName, listOidcClients, type OidcClientRecord } from '../../repositories/service-sign-in/oidc.js';
import { SELF_SERVICE_MESSAGES } from '../../self-service-messages.js';
import type { Actor } from '../account-access.js';
import type { Clock } from '../clock.js';
import type { SignOutHooks } from '../sign-out-hooks.js';

export const SIGN_IN_MESSAGES = {
  unknownClient: (name: string) => `No service called “${name}” signs in through the portal.`,
} as const;

/** The history's action of an administrator's ending. */
export const SIGN_IN_ACTIONS = { ended: 'Service sign-in ended' } as const;

export interface SignInsContext {
  readonly db: Queryable;
  readonly clock: Clock;
  readonly signOuts?: SignOutHooks;
}

/** An epoch-seconds number of a payload, when it is one. */
function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

interface Found {
  /** Epoch ms. */
  signedIn: number;
  expires: Date | null;
}

/** Keeps the newest sign-in and the latest expiry (null: none). */
function merged(a: Found | undefined, b: Found): Found {
  if (!a) return b;
  const expires = a.expires === null || b.expires === null ? null : a.expires > b.expires ? a.expires : b.expires;
  return { signedIn: Math.max(a.signedIn, b.signedIn), expires };
}

/** The account's live sign-ins (one per client), by client id, and the registered clients. */
async function signInsOf(db: Queryable, accountId: number, now: Date): Promise<{ clients: OidcClientRecord[]; found: Map<string, Found> }> {
  const clients = await listOidcClients(db);
  const grants = new Map<string, Found>();
  const sessions = new Map<string, Found>();
  if (clients.length === 0) return { clients, found: grants };
  for (const record of await findLiveOidcSignInsOfAccount(db, String(accountId), now)) {
    if (record.model === 'Grant') {
      const clientId = record.payload['clientId'];
      const iat = seconds(record.payload['iat']);
      if (typeof clientId === 'string' && iat !== undefined) grants.set(clientId, merged(grants.get(clientId), { signedIn: iat * 1000, expires: record.expiresAt }));
    } else {
      const authorizations = record.payload['authorizations'];
      const loginTs = seconds(record.payload['loginTs']) ?? seconds(record.payload['iat']);
      if (typeof authorizations !== 'object' || authorizations === null || loginTs === undefined) continue;
      for (const clientId of Object.keys(authorizations)) {
        sessions.set(clientId, merged(sessions.get(clientId), { signedIn: loginTs * 1000, expires: record.expiresAt }));
      }
    }
  }
  // A client's grants say when its sign-in was made and ends; a session alone, when it has none.
  for (const [clientId, session] of sessions) if (!grants.has(clientId)) grants.set(clientId, session);
  return { clients, found: grants };
}

function listOf(clients: OidcClientRecord[], found: Map<string, Found>): ServiceSignIn[] {
  return clients.flatMap((client) => {
    const signIn = found.get(client.clientId);
    if (!signIn) return [];
    return [{ client: client.name, service: client.service, signed_in_at: new Date(signIn.signedIn).toISOString(), expires_at: signIn.expires?.toISOString() ?? null }];
  });
}

/** The account's sign-ins to services, by client name; `available` false when no client is registered. */
export async function listServiceSignIns(context: SignInsContext, accountId: number): Promise<ServiceSignInList> {
  const { clients, found } = await signInsOf(context.db, accountId, context.clock.now());
  return { available: clients.length > 0, sign_ins: listOf(clients, found) };
}

async function accountNamed(context: SignInsContext, username: string) {
  const account = await findAccountByUsername(context.db, username);
  if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
  return account;
}

/** GET /accounts/{username}/service-sign-ins (LOCK_ACCOUNT); 404 for an unknown account. */
export async function listAccountServiceSignIns(context: SignInsContext, username: string): Promise<ServiceSignInList> {
  return listServiceSignIns(context, (await accountNamed(context, username)).id);
}

/**
 * Ends the account's sign-in to the client of that name (404 when there is none), or to every
 * client (`clientName` undefined). What ended: the clients whose sign-ins were live (0 when none
 * was left: nothing is done), and what remains. The provider's failure to end them is the call's.
 */
async function endSignIns(
  context: SignInsContext,
  accountId: number,
  clientName: string | undefined,
  recorded: (names: string[], at: Date) => Promise<void>,
): Promise<EndedServiceSignIns> {
  let clientId: string | undefined;
  if (clientName !== undefined) {
    const client = await findOidcClientByName(context.db, clientName);
    if (!client) throw new NotFoundError(SIGN_IN_MESSAGES.unknownClient(clientName));
    clientId = client.clientId;
  }
  const { clients, found } = await signInsOf(context.db, accountId, context.clock.now());
  const ending = clients.filter((client) => found.has(client.clientId) && (clientId === undefined || client.clientId === clientId));
  if (ending.length > 0) {
    if (!context.signOuts) throw new Error('no sign-out hooks: the sign-ins to services cannot be ended');
    await context.signOuts.ended({ accountId, reason: 'ended', ...(clientId === undefined ? {} : { clientId }) });
    await recorded(
      ending.map((client) => client.name),
      context.clock.now(),
    );
  }
  const after = await signInsOf(context.db, accountId, context.clock.now());
  return { ended: ending.length, sign_ins: listOf(after.clients, after.found) };
}

/** DELETE /service-sign-ins[/{client}]: the user signs out of a service (or all); not in the history. */
export async function endOwnServiceSignIns(context: SignInsContext, actor: Actor, clientName: string | undefined): Promise<EndedServiceSignIns> {
  return endSignIns(context, actor.id, clientName, async () => {});
}

/**
 * DELETE /accounts/{username}/service-sign-ins[/{client}] (LOCK_ACCOUNT): an administrator ends an
 * account's sign-in to a service (or all of them); the history records it with the services' names.
 */
export async function endAccountServiceSignIns(
  context: SignInsContext,
  actor: Actor,
  username: string,
  clientName: string | undefined,
): Promise<EndedServiceSignIns> {
  const account = await accountNamed(context, username);
  return endSignIns(context, account.id, clientName, async (names, at) => {
    const what = names.length === 1 ? `Sign-in to ${names[0]}` : `Sign-ins to ${names.join(', ')}`;
    await addAccountUpdate(context.db, {
      accountId: account.id,
      action: SIGN_IN_ACTIONS.ended,
      comment: `${what} ended by an account administrator.`,
      username: actor.username,
      active: account.active && !account.closed,
      at,
    });
  });
}
