import { Type, type Static } from 'typebox';
import { closed, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { POSTING_PERMISSIONS } from './model.js';

export const MailingListRequestBody = Type.Object(
  {
    user_group: Type.String({ maxLength: 100 }),
    /** The name typed; the address is made from it. */
    list_name: Type.String({ maxLength: 300 }),
    description: Type.String({ maxLength: 10_000 }),
    permission_group: Type.String({ maxLength: 300 }),
    posting_permissions: Type.Enum(POSTING_PERMISSIONS),
    automatic_subscription: Type.Boolean(),
    reason: Type.String({ maxLength: 10_000 }),
  },
  closed,
);
export type MailingListRequestBody = Static<typeof MailingListRequestBody>;

/** POST /requests/mailinglist: a new list for the group (SUBMIT_MAILING_LIST_REQUEST in it). */
export const requestMailingList = defineEndpoint({
  method: 'POST',
  path: '/requests/mailinglist',
  access: { groupPermission: 'SUBMIT_MAILING_LIST_REQUEST' },
  summary: 'Request a new mailing list for a user group',
  body: MailingListRequestBody,
  response: Type.Object({ ...OkCode.properties, list_id: Type.String() }, closed),
  errors: [404, 409],
});
