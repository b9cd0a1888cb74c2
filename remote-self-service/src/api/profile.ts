/**
 * What the profile page calls (definitions in @portal/api): the account, and signing out
 * everywhere. A module of its own: /profile, the remote's first page, then brings only these
 * definitions, not those of every account page (account.ts), which load with their own code.
 */
import { getAccount as getAccountCall, signOutEverywhere as signOutEverywhereCall, type Account } from '@portal/api';
import { call } from '@portal/shared';

export function getAccount(username: string, options: { readonly signal?: AbortSignal } = {}): Promise<Account> {
  return call(getAccountCall, { params: { username } }, options);
}

/** Ends every session of the caller's account, this one too; answers how many ended. */
export async function signOutEverywhere(): Promise<number> {
  return (await call(signOutEverywhereCall, {})).ended;
}
