/**
 * Mailing list requests (kind 'mailinglist', MAILING_LIST): a new list (details: list_id,
 * user_group, permission_group, description, posting_permissions, automatic_subscription).
 * Approval creates the list in the decision's transaction (and at the list engine, with its first
 * roster) and makes the requester a moderator;
 * an address taken meanwhile is a 409 and nothing changes. Denial mails only.
 */
import { MAILING_LIST_MESSAGES, POSTING_PERMISSIONS, type PostingPermission } from '@portal/api';
import { mailingListRequestKind } from '@portal/api/request-kinds/mailing-list';
import { ConflictError } from '../../../errors.js';
import { addListModerator, findMailingList, insertMailingList, mailingListExists } from '../../../repositories/mailing-lists.js';
import type { RequestRowRecord } from '../../../repositories/request-queue.js';
import { isUniqueViolation } from '../../../repositories/unique-violation.js';
import { accountOf, PENDING_QUEUE, str, withComment } from '../common.js';
import { registerRequestKind } from '../registry.js';

const identifier = (request: RequestRowRecord): string => str(request.details.list_id);

registerRequestKind(mailingListRequestKind, {
  ...PENDING_QUEUE,
  identifier,
  detailFields: ({ details }) => ({ ...details }),
  async decide(tx, request, decision, { comment, at, publicUrl, listEngine }) {
    const listId = identifier(request);
    const account = await accountOf(tx, request);
    if (decision !== 'approved') {
      return {
        mails: [
          {
            to: account.email,
            subject: `Your mailing list request was ${decision}`,
            text: [`Your request for the mailing list ${listId} was ${decision}.`, ...withComment(comment)].join('\n'),
          },
        ],
      };
    }
    if (await mailingListExists(tx, listId)) throw new ConflictError(MAILING_LIST_MESSAGES.listExists(listId));
    const d = request.details;
    const posting = str(d.posting_permissions);
    await insertMailingList(tx, {
      id: listId,
      userGroupId: str(d.user_group),
      description: str(d.description),
      permissionGroup: str(d.permission_group),
      postingPermissions: (POSTING_PERMISSIONS as readonly string[]).includes(posting) ? (posting as PostingPermission) : 'closed',
      automaticSubscription: d.automatic_subscription !== false,
      createdAt: at,
      requestId: request.id,
    });
    await addListModerator(tx, listId, account.id);
    // The engine's list (Mailman's) is made before the decision commits: if it cannot be, the
    // request stays pending (503) and may be approved again. Its roster follows through
    // provisioning (the new row is recorded), as every later change does.
    const list = await findMailingList(tx, listId);
    if (list) await listEngine.createList(tx, list);
    const link = `${publicUrl}/mailing-lists/${encodeURIComponent(listId)}`;
    return {
      mails: [
        {
          to: account.email,
          subject: `New mailing list ${listId} created`,
          text: [`New mailing list ${listId} created. You are its moderator.`, '', `Manage its members at ${link}`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  },
  raceConflict(error, request) {
    return isUniqueViolation(error, 'mailing_lists_pkey') ? new ConflictError(MAILING_LIST_MESSAGES.listExists(identifier(request))) : undefined;
  },
});
