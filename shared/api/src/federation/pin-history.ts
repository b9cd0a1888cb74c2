import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { EnvironmentName, PinHistoryEntry, RemoteName } from './federation.js';

const HistoryQuery = Type.Object({ environment: Type.Optional(EnvironmentName), remote: Type.Optional(RemoteName) }, closed);

/** GET /federation/history?environment=&remote=: the pin changes, newest first. */
export const getPinHistory = defineEndpoint({
  method: 'GET',
  path: '/federation/history',
  access: { permission: 'MANAGE_REMOTES' },
  summary: 'The history of pins in an environment (who, when, from, to, why), newest first',
  query: HistoryQuery,
  response: Type.Object({ environment: Type.String(), history: Type.Array(PinHistoryEntry) }, closed),
});

/**
 * GET /federation/history.csv?environment=: the history as CSV, oldest first. Opened by a plain
 * link so that the browser saves it: no anti-forgery header (a read that changes nothing).
 */
export const pinHistoryCsv = defineEndpoint({
  method: 'GET',
  path: '/federation/history.csv',
  access: { permission: 'MANAGE_REMOTES' },
  xsrf: false,
  summary: 'The history of pins in an environment as CSV',
  query: HistoryQuery,
  response: Type.String(),
});
