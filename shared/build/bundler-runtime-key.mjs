/**
 * Where the host puts module federation's bundler runtime for the remotes: see
 * bundler-runtime-provider.mjs (the host's side) and bundler-runtime-from-host.mjs (a remote's).
 */
export const BUNDLER_RUNTIME_KEY = '__PORTAL_FEDERATION_BUNDLER_RUNTIME__';
