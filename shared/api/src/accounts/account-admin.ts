/**
 * Account administration (server/docs/adjudication.md, "Accounts"): the search, lock, unlock,
 * close and the history export.
 */
import { Type, type Static } from 'typebox';
import { closed, MAX_PAGE_SIZE, Page, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { RULE_MESSAGES } from '../rules.js';
import { Account } from './account.js';

/** Spec section 5, "Search runs only with a non-empty trimmed term"; the server's 400 says the same. */
export const SEARCH_TERM_REQUIRED = RULE_MESSAGES.searchTermRequired;
/** The longest search term. */
export const MAX_SEARCH_TERM = 255;

export const AccountSearch = Type.Object(
  {
    // Optional so that a missing term gets the search's own message rather than a schema error.
    term: Type.Optional(Type.String({ maxLength: MAX_SEARCH_TERM })),
    starts_with: Type.Optional(Type.Boolean()),
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
    /** Only members of this user group ('Add User To Group'). */
    group_id: Type.Optional(Type.String({ maxLength: 255 })),
  },
  closed,
);
export type AccountSearch = Static<typeof AccountSearch>;

/** A row of the search: the account's names, email and state. */
export const AccountSearchRow = Type.Pick(Account, ['username', 'first_name', 'last_name', 'email', 'active', 'closed']);
export type AccountSearchRow = Static<typeof AccountSearchRow>;
export const AccountSearchPage = Page(AccountSearchRow);
export type AccountSearchPage = Static<typeof AccountSearchPage>;

/**
 * POST /accounts/search { term, starts_with: true, start_index, max_results: 30[, group_id] }:
 * every word of the trimmed term matches the start of the username, a name or the email.
 */
export const searchAccounts = defineEndpoint({
  method: 'POST',
  path: '/accounts/search',
  access: { permission: 'SEARCH_ACCOUNTS' },
  summary: 'A page of accounts matching a term',
  body: AccountSearch,
  response: AccountSearchPage,
});

// Optional (and generous) so that a missing or over-long reason gets the rules' messages
// ('Please enter a reason', 'Must be less than 150 characters (n/150)') with its field.
export const AccountComment = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, closed);

/** POST /accounts/{username}/lock { comment }: an active account becomes locked (reason required). */
export const lockAccount = defineEndpoint({
  method: 'POST',
  path: '/accounts/:username/lock',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: 'Locks an account; its sessions end',
  params: UsernameParams,
  body: AccountComment,
  response: Account,
  errors: [404, 409],
});

/** POST /accounts/{username}/unlock { comment }: a locked account becomes active (reason optional). */
export const unlockAccount = defineEndpoint({
  method: 'POST',
  path: '/accounts/:username/unlock',
  access: { permission: 'UNLOCK_ACCOUNT' },
  summary: 'Unlocks an account',
  params: UsernameParams,
  body: AccountComment,
  response: Account,
  errors: [404, 409],
});

/** POST /requests/close { username, reason }: the account is closed (reason required). */
export const closeAccount = defineEndpoint({
  method: 'POST',
  path: '/requests/close',
  access: { permission: 'SUBMIT_SURROGATE_REQUEST' },
  summary: 'Closes an account; its sessions end and its open requests are denied',
  body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.Optional(Type.String({ maxLength: 2000 })) }, closed),
  response: Account,
  errors: [404, 409],
});

/**
 * GET /accounts/{username}/history.csv: the account's history as CSV. Opened by a plain link, so
 * that the browser saves the file: no anti-forgery header. It is a read that changes nothing,
 * and another site cannot read the answer (same-origin policy).
 */
export const accountHistoryCsv = defineEndpoint({
  method: 'GET',
  path: '/accounts/:username/history.csv',
  access: { permission: 'VIEW_ACCOUNT' },
  xsrf: false,
  summary: "An account's history as CSV (who, when, what, why)",
  params: UsernameParams,
  response: Type.String(),
  errors: [404],
});
