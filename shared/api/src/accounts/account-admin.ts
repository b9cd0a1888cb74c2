/**
 * Account administration (server/docs/adjudication.md, "Accounts"): the search, lock, unlock,
 * close and the history export.
 */
import { Type, type Static } from 'typebox';
import { closed, MAX_PAGE_SIZE, Page } from '../common.js';
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

// Optional (and generous) so that a missing or over-long reason gets the rules' messages
// ('Please enter a reason', 'Must be less than 150 characters (n/150)') with its field.
export const AccountComment = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, closed);
