/** remote-adjudication: account administration, the request queues and provisioning (docs/architecture.md, "The remotes"). */
import { links } from '@portal/api';
import { needs, type RemoteModule, route, useConfiguration } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import type { ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import { AccountAdministrationPage } from './accounts/AccountAdministrationPage';
import { SearchAccountsPage } from './accounts/SearchAccountsPage';
import { DeniedRequestsPage } from './requests/DeniedRequestsPage';
import { DENIED, KINDS, QUEUES, type KindConfig } from './requests/kinds';
import { requestDetailPage } from './requests/RequestDetailPage';
import { requestListPage } from './requests/RequestListPage';

/** For platform administrators only: a chunk of its own, not downloaded with the queues. */
const ProvisioningPage = lazyPage(() => import('./provisioning/ProvisioningPage'), 'ProvisioningPage');

/** A page that exists only with CAC support: without it, the not-found page (as for any unknown address). */
function smartCardsOnly(Page: ComponentType): ComponentType {
  function SmartCardsOnly() {
    const { cac_support } = useConfiguration();
    return cac_support ? <Page /> : <Navigate to={links.notFound()} replace />;
  }
  return SmartCardsOnly;
}

/** A queue's two routes: its list and a request's details (`{list}/:requestId`). */
const queueRoutes = (config: KindConfig) => {
  const page = config.smartCardsOnly ? smartCardsOnly : (Page: ComponentType) => Page;
  return [
    route(config.listPath.slice(1), config.listTitle, needs(config.listPermission), page(requestListPage(config))),
    route(`${config.listPath.slice(1)}/:requestId`, config.detailTitle, needs(config.viewPermission), page(requestDetailPage(config))),
  ];
};

const remote: RemoteModule = {
  name: 'adjudication',
  contract: '^2.0.0',
  routes: [
    route('manage-accounts', 'Search Accounts', needs('SEARCH_ACCOUNTS'), SearchAccountsPage),
    route('manage-accounts/:username', 'Account Administration', needs('VIEW_ACCOUNT'), AccountAdministrationPage),
    // New account, authentication change, email change, mailing list, user group, unlock.
    ...QUEUES.flatMap(queueRoutes),
    route(DENIED.path.slice(1), DENIED.title, needs('LIST_NEW_ACCOUNT_REQUESTS'), DeniedRequestsPage),
    route(`${DENIED.path.slice(1)}/:requestId`, DENIED.detailTitle, needs('VIEW_NEW_ACCOUNT_REQUEST'), requestDetailPage(KINDS.new, DENIED.detailTitle)),
    route(links.provisioning().slice(1), 'Provisioning', needs('MANAGE_PROVISIONING'), ProvisioningPage),
  ],
};

export default remote;
