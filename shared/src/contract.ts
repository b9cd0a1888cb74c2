/**
 * The seam between the host and the remotes, and the environment manifest that pins them.
 *
 * A remote exposes one module, `./routes`, whose default export is a {@link RemoteModule}.
 * The host never imports a remote: it learns the remotes from the environment manifest at
 * start and loads a remote's module the first time one of its routes is visited.
 */
import type { ComponentType } from 'react';
import type { Permission, SessionBody } from '@portal/api';

/**
 * The version of this contract that the host implements. Remotes declare a range of it.
 * 1.1: the host provides the module federation runtime; a remote built since (its entry carries
 * none of its own) declares ^1.1.0, so a host from before is never asked to run it.
 * 1.2: the host provides the portal's antd in two shared parts, `@portal/antd-core` and
 * `@portal/antd-more` (shared/build/antd-imports-loader.cjs); a remote built since takes antd's
 * components from them and brings no antd of its own, so it declares ^1.2.0. Remotes built for
 * 1.0 and 1.1 import `antd`, which the host still provides (all the parts as one module).
 * 1.3: the host provides the form primitives as a singleton of their own, `@portal/shared/forms`
 * (@portal/shared 0.3.2), and antd's forms part, `@portal/antd-forms`; a page loads them with its
 * first form. A remote built since imports its forms from there, so it declares ^1.3.0. Remotes
 * built for 1.2 import them from `@portal/shared`, whose root still exports them, loading them on
 * demand (ui/formsOnDemand.tsx).
 * 1.4: antd's second part is split in two, `@portal/antd-data` (tables, selects, tags, the empty
 * state) and `@portal/antd-details` (descriptions, flex), with List moved to `@portal/antd-extra`:
 * a table's page no longer downloads what only the details pages render. A remote built since
 * takes those names from the new parts, so it declares ^1.4.0. Remotes built for 1.2 and 1.3 import
 * them from `@portal/antd-more`, which the host still provides (shared/src/antd-more.ts).
 * 1.5: Tag moves from `@portal/antd-data` to the first part, `@portal/antd-core`: an account's
 * details (its status tag) no longer wait for the tables' part, and /profile shows its heading and
 * details before its groups' table has loaded. A remote built since takes Tag from the first part,
 * so it declares ^1.5.0. Remotes built for 1.4 import it from `@portal/antd-data`, which still
 * exports it (the first part's).
 */
export const CONTRACT_VERSION = '1.5.0';

/** Who may open a route. */
export type RouteAccess =
  /** Visitors: no session needed (request an account, check its status …). */
  | { readonly kind: 'public' }
  /** Any signed-in user. */
  | { readonly kind: 'session' }
  /** A signed-in user holding this session permission (spec section 6). */
  | { readonly kind: 'permission'; readonly permission: Permission };

export interface RemoteRoute {
  /** Relative to the portal root, React Router syntax: 'groups', 'edit-usergroup-details/:id'. */
  readonly path: string;
  /** The page title, also used as the document title. */
  readonly title: string;
  readonly access: RouteAccess;
  readonly Component: ComponentType;
}

export interface RemoteModule {
  /** The remote's federation name, as in the environment manifest. */
  readonly name: string;
  /** The range of {@link CONTRACT_VERSION} this build was written against, e.g. '^1.0.0'. */
  readonly contract: string;
  readonly routes: readonly RemoteRoute[];
}

/** The module a remote exposes; the host loads `${name}/${REMOTE_EXPOSE}`. */
export const REMOTE_EXPOSE = 'routes';

// ---------------------------------------------------------------------------------------------
// The environment manifest: one per environment, edited by platform admins, served no-store.

export interface EnvironmentRemote {
  /** Federation name: letters, digits and underscores, starting with a letter. */
  readonly name: string;
  /** The pinned version, served from /remotes/{name}/{version}/. Either this or `entry`. */
  readonly version?: string;
  /**
   * An explicit URL of the remote's remoteEntry.js, for remotes hosted elsewhere. A URL of its
   * mf-manifest.json stands for the remoteEntry.js beside it (the host reads no manifest).
   */
  readonly entry?: string;
  /** The range of the host's contract the remote needs. */
  readonly contract: string;
  /** Path prefixes the remote owns, e.g. '/groups'. A path matches a prefix exactly or below it. */
  readonly routes: readonly string[];
}

export interface EnvironmentManifest {
  readonly environment: string;
  readonly remotes: readonly EnvironmentRemote[];
}

/** The manifest as the server serves it: every remote has a resolved `entry`. */
export interface ResolvedEnvironmentRemote extends EnvironmentRemote {
  readonly entry: string;
  /**
   * Subresource integrity of the remote's entry files ('sha384-…'), by URL path: the browser
   * refuses an entry whose bytes differ from what was published. Absent for a developer's override.
   */
  readonly integrity?: Readonly<Record<string, string>>;
  /** This browser runs a platform administrator's preview of this version, not the environment's pin. */
  readonly preview?: boolean;
}
export interface ResolvedEnvironmentManifest {
  readonly environment: string;
  readonly remotes: readonly ResolvedEnvironmentRemote[];
}

