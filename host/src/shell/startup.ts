/**
 * What the shell does once at start: read the environment manifest (prefetched by bootstrap) and
 * register its remotes, and load the configuration.
 */
import { getConfigurationOrDefaults, useConfigurationStore, useSessionStore } from '@portal/shared';
import { create } from 'zustand';
import { fetchEnvironment, type PortalEnvironment } from '../federation/environment';
import { RemoteLoader } from '../federation/remoteLoader';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';
import { bootData, fetchPrefetched } from '../prefetch';

export interface EnvironmentState {
  readonly status: 'loading' | 'ready' | 'failed';
  readonly environment?: PortalEnvironment;
  readonly error?: unknown;
}

export const useEnvironmentStore = create<EnvironmentState>()(() => ({ status: 'loading' }));

export const remoteLoader = new RemoteLoader();

export async function loadEnvironment(): Promise<void> {
  useEnvironmentStore.setState({ status: 'loading', error: undefined });
  try {
    const environment = await fetchEnvironment(fetchPrefetched);
    remoteLoader.register(environment.remotes, true);
    for (const remote of environment.remotes) {
      if (!remote.compatible) {
        console.warn(`Remote '${remote.name}' needs contract ${remote.contract}; it is not loaded.`);
      }
    }
    useEnvironmentStore.setState({ status: 'ready', environment });
  } catch (error) {
    console.error(error);
    useEnvironmentStore.setState({ status: 'failed', error });
  }
}

let started = false;

/** Runs once, when the shell first mounts. */
export function startShell(): void {
  if (started) return;
  started = true;
  void loadEnvironment();
  // Who is signed in, for the chrome; signed-in pages check again on every navigation.
  void useSessionStore.getState().resolve().catch(() => undefined);
  // The configuration: carried by the first HTML when the server put it there, else asked for.
  const carried = bootData()?.configuration;
  if (typeof carried === 'object' && carried !== null) {
    useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION, ...(carried as Partial<PortalConfiguration>) }, true);
    return;
  }
  void getConfigurationOrDefaults().then(({ config, loaded }) =>
    useConfigurationStore.getState().setConfiguration(config, loaded),
  );
}
