/** remote-mailing-lists' pages: lists, their members, held messages and the list request (spec section 2); each checks the caller's permissions on the list itself. */
import { link, page, SIGNED_IN } from './page.js';

export const mailingListsPages = {
  mailingLists: page('/mailing-lists', 'Mailing Lists', SIGNED_IN),
  newMailingList: page('/mailing-lists/new/:groupId', 'Request Mailing List', SIGNED_IN),
  mailingList: page('/mailing-lists/:listId', 'Mailing List Members', SIGNED_IN),
  mailingListQueue: page('/mailing-lists/:listId/queue', 'Held Messages', SIGNED_IN),
} as const;

const p = mailingListsPages;
export const mailingListsLinks = {
  mailingLists: () => link(p.mailingLists, {}),
  newMailingList: (groupId: string) => link(p.newMailingList, { groupId }),
  mailingList: (listId: string) => link(p.mailingList, { listId }),
  mailingListQueue: (listId: string) => link(p.mailingListQueue, { listId }),
};
