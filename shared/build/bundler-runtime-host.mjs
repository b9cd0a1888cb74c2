/**
 * The host's module federation bundler runtime: module federation's own, but for how the host's
 * first file consumes the shared modules it provides, each looked up once (initial-consumes-once.cjs:
 * work a page does before its content). The host's build puts this module where its federation entry imports
 * @module-federation/webpack-bundler-runtime's bundler.js (federation.cjs), and answers what that
 * module does, the same shape. The remotes get these functions from the host
 * (bundler-runtime-provider.mjs).
 */
import federation from '@portal/federation-bundler-runtime/index.js';
import { lookingUpOnce } from './initial-consumes-once.cjs';

const bundlerRuntime = {
  ...federation.bundlerRuntime,
  installInitialConsumes: lookingUpOnce(federation.bundlerRuntime.installInitialConsumes),
};

// The federation entry reads the default export only, as from bundler-runtime-from-host.mjs.
export default { ...federation, bundlerRuntime };
