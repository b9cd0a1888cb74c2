import { describeRemoteContract } from '@portal/shared/testing';
import remote from './routes';

describeRemoteContract(remote, {
  // Spec section 2: the bare forms of these routes go to /groups.
  redirects: {
    'edit-usergroup-details': '/groups',
    'request-membership': '/groups',
    'change-membership': '/groups',
    'group-administration': '/groups',
    'add-user-to-group': '/groups',
  },
  // The group pages name the group they are about (spec section 2: 'Add User To Group {id}').
  headings: {
    'edit-usergroup-details/:usergroupId': 'Edit User Group Details: sample-usergroupId',
    'request-membership/:usergroupId/:username?': 'Request Membership: sample-usergroupId',
    'change-membership/:usergroupId/:username?': 'Change Membership: sample-usergroupId',
    'group-administration/:usergroupId/:requestId?': 'Group Administration: sample-usergroupId',
    'add-user-to-group/:usergroupId/:username?': 'Add User To Group sample-usergroupId',
  },
});
