import { defineEndpoint } from '../endpoint.js';
import { AccountSearch, AccountSearchPage } from './account-admin.js';

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
