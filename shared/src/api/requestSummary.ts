/** GET /requests: how many requests wait in each queue (spec section 3, "Request summary counts"). */
import { apiRequest } from './client.js';

export interface RequestSummary {
  readonly total_authchange: number;
  readonly total_profilechange: number;
  readonly total_mailinglist: number;
  readonly total_new: number;
  readonly total_usergroup: number;
  readonly total_unlock: number;
}

export function getRequestSummary(options: { signal?: AbortSignal } = {}): Promise<RequestSummary> {
  return apiRequest<RequestSummary>('GET', '/requests', options);
}
