import { UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

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
