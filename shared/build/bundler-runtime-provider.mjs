/**
 * The host's runtime plugin that hands module federation's bundler runtime to the remotes
 *, as the runtime core is handed to them (experiments.externalRuntime).
 *
 * The bundler runtime is the part of the federation runtime a webpack build brings with its entry:
 * how its chunks consume shared modules, initialise the share scope and start the container. Every
 * function of it takes the container's own `__webpack_require__`, and each container keeps its
 * state there (its instance, its options): the same functions serve every container. A remote built
 * since 1.4 takes them from here (bundler-runtime-from-host.mjs) instead of carrying its own copy,
 * ~11 KB of each remote's entry (~3 KB brotli). They are the host's bundler runtime
 * (bundler-runtime-host.mjs), the same the host's own modules use.
 */
import federation from './bundler-runtime-host.mjs';
import { initContainerEntry } from '@portal/federation-bundler-runtime/initContainerEntry.js';
import { BUNDLER_RUNTIME_KEY } from './bundler-runtime-key.mjs';

export default function provideBundlerRuntime() {
  return {
    name: 'portal-provide-bundler-runtime',
    beforeInit(args) {
      // The host's own build leaves out how a container starts (it exposes nothing): a remote needs it.
      const bundlerRuntime = Object.freeze({ ...federation.bundlerRuntime, initContainerEntry });
      globalThis[BUNDLER_RUNTIME_KEY] ??= Object.freeze({ bundlerRuntime, attachShareScopeMap: federation.attachShareScopeMap });
      return args;
    },
  };
}
