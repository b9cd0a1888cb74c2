/**
 * Account administration (spec sections 3, 4 and 7; server/docs/adjudication.md, "Accounts"):
 * the account search, lock, unlock, close and the history export.
 */
import { RULE_MESSAGES } from '../rules.js';
import type { Account } from './accounts.js';
import { API_BASE, apiRequest } from './client.js';

type Options = { readonly signal?: AbortSignal };

/** Spec section 9: search page size (also the page of the request queues). */
export const SEARCH_PAGE_SIZE = 30;

/** Spec section 5, "Search runs only with a non-empty trimmed term"; the server's 400 says the same. */
export const SEARCH_TERM_REQUIRED = RULE_MESSAGES.searchTermRequired;

export interface AccountSearchQuery {
  readonly term: string;
  readonly start_index: number;
  /** Only members of this user group ('Add User To Group'). */
  readonly group_id?: string;
}

/** A row of the search: the account's names, email and state. */
export type AccountSearchRow = Pick<Account, 'username' | 'first_name' | 'last_name' | 'email' | 'active' | 'closed'>;

export interface AccountSearchPage {
  readonly rows: readonly AccountSearchRow[];
  readonly has_more_results: boolean;
}

/**
 * POST /accounts/search { term, starts_with: true, start_index, max_results: 30[, group_id] }:
 * every word of the trimmed term matches the start of the username, a name or the email.
 */
export function searchAccounts(query: AccountSearchQuery, options: Options = {}): Promise<AccountSearchPage> {
  const body = {
    term: query.term.trim(),
    starts_with: true,
    start_index: query.start_index,
    max_results: SEARCH_PAGE_SIZE,
    ...(query.group_id === undefined ? {} : { group_id: query.group_id }),
  };
  return apiRequest<AccountSearchPage>('POST', '/accounts/search', { ...options, body });
}

const accountPath = (username: string) => `/accounts/${encodeURIComponent(username)}`;

/** POST /accounts/{username}/lock { comment }: an active account becomes locked (reason required). */
export function lockAccount(username: string, comment: string, options: Options = {}): Promise<Account> {
  return apiRequest<Account>('POST', `${accountPath(username)}/lock`, { ...options, body: { comment } });
}

/** POST /accounts/{username}/unlock { comment }: a locked account becomes active (reason optional). */
export function unlockAccount(username: string, comment: string, options: Options = {}): Promise<Account> {
  return apiRequest<Account>('POST', `${accountPath(username)}/unlock`, { ...options, body: { comment } });
}

/** POST /requests/close { username, reason }: the account is closed (reason required). */
export function closeAccount(username: string, reason: string, options: Options = {}): Promise<Account> {
  return apiRequest<Account>('POST', '/requests/close', { ...options, body: { username, reason } });
}

/** GET /accounts/{username}/history.csv: a plain link (the session cookie goes with it). */
export function accountHistoryUrl(username: string): string {
  return `${API_BASE}${accountPath(username)}/history.csv`;
}
