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
  preloadRemote(name: string): Promise<void>;
}

export const federationRuntime: FederationRuntime = {
  registerRemotes: (remotes, options) => mfRegisterRemotes(remotes, options),
  loadRemote: (id) => mfLoadRemote(id),
  // The remote's entry and the chunks of its routes module (with the shared modules they take),
  // fetched and registered but not run: the runtime's preloadRemote needs the snapshot plugin,
  // which the host is built without (see entryFile).
  preloadRemote: async (name) => {
    await mfLoadRemote(`${name}/${REMOTE_EXPOSE}`, { loadFactory: false, from: 'runtime' });
  },
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
  /** The remotes whose files were asked for ahead of time (once each; a failure is forgotten). */
  private readonly preloaded = new Set<string>();

  constructor(private readonly runtime: FederationRuntime = federationRuntime) {}

  /** Registers the remotes this host can run, with their entry files' digests. Incompatible ones are left out. */
  register(remotes: readonly PortalRemote[], force = false): void {
    for (const remote of remotes) trustIntegrity(remote.integrity);
    const usable = remotes.filter((r) => r.compatible).map(({ name, entry }) => ({ name, entry: entryFile(entry) }));
    if (usable.length > 0) this.runtime.registerRemotes(usable, { force });
    // Registered afresh, a remote's entry may have changed: its files are fetched again.
    if (force) for (const { name } of usable) this.preloaded.delete(name);
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
    this.preloaded.delete(remote.name);
    if (remote.compatible) this.runtime.registerRemotes([{ name: remote.name, entry: entryFile(remote.entry) }], { force: true });
    return this.load(remote);
  }

  /** Starts fetching a remote's files (when idle, or on hover of a link to it), once; never fails loudly. */
  preload(remote: PortalRemote): void {
    if (!remote.compatible || this.loading.has(remote.name) || this.preloaded.has(remote.name)) return;
    this.preloaded.add(remote.name);
    this.runtime.preloadRemote(remote.name).catch(() => this.preloaded.delete(remote.name));
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
