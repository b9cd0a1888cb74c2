/**
 * What the shell does once at start: read the environment manifest (prefetched by bootstrap) and
 * register its remotes, and learn who is signed in and the configuration (carried by the first
 * HTML, else asked for).
 */
import { adoptXsrfToken, getConfigurationOrDefaults, useConfigurationStore, useSessionStore } from '@portal/shared';
import { create } from 'zustand';
import { fetchEnvironment, type PortalEnvironment, readEnvironment } from '../federation/environment';
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

function adoptEnvironment(environment: PortalEnvironment): void {
  remoteLoader.register(environment.remotes, true);
  for (const remote of environment.remotes) {
    if (!remote.compatible) {
      console.warn(`Remote '${remote.name}' needs contract ${remote.contract}; it is not loaded.`);
    }
  }
  useEnvironmentStore.setState({ status: 'ready', environment });
}

function environmentFailed(error: unknown): void {
  console.error(error);
  useEnvironmentStore.setState({ status: 'failed', error });
}

/** Fetches the manifest (the one bootstrap prefetched, the first time) and registers its remotes. */
export async function loadEnvironment(): Promise<void> {
  useEnvironmentStore.setState({ status: 'loading', error: undefined });
  try {
    adoptEnvironment(await fetchEnvironment(fetchPrefetched));
  } catch (error) {
    environmentFailed(error);
  }
}

/**
 * The manifest the first HTML carried, taken at once: the shell's first render already has it.
 * (Set a moment later, it would make React render the whole shell again, synchronously: a store
 * that changes during a concurrent render is read again in a blocking one.)
 */
function takeCarriedEnvironment(carried: unknown): void {
  try {
    adoptEnvironment(readEnvironment(carried));
  } catch (error) {
    environmentFailed(error);
  }
}

let started = false;

/** Tests: the next startShell is a page load's again. */
export function resetShellStart(): void {
  started = false;
}

/** Runs once, when the shell first mounts. */
export function startShell(): void {
  if (started) return;
  started = true;
  const boot = bootData();
  if (boot?.environment) takeCarriedEnvironment(boot.environment);
  else void loadEnvironment();
  // Who is signed in, for the chrome and the first page: carried by the first HTML with the
  // session's anti-forgery token when the server put them there, else asked for. Later
  // navigations to signed-in pages ask the server again.
  if (boot?.xsrf) adoptXsrfToken(boot.xsrf);
  const sessions = useSessionStore.getState();
  if (boot?.session) sessions.signedIn({ username: boot.session.username, permissions: boot.session.permissions });
  else if (boot?.session === null) sessions.signedOut();
  else void sessions.resolve().catch(() => undefined);
  // The configuration: carried by the first HTML when the server put it there, else asked for.
  const carried = boot?.configuration;
  if (typeof carried === 'object' && carried !== null) {
    useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION, ...(carried as Partial<PortalConfiguration>) }, true);
    return;
  }
  void getConfigurationOrDefaults().then(({ config, loaded }) =>
    useConfigurationStore.getState().setConfiguration(config, loaded),
  );
}
