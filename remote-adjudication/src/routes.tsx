/** remote-adjudication: account administration, the request queues and provisioning (docs/architecture.md, "The remotes"). */
import { adjudicationPages as pages, pageRoute } from '@portal/api';
import type { RemoteModule } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import { queueRoutes, requestDetailPage, requestListPage, type KindConfig } from '@portal/shared/requests';
import { AccountAdministrationPage } from './accounts/AccountAdministrationPage';
import { SearchAccountsPage } from './accounts/SearchAccountsPage';
import { DeniedRequestsPage } from './requests/DeniedRequestsPage';
import { KINDS, QUEUES } from './requests/kinds';

/** For platform administrators only: a chunk of its own, not downloaded with the queues. */
const ProvisioningPage = lazyPage(() => import('./provisioning/ProvisioningPage'), 'ProvisioningPage');

const accountQueueRoutes = (config: KindConfig) => queueRoutes(config, { list: requestListPage(config), detail: requestDetailPage(config) });

const remote: RemoteModule = {
  name: 'adjudication',
  contract: '^2.0.0',
  routes: [
    pageRoute(pages.manageAccounts, SearchAccountsPage),
    pageRoute(pages.accountAdministration, AccountAdministrationPage),
    // New account, authentication change, email change, unlock (the user group and mailing list
    // queues are remote-groups' and remote-mailing-lists').
    ...QUEUES.flatMap(accountQueueRoutes),
    pageRoute(pages.deniedRequests, DeniedRequestsPage),
    pageRoute(pages.deniedRequest, requestDetailPage(KINDS.new, pages.deniedRequest.title)),
    pageRoute(pages.provisioning, ProvisioningPage),
  ],
};

export default remote;
