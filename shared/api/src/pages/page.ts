/**
 * A page of the portal, written once (docs/extending.md, "Adding a page"): its path pattern (as
 * the router matches it: '/group-administration/:usergroupId/:requestId?'), its title and who may
 * open it. The remote that serves it builds its route from it; any app links to it with `link`,
 * its parameters typed from the pattern, so that no app writes another's paths. Each remote's
 * pages are a module of this folder.
 */
import type { Permission } from '../permissions.js';

/** Who may open a page (the server checks the same on every call the page makes). */
export type PageAccess =
  /** Visitors: no session needed (request an account, check its status …). */
  | { readonly kind: 'public' }
  /** Any signed-in user. */
  | { readonly kind: 'session' }
  /** A signed-in user holding this session permission (spec section 6). */
  | { readonly kind: 'permission'; readonly permission: Permission };

export const PUBLIC: PageAccess = { kind: 'public' };
export const SIGNED_IN: PageAccess = { kind: 'session' };
export function needs(permission: Permission): PageAccess {
  return { kind: 'permission', permission };
}

export interface PortalPage<P extends `/${string}` = `/${string}`> {
  readonly pattern: P;
  readonly title: string;
  readonly access: PageAccess;
}

export function page<const P extends `/${string}`>(pattern: P, title: string, access: PageAccess): PortalPage<P> {
  return { pattern, title, access };
}

type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : P;
type Value = string | number;
/** A pattern's parameters: ':name' required, ':name?' optional. */
export type PageParams<P extends string> = { [S in Segments<P> as S extends `:${string}?` ? never : S extends `:${infer N}` ? N : never]: Value } & {
  [S in Segments<P> as S extends `:${infer N}?` ? N : never]?: Value | undefined;
};

/** The page's address with its parameters (each encoded; an absent optional one left out) and a query (empty values left out). */
export function link<P extends `/${string}`>(target: PortalPage<P>, params: PageParams<P>, query: Readonly<Record<string, string | undefined>> = {}): string {
  const values = params as Readonly<Record<string, Value | undefined>>;
  const path = target.pattern
    .split('/')
    .flatMap((segment) => {
      if (!segment.startsWith(':')) return [segment];
      const optional = segment.endsWith('?');
      const name = segment.slice(1, optional ? -1 : undefined);
      const value = values[name];
      if (value === undefined) {
        if (optional) return [];
        throw new Error(`${target.pattern}: no ${name}`);
      }
      return [encodeURIComponent(String(value))];
    })
    .join('/');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.append(key, value);
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The route a remote declares for a page: its pattern without the leading slash (the router's relative form). */
export const routePath = (target: PortalPage): string => target.pattern.slice(1);

/**
 * A page's route in its remote's table (@portal/shared's RemoteRoute): its path, title and access
 * as its pages' module writes them. Here rather than in @portal/shared, whose surface the host
 * provides: a remote built with it runs on a host built before it.
 */
export function pageRoute<C>(target: PortalPage, Component: C) {
  return { path: routePath(target), title: target.title, access: target.access, Component };
}

/** The bare address of a page with parameters ('request-membership' of '/request-membership/:usergroupId'), as a route with its own title and page. */
export function bareRoute<C>(target: PortalPage, title: string, Component: C) {
  return { path: routePath(target).split('/')[0] ?? '', title, access: target.access, Component };
}
