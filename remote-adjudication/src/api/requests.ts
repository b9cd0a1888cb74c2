/** The search of denied new account requests (definition in @portal/api requests/search-denied-requests.ts); the queues' calls are @portal/shared/requests'. */
import * as api from '@portal/api';
import { PAGE_SIZE, type RequestPage } from '@portal/api';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

/** Denied new account requests matching the trimmed term, newest first, 30 a page. */
export function searchDeniedRequests(term: string, startIndex: number, options: Options = {}): Promise<RequestPage> {
  return call(api.searchDeniedRequests, { body: { term: term.trim(), start_index: startIndex, max_results: PAGE_SIZE } }, options);
}