/**
 * What the server's first HTML carries for the host, as JSON in `<script id="portal-boot">`
 * (server/src/routes/host.ts writes it, host/src/prefetch.ts reads it), so that the page needs
 * no round trip before its content. Each field is what its call would answer at that moment.
 */
export interface BootData {
  /** As GET /configuration answers (its public fields). */
  readonly configuration?: unknown;
  /** As /environment.json answers; null when the server could not read it (the host asks). */
  readonly environment?: ResolvedEnvironmentManifest | null;
  /**
   * As GET /sessions/current answers: the signed-in user, or null when nobody is (it would answer
   * 401). Absent when the server could not tell: the host asks.
   */
  readonly session?: SessionBody | null;
  /**
   * As GET /xsrf answers: the anti-forgery token of the session in the caller's cookie. Absent
   * when the caller has no usable session yet: the first call that needs one asks GET /xsrf,
   * which starts it.
   */
  readonly xsrf?: string;
}

export const REMOTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const ROUTE_PREFIX = /^\/[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;
const VERSION_TEXT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * Checks a manifest read from disk (`resolved: false`: exactly one of version and entry) or as
 * the server serves it (`resolved: true`: every remote has an entry; the version stays as
 * information). Returns the problems, each naming where it is ('remotes[2].version: …'); an
 * empty list means the manifest is usable.
 */
export function validateEnvironmentManifest(value: unknown, { resolved = false }: { resolved?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['the manifest must be a JSON object'];
  const m = value as Record<string, unknown>;
  if (typeof m.environment !== 'string' || m.environment.trim() === '') problems.push('environment: must be a non-empty string');
  if (!Array.isArray(m.remotes)) return [...problems, 'remotes: must be a list'];
  const names = new Set<string>();
  const owners = new Map<string, string>();
  m.remotes.forEach((r: unknown, i) => {
    const at = `remotes[${i}]`;
    if (typeof r !== 'object' || r === null) return problems.push(`${at}: must be an object`);
    const remote = r as Record<string, unknown>;
    if (typeof remote.name !== 'string' || !REMOTE_NAME.test(remote.name)) {
      problems.push(`${at}.name: must be letters, digits and underscores, starting with a letter`);
    } else if (names.has(remote.name)) {
      problems.push(`${at}.name: '${remote.name}' is listed twice`);
    } else names.add(remote.name);
    const hasVersion = remote.version !== undefined;
    const hasEntry = remote.entry !== undefined;
    if (resolved ? !hasEntry : hasVersion === hasEntry) {
      problems.push(resolved ? `${at}.entry: the server did not resolve it` : `${at}: give exactly one of version and entry`);
    }
    if (hasVersion && (typeof remote.version !== 'string' || !VERSION_TEXT.test(remote.version))) {
      problems.push(`${at}.version: must be a version such as 1.2.3`);
    }
    if (hasEntry && (typeof remote.entry !== 'string' || !/^(https?:\/\/|\/)/.test(remote.entry))) {
      problems.push(`${at}.entry: must be an absolute http(s) URL or a path starting with /`);
    }
    if (remote.integrity !== undefined) {
      const integrity = remote.integrity as unknown;
      const valid =
        typeof integrity === 'object' && integrity !== null && !Array.isArray(integrity) &&
        Object.values(integrity).every((v) => typeof v === 'string' && /^sha(256|384|512)-[A-Za-z0-9+/=]+$/.test(v));
      if (!valid) problems.push(`${at}.integrity: must map paths to digests such as sha384-…`);
    }
    if (remote.preview !== undefined && typeof remote.preview !== 'boolean') problems.push(`${at}.preview: must be true or false`);
    if (typeof remote.contract !== 'string' || remote.contract.trim() === '') {
      problems.push(`${at}.contract: must be a version range such as ^1.0.0`);
    }
    if (!Array.isArray(remote.routes) || remote.routes.length === 0) {
      problems.push(`${at}.routes: must be a non-empty list of path prefixes`);
    } else {
      for (const p of remote.routes) {
        if (typeof p !== 'string' || !ROUTE_PREFIX.test(p)) {
          problems.push(`${at}.routes: '${String(p)}' is not a path prefix such as /groups`);
          continue;
        }
        const owner = owners.get(p);
        if (owner !== undefined) problems.push(`${at}.routes: '${p}' is already owned by ${owner}`);
        else owners.set(p, String(remote.name));
      }
    }
    return undefined;
  });
  return problems;
}

/** Does `pathname` fall under `prefix` ('/groups' owns '/groups' and '/groups/x', not '/groupsx')? */
export function pathHasPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix + '/');
}

/** The remote owning a path, by the manifest's prefixes (longest prefix wins). */
export function remoteForPath<R extends EnvironmentRemote>(remotes: readonly R[], pathname: string): R | undefined {
  let best: { remote: R; length: number } | undefined;
  for (const remote of remotes) {
    for (const prefix of remote.routes) {
      if (pathHasPrefix(pathname, prefix) && (!best || prefix.length > best.length)) {
        best = { remote, length: prefix.length };
      }
    }
  }
  return best?.remote;
}
