/**
 * Registers the environment's remotes with the module federation runtime and loads a remote's
 * routes the first time one of its paths is visited. Nothing about remotes is compiled into the
 * host: names and entries come from the environment manifest.
 */
import { loadRemote as mfLoadRemote, registerRemotes as mfRegisterRemotes } from '@module-federation/enhanced/runtime';
import { REMOTE_EXPOSE, type RemoteModule } from '@portal/shared';
import type { PortalRemote } from './environment';
import { RemoteLoadError } from './errors';
import { asRemoteModule } from './remoteModule';
import { trustIntegrity } from './runtimePlugin';

/** The part of the federation runtime the host uses (a seam for unit tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote(id: string): Promise<unknown>;
}

export const federationRuntime: FederationRuntime = {
  registerRemotes: (remotes, options) => mfRegisterRemotes(remotes, options),
  loadRemote: (id) => mfLoadRemote(id),
};

/**
 * The file the runtime loads for an entry: the remote's remoteEntry.js. The host's runtime is
 * built without the snapshot plugin (shared/build/federation.cjs, 3.9 KB brotli less on every
 * page, and no mf-manifest.json to fetch before the entry), so an entry given as a remote's
 * mf-manifest.json (a developer's override, an environment's explicit URL) stands for the
 * remoteEntry.js beside it, as the portal's remote builds name it.
 */
export function entryFile(entry: string): string {
  return entry.replace(/(^|\/)mf-manifest\.json(?=$|[?#])/, '$1remoteEntry.js');
}

/** A webpack chunk (a remote's routes or a page of it) that did not load, however the runtime wrapped it. */
function isChunkLoadFailure(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e.name === 'ChunkLoadError' || /^Loading chunk \S+ failed\./.test(e.message)) return true;
  return false;
}

export class RemoteLoader {
  private readonly loading = new Map<string, Promise<RemoteModule>>();

  constructor(private readonly runtime: FederationRuntime = federationRuntime) {}

  /** Registers the remotes this host can run, with their entry files' digests. Incompatible ones are left out. */
  register(remotes: readonly PortalRemote[], force = false): void {
    for (const remote of remotes) trustIntegrity(remote.integrity);
    const usable = remotes.filter((r) => r.compatible).map(({ name, entry }) => ({ name, entry: entryFile(entry) }));
    if (usable.length > 0) this.runtime.registerRemotes(usable, { force });
    // Registered afresh, a remote's entry may have changed: it is loaded again when next asked for.
    if (force) {
      for (const { name } of usable) {
        this.loading.delete(name);
        this.ready.delete(name);
      }
    }
  }

  /** The remotes whose module has arrived, by name: a page of theirs renders without waiting. */
  private readonly ready = new Map<string, RemoteModule>();

  load(remote: PortalRemote): Promise<RemoteModule> {
    const existing = this.loading.get(remote.name);
    if (existing) return existing;
    const promise = this.startLoad(remote);
    this.loading.set(remote.name, promise);
    promise.then(
      (module) => {
        if (this.loading.get(remote.name) === promise) this.ready.set(remote.name, module);
      },
      // A failure is not cached: the next visit (or Retry) tries again.
      () => {
        if (this.loading.get(remote.name) === promise) this.loading.delete(remote.name);
      },
    );
    return promise;
  }

  /** The remote's module when it has already arrived (no waiting, not even a render), else undefined. */
  loaded(remote: PortalRemote): RemoteModule | undefined {
    return this.ready.get(remote.name);
  }

  /**
   * Forgets a failed remote and registers it afresh so that the runtime fetches it again. A chunk
   * that fails on that try is tried once more at once: a script the first HTML preloaded while the
   * remote could not be reached stays failed in Chromium's preload cache, so the first script that
   * asks for it fails without a request; the next one fetches it.
   */
  async retry(remote: PortalRemote): Promise<RemoteModule> {
    try {
      return await this.retryOnce(remote);
    } catch (error) {
      if (!isChunkLoadFailure(error)) throw error;
      return this.retryOnce(remote);
    }
  }

  private retryOnce(remote: PortalRemote): Promise<RemoteModule> {
    this.loading.delete(remote.name);
    this.ready.delete(remote.name);
    if (remote.compatible) this.runtime.registerRemotes([{ name: remote.name, entry: entryFile(remote.entry) }], { force: true });
    return this.load(remote);
  }

  /**
   * Loads a remote ahead of a visit (when the page is idle, or on hover or focus of a link to it):
   * its entry and routes fetched and run, once. A visit then finds its module ready and renders the
   * page at once, in the navigation's first render, as a page of a remote already open is (fetched
   * but not run, the visit still rendered the loading state first and the page only in a second
   * pass, which delayed the page's data request by 30–60 ms). Never fails loudly: a failure
   * is forgotten, and the visit or the next preload tries again.
   */
  preload(remote: PortalRemote): void {
    if (!remote.compatible || this.loading.has(remote.name)) return;
    this.load(remote).catch(() => {});
  }

  private async startLoad(remote: PortalRemote): Promise<RemoteModule> {
    if (!remote.compatible) {
      throw new RemoteLoadError(remote.name, 'contract', `it needs contract ${remote.contract}`);
    }
    const loaded = await this.runtime.loadRemote(`${remote.name}/${REMOTE_EXPOSE}`);
    if (loaded === null || loaded === undefined) {
      throw new RemoteLoadError(remote.name, 'network', 'the runtime returned nothing');
    }
    return asRemoteModule(remote.name, loaded);
  }
}
