/**
 * The portal configuration, loaded once by the host and read by every remote. It lives in the
 * shared singleton package, so the host and the remotes see the same store.
 */
import { create } from 'zustand';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';

export interface ConfigurationState {
  /** 'loading' until the host has asked the server once; then 'ready' (loaded or defaults). */
  readonly status: 'loading' | 'ready';
  readonly config: PortalConfiguration;
  /** False when the server could not be asked and the spec's defaults are in use. */
  readonly loaded: boolean;
  setConfiguration(config: PortalConfiguration, loaded: boolean): void;
}

export const useConfigurationStore = create<ConfigurationState>()((set) => ({
  status: 'loading',
  config: { ...DEFAULT_CONFIGURATION },
  loaded: false,
  setConfiguration: (config, loaded) => set({ status: 'ready', config, loaded }),
}));

/** The current configuration (defaults until loaded). */
export function useConfiguration(): PortalConfiguration {
  return useConfigurationStore((s) => s.config);
}
