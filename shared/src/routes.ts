/** Small builders for a remote's route table (see contract.ts); a page's route is built by @portal/api's `pageRoute`. */
import type { ComponentType } from 'react';
import type { RemoteRoute, RouteAccess } from './contract.js';

export { needs, PUBLIC, SIGNED_IN } from '@portal/api';

export function route(path: string, title: string, access: RouteAccess, Component: ComponentType): RemoteRoute {
  return { path, title, access, Component };
}
