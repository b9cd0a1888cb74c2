/** remote-mailing-lists' sidebar entries (spec section 2): Mailing Lists, and the mailing list requests' queue with its count. */
import { mailingListsPages, pageEntry, queueEntry } from '@portal/api';
import { mailingListRequestKind } from '@portal/api/request-kinds/mailing-list';

export const navigation = [
  pageEntry(mailingListsPages.mailingLists, { section: 'main', order: 40, label: 'Mailing Lists' }),
  queueEntry(mailingListRequestKind, { order: 60, label: 'Mailing List Requests' }),
];
