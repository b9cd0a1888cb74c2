// A remote's stand-in for '@module-federation/error-codes', bytes every remote's entry is spared. A remote's entry carries
// the federation runtime's small API layer (init, loadRemote, …) over the host's runtime core; of
// the error codes it uses one, for "no instance yet", yet the package's table of every runtime
// message came with it (~0.4 KB brotli per entry). The runtime that loads remotes, and so says
// what failed, is the host's, with the whole table.
export const RUNTIME_009 = 'RUNTIME-009';
export const runtimeDescMap = { [RUNTIME_009]: 'Please call createInstance first.' };
