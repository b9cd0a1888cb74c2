import { MAX_SEARCH_TERM } from '../accounts/account-admin.js';
import { closed, MAX_PAGE_SIZE } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { RequestPage } from './requests.js';
import { Type } from 'typebox';

/** POST /requests/search-denied { term, start_index, max_results: 30 }: denied new account requests, newest first. */
export const searchDeniedRequests = defineEndpoint({
  method: 'POST',
  path: '/requests/search-denied',
  access: { permission: 'LIST_NEW_ACCOUNT_REQUESTS' },
  summary: 'Denied new account requests matching a term, newest first',
  body: Type.Object(
    {
      term: Type.Optional(Type.String({ maxLength: MAX_SEARCH_TERM })),
      start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
    },
    closed,
  ),
  response: RequestPage,
});
