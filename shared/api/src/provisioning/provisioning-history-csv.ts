import { Type } from 'typebox';
import { defineEndpoint } from '../endpoint.js';

/**
 * GET /provisioning/history.csv: the history kept (PORTAL_PROVISIONING_HISTORY_DAYS), oldest
 * first. Opened by a plain link so that the browser saves it: no anti-forgery header (a read).
 */
export const provisioningHistoryCsv = defineEndpoint({
  method: 'GET',
  path: '/provisioning/history.csv',
  access: { permission: 'MANAGE_PROVISIONING' },
  xsrf: false,
  summary: 'The provisioning history as CSV',
  response: Type.String(),
});
