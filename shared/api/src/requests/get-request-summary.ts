import { defineEndpoint } from '../endpoint.js';
import { RequestSummary } from './requests.js';

export const getRequestSummary = defineEndpoint({
  method: 'GET',
  path: '/requests',
  access: { permission: 'VIEW_REQUEST_SUMMARY' },
  summary: 'How many requests wait in each queue',
  response: RequestSummary,
});
