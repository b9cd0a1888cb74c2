/**
 * The host's module federation runtime plugin: the first two of the three layers of failure
 * handling (the third is the error boundary around each remote's slot).
 *
 * 1. Network retry: a remote's entry script that fails to load is tried again, with back-off.
 * 2. errorLoadRemote: whatever still fails becomes a RemoteLoadError naming the remote and the
 *    reason, which the host's slot turns into the "unavailable" panel.
 *
 * And subresource integrity: a remote's entry (remoteEntry.js) runs only when its bytes have the
 * digest the environment manifest gives for what was published; otherwise the browser refuses it
 * and the panel shows. The runtime fetches nothing else itself: built without the snapshot plugin,
 * it reads no mf-manifest.json (remoteLoader.ts, entryFile).
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { classifyLoadFailure, RemoteLoadError } from './errors';

export const RETRY_DELAYS_MS = [250, 1000];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type LoadEntryErrorArgs = Parameters<NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>>[0];
type RemoteEntryExports = Awaited<ReturnType<LoadEntryErrorArgs['getRemoteEntry']>>;

/** A remote entry script that failed to load is tried again, after a pause, a few times. */
export async function retryRemoteEntry(
  { getRemoteEntry, origin, remoteInfo, globalLoading, uniqueKey }: LoadEntryErrorArgs,
  delays = RETRY_DELAYS_MS,
): Promise<RemoteEntryExports | undefined> {
  for (const delay of delays) {
    await wait(delay);
    delete globalLoading[uniqueKey];
    try {
      const exports = await getRemoteEntry({ origin, remoteInfo });
      if (exports) return exports;
    } catch {
      // tried again below, or reported by errorLoadRemote
    }
  }
  return undefined;
}

/** Absolute URL → 'sha384-…' of the entry files of the remotes registered so far. */
const integrityByUrl = new Map<string, string>();

const absolute = (url: string): string => new URL(url, window.location.href).href;

/** Records the published digests of remotes' entry files (URL paths or URLs as the manifest gives them). */
export function trustIntegrity(digests: Readonly<Record<string, string>> | undefined): void {
  for (const [url, digest] of Object.entries(digests ?? {})) integrityByUrl.set(absolute(url), digest);
}

/** The digest a URL must have, if the manifest gave one. */
export function integrityFor(url: string): string | undefined {
  return integrityByUrl.get(absolute(url));
}

/** A script (or preload link) element carrying the digest of its URL; undefined for URLs without one. */
export function elementWithIntegrity<K extends 'script' | 'link'>(
  tag: K,
  url: string,
  attrs: Record<string, unknown> | undefined,
): HTMLElementTagNameMap[K] | undefined {
  const integrity = integrityFor(url);
  if (integrity === undefined) return undefined;
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (name === 'async' || name === 'defer') (element as HTMLScriptElement)[name] = Boolean(value);
    else element.setAttribute(name, String(value));
  }
  element.setAttribute(tag === 'script' ? 'src' : 'href', url);
  element.integrity = integrity;
  element.crossOrigin = 'anonymous';
  return element;
}

function remoteNameOf(id: string): string {
  return id.split('/')[0] ?? id;
}

export default function portalRuntimePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-remote-resilience',
    createScript({ url, attrs }) {
      return elementWithIntegrity('script', url, attrs);
    },
    createLink({ url, attrs }) {
      return elementWithIntegrity('link', url, attrs);
    },
    // The runtime's type says Promise<Promise<exports> | undefined>, which real promises flatten
    // to Promise<exports | undefined>: the same value at run time.
    loadEntryError: retryRemoteEntry as unknown as NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>,
    errorLoadRemote({ id, error }) {
      const remote = remoteNameOf(id);
      const reason = classifyLoadFailure(error);
      const message = error instanceof Error ? error.message : String(error);
      throw new RemoteLoadError(remote, reason, message, { cause: error });
    },
  };
}
