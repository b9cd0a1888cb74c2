/** remote-groups: groups, memberships and group administration (architecture.md). */
import { pendingPage, type RemoteModule, route, SIGNED_IN } from '@portal/shared';
import { Navigate } from 'react-router-dom';

/** Spec section 2: the bare forms of the group routes go to /groups. */
function ToGroups() {
  return <Navigate to="/groups" replace />;
}

const remote: RemoteModule = {
  name: 'groups',
  contract: '^1.0.0',
  // Group pages check the caller's per-group permissions themselves (spec section 6).
  routes: [
    route('groups', 'Groups', SIGNED_IN, pendingPage('Groups')),
    route('request-user-group', 'Request User Group', SIGNED_IN, pendingPage('Request User Group')),
    route('edit-usergroup-details', 'Groups', SIGNED_IN, ToGroups),
    route('edit-usergroup-details/:usergroupId', 'Edit User Group Details', SIGNED_IN, pendingPage('Edit User Group Details')),
    route('request-membership', 'Groups', SIGNED_IN, ToGroups),
    route('request-membership/:usergroupId/:username?', 'Request Membership', SIGNED_IN, pendingPage('Request Membership')),
    route('change-membership', 'Groups', SIGNED_IN, ToGroups),
    route('change-membership/:usergroupId/:username?', 'Change Membership', SIGNED_IN, pendingPage('Change Membership')),
    route('group-administration', 'Groups', SIGNED_IN, ToGroups),
    route('group-administration/:usergroupId/:requestId?', 'Group Administration', SIGNED_IN, pendingPage('Group Administration')),
    route('add-user-to-group', 'Groups', SIGNED_IN, ToGroups),
    route('add-user-to-group/:usergroupId/:username?', 'Add User To Group', SIGNED_IN, pendingPage('Add User To Group')),
  ],
};

export default remote;
