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
});
