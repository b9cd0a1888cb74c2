/**
 * Email change requests (kind 'profilechange', EMAIL_CHANGE): the account's email becomes the
 * request's (`email` is the new address, details.previous_email the one it had). Approved: the
 * address changes and both addresses are mailed; denied: the current address is mailed.
 */
import { profileChangeRequestKind } from '@portal/api/request-kinds/profile-change';
import { ACCOUNT_ACTIONS, ADJUDICATION_MESSAGES } from '../../../adjudication-messages.js';
import { ConflictError } from '../../../errors.js';
import { accountExists, addAccountUpdate, setAccountEmail } from '../../../repositories/accounts.js';
import { isUniqueViolation } from '../../../repositories/unique-violation.js';
import { ACCOUNT_UNIQUE_INDEXES, accountOf, PENDING_QUEUE, str, withComment } from '../common.js';
import { registerRequestKind, type RequestKindDefinition } from '../registry.js';

const decide: RequestKindDefinition['decide'] = async (tx, request, decision, { actor, comment, at }) => {
  const account = await accountOf(tx, request);
  if (decision !== 'approved') {
    return {
      mails: [
        {
          to: account.email,
          subject: 'Your email change request was denied',
          text: [`The request to change the email address of the account '${account.username}' to ${request.email} was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const taken = await accountExists(tx, { email: request.email });
  if (taken.email) throw new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email));
  await setAccountEmail(tx, account.id, request.email);
  await addAccountUpdate(tx, {
    accountId: account.id,
    action: ACCOUNT_ACTIONS.emailChanged,
    comment: `${account.email} → ${request.email}${comment === '' ? '' : `: ${comment}`}`,
    username: actor.username,
    active: account.active,
    at,
  });
  const text = (to: string) =>
    [
      `The email address of the account '${account.username}' was changed from ${account.email} to ${request.email}.`,
      `Mail for the account now goes to ${to === request.email ? 'this address' : request.email}.`,
      ...withComment(comment),
    ].join('\n');
  return {
    mails: [
      { to: account.email, subject: 'Your email address was changed', text: text(account.email) },
      { to: request.email, subject: 'Your email address was changed', text: text(request.email) },
    ],
  };
};

registerRequestKind(profileChangeRequestKind, {
  ...PENDING_QUEUE,
  identifier: (request) => request.email,
  detailFields: ({ details }) => ({ previous_email: str(details.previous_email) }),
  decide,
  // Two approvals racing for one address (different accounts): the unique index decides.
  raceConflict: (error, request) =>
    isUniqueViolation(error, ACCOUNT_UNIQUE_INDEXES.email) ? new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email)) : undefined,
});
