/** GET /configuration (spec section 7): the portal configuration, loaded once at start into the configuration store. */
import * as api from '@portal/api';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';
import { call } from './client.js';

/**
 * Spec section 8: a configuration that cannot be loaded is logged and the defaults are used.
 * Fields the server did not send fall back to their defaults too.
 */
export async function getConfigurationOrDefaults(
  options: { signal?: AbortSignal; log?: (message: string, error: unknown) => void } = {},
): Promise<{ config: PortalConfiguration; loaded: boolean }> {
  try {
    const config = await call(api.getConfiguration, {}, { signal: options.signal });
    return { config: { ...DEFAULT_CONFIGURATION, ...config }, loaded: true };
  } catch (error) {
    (options.log ?? ((m, e) => console.error(m, e)))('Could not load the portal configuration; using defaults.', error);
    return { config: { ...DEFAULT_CONFIGURATION }, loaded: false };
  }
}
