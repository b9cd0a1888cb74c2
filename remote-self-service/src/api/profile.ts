/**
 * What the profile page calls (definitions in @portal/api): the account, the sign-ins to services
 * and their ending, and signing out everywhere. A module of its own: /profile, the remote's first page, then brings only these
 * definitions, not those of every account page (account.ts), which load with their own code.
 */
import {
  endOwnServiceSignIn,
  getAccount as getAccountCall,
  listOwnServiceSignIns,
  signOutEverywhere as signOutEverywhereCall,
  type Account,
  type EndedServiceSignIns,
  type ServiceSignInList,
} from '@portal/api';
import { call } from '@portal/shared';

export function getAccount(username: string, options: { readonly signal?: AbortSignal } = {}): Promise<Account> {
  return call(getAccountCall, { params: { username } }, options);
}

/** Ends every session of the caller's account, this one too; answers how many ended. */
export async function signOutEverywhere(): Promise<number> {
  return (await call(signOutEverywhereCall, {})).ended;
}

/** The caller's sign-ins to services. */
export function listServiceSignIns(options: { readonly signal?: AbortSignal } = {}): Promise<ServiceSignInList> {
  return call(listOwnServiceSignIns, {}, options);
}

/** The caller signs out of one service; answers the list after it. */
export function endServiceSignIn(client: string): Promise<EndedServiceSignIns> {
  return call(endOwnServiceSignIn, { params: { client } });
}
