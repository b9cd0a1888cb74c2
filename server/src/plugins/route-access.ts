/**
 * Every route under /accounts/rest declares who may call it, in its route config:
 *   config: { access: 'public' }            anyone, signed in or not
 *   config: { access: 'session' }           any signed-in user
 *   config: { permission: 'VIEW_ACCOUNT' }  a signed-in user holding that session permission
 * A route that declares none (or both, or an unknown permission) fails registration, so the
 * server does not start. A route may also declare `xsrf: false` to be exempt from the
 * anti-forgery check (e.g. sign-in). The declarations are recorded for listApiRoutes();
 * plugins/security.ts enforces them.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { RouteAccess } from '@portal/shared/contract';
import type { GroupPermission, Permission } from '@portal/api';
import { allPermissions } from '../services/roles.js';
import { unencapsulated } from './unencapsulated.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** For routes under /accounts/rest: 'public' (anyone) or 'session' (any signed-in user). */
    access?: 'public' | 'session';
    /** For routes under /accounts/rest: the session permission the caller needs. */
    permission?: Permission;
    /** With access 'session': the permission the caller needs in the user group the call names (the service checks it). */
    groupPermission?: GroupPermission;
  }
  interface FastifyInstance {
    /** The routes under /accounts/rest with their declared access, in registration order. */
    readonly apiRoutes: readonly ApiRoute[];
  }
}

export const API_PREFIX = '/accounts/rest';

export interface ApiRoute {
  readonly method: string;
  readonly url: string;
  readonly access: RouteAccess;
  /** Whether the route needs the anti-forgery header (false: declared `xsrf: false`). */
  readonly xsrf: boolean;
  /** With access 'session': the permission the service checks inside the user group the call names. */
  readonly groupPermission?: GroupPermission;
}

export class RouteDeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteDeclarationError';
  }
}

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** The access a route declares; throws RouteDeclarationError when it declares none or both. */
export function declaredAccess(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): RouteAccess {
  const config: Record<string, unknown> = { ...(route.config ?? {}) };
  const where = `${String(route.method)} ${route.url}`;
  const { access, permission } = config;
  if (access !== undefined && permission !== undefined) {
    throw new RouteDeclarationError(`${where}: declare either config.access or config.permission, not both`);
  }
  if (permission !== undefined) {
    // Every permission this server knows: spec section 6's and those of the request kinds it registered.
    if (!allPermissions().includes(permission as Permission)) throw new RouteDeclarationError(`${where}: '${String(permission)}' is not a permission`);
    return { kind: 'permission', permission: permission as Permission };
  }
  if (access === 'public' || access === 'session') return { kind: access };
  if (access !== undefined) {
    throw new RouteDeclarationError(`${where}: config.access must be 'public' or 'session', not '${String(access)}'`);
  }
  throw new RouteDeclarationError(
    `${where}: every route under ${API_PREFIX} must declare config.access ('public' or 'session') or config.permission`,
  );
}

/** Whether a route needs the anti-forgery header; throws RouteDeclarationError for a value other than true/false. */
export function declaredXsrf(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): boolean {
  const xsrf: unknown = (route.config as Record<string, unknown> | undefined)?.xsrf;
  if (xsrf === undefined) return true;
  if (typeof xsrf !== 'boolean') {
    throw new RouteDeclarationError(`${String(route.method)} ${route.url}: config.xsrf must be true or false, not '${String(xsrf)}'`);
  }
  return xsrf;
}

/** The API routes with their declared access, sorted by path then method. HEAD twins of GET routes are left out. */
export function listApiRoutes(app: FastifyInstance): ApiRoute[] {
  return [...app.apiRoutes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

export const routeAccessPlugin = unencapsulated(async function routeAccess(app: FastifyInstance) {
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const access = declaredAccess(route);
    const xsrf = declaredXsrf(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' && routes.some((r) => r.method === 'GET' && r.url === route.url)) continue;
      const groupPermission = route.config?.groupPermission;
      routes.push({ method, url: route.url, access, xsrf, ...(groupPermission ? { groupPermission } : {}) });
    }
  });
}, 'route-access');
