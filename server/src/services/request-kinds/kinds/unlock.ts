/**
 * Unlock requests (kind 'unlock', UNLOCK: the help desk's queue too). Approved: the account is
 * active again with its failure count reset (if it was unlocked meanwhile, the approval stands
 * and changes nothing else); mail either way.
 */
import { unlockRequestKind } from '@portal/api/request-kinds/unlock';
import { ACCOUNT_ACTIONS } from '../../../adjudication-messages.js';
import { unlockAccount } from '../../sign-in.js';
import { accountOf, PENDING_QUEUE, withComment } from '../common.js';
import { registerRequestKind, type RequestKindDefinition } from '../registry.js';

const decide: RequestKindDefinition['decide'] = async (tx, request, decision, { actor, comment }) => {
  const account = await accountOf(tx, request);
  if (decision === 'approved') {
    await unlockAccount(tx, account.id, { comment: comment === '' ? `Unlock request ${request.id} approved.` : comment, username: actor.username, action: ACCOUNT_ACTIONS.unlocked });
  }
  const text =
    decision === 'approved'
      ? `The account '${account.username}' was unlocked. You may sign in again.`
      : `The request to unlock the account '${account.username}' was denied.`;
  return {
    mails: [{ to: account.email, subject: `Your unlock request was ${decision}`, text: [text, ...withComment(comment)].join('\n') }],
  };
};

registerRequestKind(unlockRequestKind, {
  ...PENDING_QUEUE,
  identifier: (request) => request.username,
  detailFields: ({ details }) => ({ ...details }),
  decide,
});
