/** A queue's calls (definitions in @portal/api requests/requests.ts, built from the kind's declaration). */
import * as api from '@portal/api';
import { PAGE_SIZE, type Decision, type RequestDetailOf, type RequestKind, type RequestKindDefinition, type RequestPage } from '@portal/api';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };
type KindOf<K extends RequestKind> = RequestKindDefinition & { readonly kind: K };

/** A page of 30 of the kind's open requests from an index, oldest first. */
export function listRequests(kind: RequestKindDefinition, startIndex: number, options: Options = {}): Promise<RequestPage> {
  return call(api.listRequests(kind), { query: { start_index: startIndex, max_results: PAGE_SIZE } }, options);
}

/** One request (the id as the address gave it: the server refuses one that is not a number); 404 'Request not found.' for an unknown id or one of another kind. */
export function getRequest<K extends RequestKind>(kind: KindOf<K>, id: number | string, options: Options = {}): Promise<RequestDetailOf<K>> {
  return call(api.getRequest(kind), { params: { id: id as number } }, options) as Promise<RequestDetailOf<K>>;
}

/** Decides the request; answers it after the decision. */
export function decideRequest<K extends RequestKind>(
  kind: KindOf<K>,
  id: number | string,
  decision: Decision,
  comment: string,
  options: Options = {},
): Promise<RequestDetailOf<K>> {
  return call(api.decideRequest(kind, decision), { params: { id: id as number }, body: { comment } }, options) as Promise<RequestDetailOf<K>>;
}
