/**
 * A queue's two routes: its list and a request's details (`{list}/:requestId`), each with the
 * kind's permission. The pages are the owner's (lazily loaded where the owner's other pages must
 * not carry them); a queue for smart cards only leads to the not-found page without CAC support.
 */
import { links } from '@portal/api';
import { needs, route, useConfiguration, type RemoteRoute } from '@portal/shared';
import type { ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import type { QueueInfo } from './queue.js';

/** A page that exists only with CAC support: without it, the not-found page (as for any unknown address). */
function smartCardsOnly(Page: ComponentType): ComponentType {
  function SmartCardsOnly() {
    const { cac_support } = useConfiguration();
    return cac_support ? <Page /> : <Navigate to={links.notFound()} replace />;
  }
  return SmartCardsOnly;
}

export interface QueuePages {
  readonly list: ComponentType;
  readonly detail: ComponentType;
}

export function queueRoutes(queue: QueueInfo, pages: QueuePages): RemoteRoute[] {
  const page = queue.smartCardsOnly ? smartCardsOnly : (Page: ComponentType) => Page;
  const path = queue.listPath.slice(1);
  return [
    route(path, queue.listTitle, needs(queue.listPermission), page(pages.list)),
    route(`${path}/:requestId`, queue.detailTitle, needs(queue.viewPermission), page(pages.detail)),
  ];
}
