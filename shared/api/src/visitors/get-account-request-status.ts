import { closed, EmailText } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { AccountRequestStatus } from './account-requests.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** POST /requests/new/status: the applicant's status check (Bearer code). */
export const getAccountRequestStatus = defineEndpoint({
  method: 'POST',
  path: '/requests/new/status',
  access: 'public',
  limit: 'status-check',
  xsrf: false,
  summary: "The applicant's view of their account request (Bearer code)",
  body: Type.Object({ email: EmailText }, closed),
  response: AccountRequestStatus,
  errors: VISITOR_ERRORS,
});
