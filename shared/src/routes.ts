/** Small builders for a remote's route table (see contract.ts). */
import type { ComponentType } from 'react';
import type { RemoteRoute, RouteAccess } from './contract.js';
import type { Permission } from '@portal/api';

export const PUBLIC: RouteAccess = { kind: 'public' };
export const SIGNED_IN: RouteAccess = { kind: 'session' };
export function needs(permission: Permission): RouteAccess {
  return { kind: 'permission', permission };
}

export function route(path: string, title: string, access: RouteAccess, Component: ComponentType): RemoteRoute {
  return { path, title, access, Component };
}
