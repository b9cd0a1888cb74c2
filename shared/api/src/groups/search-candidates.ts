import { Type } from 'typebox';
import { AccountSearchPage } from '../accounts/account-admin.js';
import { closed, MAX_PAGE_SIZE } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { GroupIdParams } from './groups.js';

/**
 * POST /usergroups/{id}/candidates { term, start_index? }: 'Add User To Group' (spec section 2): the
 * accounts a group admin may add, searched like POST /accounts/search (every word of the term
 * matches the start of the username, a name or the email), for holders of
 * ADJUDICATE_MEMBERSHIP_REQUEST in the group, who need not hold SEARCH_ACCOUNTS.
 */
export const searchGroupCandidates = defineEndpoint({
  method: 'POST',
  path: '/usergroups/:id/candidates',
  access: { groupPermission: 'ADJUDICATE_MEMBERSHIP_REQUEST' },
  summary: 'Accounts a group admin may add to the group, matching a term',
  params: GroupIdParams,
  body: Type.Object(
    {
      term: Type.Optional(Type.String({ maxLength: 255 })),
      start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
    },
    closed,
  ),
  response: AccountSearchPage,
  errors: [404],
});
