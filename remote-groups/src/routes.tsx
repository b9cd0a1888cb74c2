/** remote-groups: groups, memberships and group administration (docs/architecture.md, "The remotes"; server/docs/groups.md). */
import { bareRoute, groupsPages as pages, links, pageRoute } from '@portal/api';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';
import type { RemoteModule } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import { queueInfo, queueRoutes } from '@portal/shared/requests';
import { Navigate } from 'react-router-dom';
import { GroupsPage } from './groups/GroupsPage';

// The pages with a form are chunks of their own: /groups, the table, does not bring the form
// stack with the remote's routes (the first page waits for fewer bytes).
const RequestUserGroupPage = lazyPage(() => import('./groups/RequestUserGroupPage'), 'RequestUserGroupPage');
const EditGroupDetailsPage = lazyPage(() => import('./groups/EditGroupDetailsPage'), 'EditGroupDetailsPage');
const RequestMembershipPage = lazyPage(() => import('./membership/MembershipPage'), 'RequestMembershipPage');
const ChangeMembershipPage = lazyPage(() => import('./membership/MembershipPage'), 'ChangeMembershipPage');
const GroupAdministrationPage = lazyPage(() => import('./administration/GroupAdministrationPage'), 'GroupAdministrationPage');
const AddUserToGroupPage = lazyPage(() => import('./membership/AddUserToGroupPage'), 'AddUserToGroupPage');
// The user group requests' queue, for adjudicators.
const userGroupQueue = () => import('./requests/userGroupQueue');
const userGroupQueuePages = { list: lazyPage(userGroupQueue, 'UserGroupRequestsPage'), detail: lazyPage(userGroupQueue, 'UserGroupRequestPage') };

/** Spec section 2: the bare forms of the group routes go to /groups. */
function ToGroups() {
  return <Navigate to={links.groups()} replace />;
}

const remote: RemoteModule = {
  name: 'groups',
  contract: '^2.0.0',
  // Group pages check the caller's per-group permissions themselves (spec section 6): the server
  // answers what the caller may do in each group.
  routes: [
    pageRoute(pages.groups, GroupsPage),
    pageRoute(pages.requestUserGroup, RequestUserGroupPage),
    bareRoute(pages.editUserGroupDetails, pages.groups.title, ToGroups),
    pageRoute(pages.editUserGroupDetails, EditGroupDetailsPage),
    bareRoute(pages.requestMembership, pages.groups.title, ToGroups),
    pageRoute(pages.requestMembership, RequestMembershipPage),
    bareRoute(pages.changeMembership, pages.groups.title, ToGroups),
    pageRoute(pages.changeMembership, ChangeMembershipPage),
    bareRoute(pages.groupAdministration, pages.groups.title, ToGroups),
    pageRoute(pages.groupAdministration, GroupAdministrationPage),
    bareRoute(pages.addUserToGroup, pages.groups.title, ToGroups),
    pageRoute(pages.addUserToGroup, AddUserToGroupPage),
    ...queueRoutes(queueInfo(userGroupRequestKind), userGroupQueuePages),
  ],
};

export default remote;
