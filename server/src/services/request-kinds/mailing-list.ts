/**
 * Mailing list requests (kind 'mailinglist', MAILING_LIST): a new list (details: list_id,
 * user_group, permission_group, description, posting_permissions, automatic_subscription). The
 * decision and the mail only, until the mailing-list work creates the list.
 */
import type { RequestRowRecord } from '../../repositories/request-queue.js';
import { decisionOnly, pendingQueue, str } from './common.js';
import { registerRequestKind } from './registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.list_id);

registerRequestKind({
  kind: 'mailinglist',
  ...pendingQueue('MAILING_LIST'),
  identifier,
  detailFields: ({ details }) => ({ ...details }),
  decide: decisionOnly('mailing list', identifier),
});
