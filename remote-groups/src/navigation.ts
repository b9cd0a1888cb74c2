/** remote-groups' sidebar entries (spec section 2): Groups, and the user group requests' queue with its count. */
import { groupsPages, pageEntry, queueEntry } from '@portal/api';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';

export const navigation = [
  pageEntry(groupsPages.groups, { section: 'main', order: 30, label: 'Groups' }),
  queueEntry(userGroupRequestKind, { order: 70, label: 'User Group Requests' }),
];
