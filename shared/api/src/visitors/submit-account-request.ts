import { defineEndpoint } from '../endpoint.js';
import { AccountRequest, Submitted } from './account-requests.js';
import { VISITOR_ERRORS } from './verification.js';

/** POST /requests/new: an account request for a website token. */
export const submitAccountRequest = defineEndpoint({
  method: 'POST',
  path: '/requests/new',
  access: 'public',
  limit: 'account-request',
  xsrf: false,
  summary: 'Requests an account (website token)',
  body: AccountRequest,
  response: Submitted,
  errors: VISITOR_ERRORS,
});
