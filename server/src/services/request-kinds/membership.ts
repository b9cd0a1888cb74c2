/**
 * Membership requests (kind 'membership', MEMBERSHIP): joining or leaving groups of a user group
 * (details: user_group, join, leave). The decision and the mail only, until the groups work
 * changes the memberships.
 */
import type { RequestRowRecord } from '../../repositories/request-queue.js';
import { decisionOnly, pendingQueue, str } from './common.js';
import { registerRequestKind } from './registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.user_group);

registerRequestKind({
  kind: 'membership',
  ...pendingQueue('MEMBERSHIP'),
  identifier,
  detailFields: ({ details }) => ({ ...details }),
  decide: decisionOnly('membership', identifier),
});
