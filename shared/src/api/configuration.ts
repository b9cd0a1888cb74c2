/** GET /accounts/rest/configuration (spec section 7): no payload; the configuration fields. */
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '../config.js';
import { apiRequest } from './client.js';

export function getConfiguration(options: { signal?: AbortSignal } = {}): Promise<PortalConfiguration> {
  return apiRequest<PortalConfiguration>('GET', '/configuration', { ...options, xsrf: false });
}

/**
 * Spec section 8: a configuration that cannot be loaded is logged and the defaults are used.
 * Fields the server did not send fall back to their defaults too.
 */
export async function getConfigurationOrDefaults(
  options: { signal?: AbortSignal; log?: (message: string, error: unknown) => void } = {},
): Promise<{ config: PortalConfiguration; loaded: boolean }> {
  try {
    const config = await getConfiguration(options);
    return { config: { ...DEFAULT_CONFIGURATION, ...config }, loaded: true };
  } catch (error) {
    (options.log ?? ((m, e) => console.error(m, e)))('Could not load the portal configuration; using defaults.', error);
    return { config: { ...DEFAULT_CONFIGURATION }, loaded: false };
  }
}
