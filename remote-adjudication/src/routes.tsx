/** remote-adjudication: account administration and the request queues (architecture.md). */
import { needs, pendingPage, route, type RemoteModule } from '@portal/shared';

const remote: RemoteModule = {
  name: 'adjudication',
  contract: '^1.0.0',
  routes: [
    route('manage-accounts', 'Search Accounts', needs('SEARCH_ACCOUNTS'), pendingPage('Search Accounts')),
    route('manage-accounts/:username', 'Account Administration', needs('VIEW_ACCOUNT'), pendingPage('Account Administration')),
    route('list-account-requests', 'New Account Requests', needs('LIST_NEW_ACCOUNT_REQUESTS'), pendingPage('New Account Requests')),
    route('list-account-requests/:requestId', 'New Account Request', needs('VIEW_NEW_ACCOUNT_REQUEST'), pendingPage('New Account Request')),
    route('list-denied-account-requests', 'Denied Account Requests', needs('LIST_NEW_ACCOUNT_REQUESTS'), pendingPage('Denied Account Requests')),
    route('list-authentication-change-requests', 'Authentication Change Requests', needs('LIST_AUTH_CHANGE_REQUESTS'), pendingPage('Authentication Change Requests')),
    route('list-authentication-change-requests/:requestId', 'Authentication Change Request', needs('VIEW_AUTH_CHANGE_REQUEST'), pendingPage('Authentication Change Request')),
    route('list-email-change-requests', 'Email Change Requests', needs('LIST_EMAIL_CHANGE_REQUESTS'), pendingPage('Email Change Requests')),
    route('list-email-change-requests/:requestId', 'Email Change Request', needs('VIEW_EMAIL_CHANGE_REQUEST'), pendingPage('Email Change Request')),
    route('list-mailing-list-requests', 'Mailing List Requests', needs('LIST_MAILING_LIST_REQUESTS'), pendingPage('Mailing List Requests')),
    route('list-mailing-list-requests/:requestId', 'Mailing List Request', needs('VIEW_MAILING_LIST_REQUEST'), pendingPage('Mailing List Request')),
    route('list-user-group-requests', 'User Group Requests', needs('LIST_USER_GROUP_REQUESTS'), pendingPage('User Group Requests')),
    route('list-user-group-requests/:requestId', 'User Group Request', needs('VIEW_USER_GROUP_REQUEST'), pendingPage('User Group Request')),
    route('list-unlock-account-requests', 'Unlock Account Requests', needs('LIST_UNLOCK_REQUESTS'), pendingPage('Unlock Account Requests')),
    route('list-unlock-account-requests/:requestId', 'Unlock Account Request', needs('VIEW_UNLOCK_REQUEST'), pendingPage('Unlock Account Request')),
  ],
};

export default remote;
