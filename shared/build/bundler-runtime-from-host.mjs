/**
 * A remote's module federation bundler runtime, taken from the host (a remote's entry is smaller by it): the
 * remote's build puts this module where its federation entry imports
 * @module-federation/webpack-bundler-runtime (federation.cjs), so the remote's entry carries none of
 * that runtime's code. The host provides it (bundler-runtime-provider.mjs) before any remote loads.
 *
 * What this module answers is what the bundler runtime's own module does, the same shape: the
 * entry copies each field onto the container's own `__webpack_require__.federation`. The runtime
 * API (`runtime`, whose init creates this container's federation instance) stays the remote's own,
 * as before; only the bundler's functions, which keep no state of their own, are the host's.
 */
import * as runtime from '@portal/federation-runtime';
import { BUNDLER_RUNTIME_KEY } from './bundler-runtime-key.mjs';

const provided = globalThis[BUNDLER_RUNTIME_KEY];
if (!provided) {
  throw new Error('This remote needs a host that provides the federation bundler runtime (host contract 2.0).');
}

export default {
  runtime,
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime: provided.bundlerRuntime,
  attachShareScopeMap: provided.attachShareScopeMap,
  bundlerRuntimeOptions: {},
};
