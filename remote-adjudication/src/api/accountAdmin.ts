/**
 * Account administration calls (spec sections 3, 4 and 7; definitions in @portal/api
 * accounts/account-admin.ts, tokens/account-tokens.ts): the search, lock, unlock, close, the history
 * export, an account's tokens and its sign-ins to services.
 */
import * as api from '@portal/api';
import { PAGE_SIZE, type Account, type AccountSearchPage, type ArtifactToken, type EndedServiceSignIns, type ServiceSignInList } from '@portal/api';
import { call, linkTo } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export interface AccountSearchQuery {
  readonly term: string;
  readonly start_index: number;
  /** Only members of this user group ('Add User To Group'). */
  readonly group_id?: string;
}

/** Every word of the trimmed term matches the start of the username, a name or the email; 30 a page. */
export function searchAccounts(query: AccountSearchQuery, options: Options = {}): Promise<AccountSearchPage> {
  const body = {
    term: query.term.trim(),
    starts_with: true,
    start_index: query.start_index,
    max_results: PAGE_SIZE,
    ...(query.group_id === undefined ? {} : { group_id: query.group_id }),
  };
  return call(api.searchAccounts, { body }, options);
}

/** An active account becomes locked (reason required). */
export function lockAccount(username: string, comment: string, options: Options = {}): Promise<Account> {
  return call(api.lockAccount, { params: { username }, body: { comment } }, options);
}

/** A locked account becomes active (reason optional). */
export function unlockAccount(username: string, comment: string, options: Options = {}): Promise<Account> {
  return call(api.unlockAccount, { params: { username }, body: { comment } }, options);
}

/** The account is closed (reason required). */
export function closeAccount(username: string, reason: string, options: Options = {}): Promise<Account> {
  return call(api.closeAccount, { body: { username, reason } }, options);
}

/** The history export: a plain link (the session cookie goes with it). */
export function accountHistoryUrl(username: string): string {
  return linkTo(api.accountHistoryCsv, { params: { username } });
}

/** An account's artifact-repository tokens (never their secrets). */
export function listAccountTokens(username: string, options: Options = {}): Promise<{ tokens: ArtifactToken[] }> {
  return call(api.listAccountTokens, { params: { username } }, options);
}

/** Revokes one of an account's tokens, whatever its lifetime (the history records it). */
export function revokeAccountToken(username: string, id: string, options: Options = {}): Promise<unknown> {
  return call(api.revokeAccountToken, { params: { username, id } }, options);
}

/** An account's sign-ins to services (LOCK_ACCOUNT). */
export function listAccountServiceSignIns(username: string, options: Options = {}): Promise<ServiceSignInList> {
  return call(api.listAccountServiceSignIns, { params: { username } }, options);
}

/** Ends an account's sign-in to one service (the history records it); answers the list after it. */
export function endAccountServiceSignIn(username: string, client: string, options: Options = {}): Promise<EndedServiceSignIns> {
  return call(api.endAccountServiceSignIn, { params: { username, client } }, options);
}
