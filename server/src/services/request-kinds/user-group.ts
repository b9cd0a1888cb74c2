/**
 * User group requests (kind 'usergroup', USER_GROUP): a new user group (details: user_group,
 * name, description, open_access, memberConstraint, visibility, groups). The decision and the
 * mail only, until the groups work creates the group.
 */
import type { RequestRowRecord } from '../../repositories/request-queue.js';
import { decisionOnly, pendingQueue, str } from './common.js';
import { registerRequestKind } from './registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.user_group);

registerRequestKind({
  kind: 'usergroup',
  ...pendingQueue('USER_GROUP'),
  identifier,
  detailFields: ({ details }) => ({ ...details }),
  decide: decisionOnly('user group', identifier),
});
