/** remote-adjudication: account administration, the request queues and provisioning (docs/architecture.md, "The remotes"). */
import { links } from '@portal/api';
import { needs, type RemoteModule, route } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import { queueRoutes, requestDetailPage, requestListPage, type KindConfig } from '@portal/shared/requests';
import { AccountAdministrationPage } from './accounts/AccountAdministrationPage';
import { SearchAccountsPage } from './accounts/SearchAccountsPage';
import { DeniedRequestsPage } from './requests/DeniedRequestsPage';
import { DENIED, KINDS, QUEUES } from './requests/kinds';

/** For platform administrators only: a chunk of its own, not downloaded with the queues. */
const ProvisioningPage = lazyPage(() => import('./provisioning/ProvisioningPage'), 'ProvisioningPage');

const accountQueueRoutes = (config: KindConfig) => queueRoutes(config, { list: requestListPage(config), detail: requestDetailPage(config) });

const remote: RemoteModule = {
  name: 'adjudication',
  contract: '^2.0.0',
  routes: [
    route('manage-accounts', 'Search Accounts', needs('SEARCH_ACCOUNTS'), SearchAccountsPage),
    route('manage-accounts/:username', 'Account Administration', needs('VIEW_ACCOUNT'), AccountAdministrationPage),
    // New account, authentication change, email change, unlock (the user group and mailing list
    // queues are remote-groups' and remote-mailing-lists').
    ...QUEUES.flatMap(accountQueueRoutes),
    route(DENIED.path.slice(1), DENIED.title, needs('LIST_NEW_ACCOUNT_REQUESTS'), DeniedRequestsPage),
    route(`${DENIED.path.slice(1)}/:requestId`, DENIED.detailTitle, needs('VIEW_NEW_ACCOUNT_REQUEST'), requestDetailPage(KINDS.new, DENIED.detailTitle)),
    route(links.provisioning().slice(1), 'Provisioning', needs('MANAGE_PROVISIONING'), ProvisioningPage),
  ],
};

export default remote;
