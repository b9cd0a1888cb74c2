import { Type } from 'typebox';
import { defineEndpoint } from '../endpoint.js';
import { requestSummarySchema, type RequestKindDeclaration, type RequestSummary } from './kinds.js';

/**
 * GET /requests: how many requests wait in each queue (spec section 3, "Request summary counts"),
 * one `total_{kind}` per kind with a queue. The server answers with the kinds it registered
 * (`requestSummaryEndpoint`); a client reads the counts it knows by name.
 */
export const getRequestSummary = defineEndpoint({
  method: 'GET',
  path: '/requests',
  access: { permission: 'VIEW_REQUEST_SUMMARY' },
  summary: 'How many requests wait in each queue',
  response: Type.Unsafe<RequestSummary>(Type.Record(Type.String({ pattern: '^total_' }), Type.Integer())),
});

/** The server's GET /requests, its answer closed over the kinds it registered. */
export const requestSummaryEndpoint = (kinds: Iterable<RequestKindDeclaration>) =>
  defineEndpoint({ ...getRequestSummary, response: Type.Unsafe<RequestSummary>(requestSummarySchema(kinds)) });
