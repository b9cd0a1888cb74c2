// @ts-check
/**
 * Module federation's `installInitialConsumes`, with each of the host's own shared modules looked
 * up once (less work before a page's content).
 *
 * The host provides its shared modules eagerly (react, react-dom, the router, antd's first part…:
 * federation.cjs's HOST_EAGER), and its modules import each through a consume module that the
 * bundler runtime installs as the page starts. webpack keeps no consume module in its module cache
 * (the factory removes itself from it), so every import runs the factory again, and the bundler
 * runtime's factory asks the federation instance anew each time: `loadShareSync`, which merges the
 * share options and initialises the share scope again (all 18 shared modules registered once more,
 * with the hooks of each). As /login started, that was 130 lookups and 2,430 registrations, 97 of
 * the lookups for react alone.
 *
 * The answer cannot change once given: the host's shared modules are singletons that the host
 * loads first, remotes provide none (`import: false`), and a copy loaded
 * later never replaces one already loaded (`shareStrategy: 'loaded-first'`). So the first
 * answer is kept, and each later import of the module gets the same exports, still outside
 * webpack's cache as before. A lookup that fails is not kept: the next import asks again.
 *
 * @template {{ initialConsumes: Array<string | number>, webpackRequire: { m: Record<string, Function>, c: Record<string, unknown> }, installedModules: Record<string, unknown> }} Options
 * @param {(options: Options) => unknown} installInitialConsumes the bundler runtime's own
 * @returns {(options: Options) => unknown}
 */
function lookingUpOnce(installInitialConsumes) {
  return function installInitialConsumesOnce(options) {
    const installed = installInitialConsumes(options);
    const keepAnswers = () => {
      for (const id of options.initialConsumes) keepFirstAnswer(options, id);
    };
    // With `asyncLoad` the bundler runtime installs the factories once its lookups have settled.
    if (installed && typeof (/** @type {Promise<unknown>} */ (installed).then) === 'function') {
      return /** @type {Promise<unknown>} */ (installed).then((value) => {
        keepAnswers();
        return value;
      });
    }
    keepAnswers();
    return installed;
  };
}

/**
 * Wraps the factory the bundler runtime installed for the consume module `id`: the first run looks
 * the shared module up as before, later runs hand back what it answered.
 * @param {{ webpackRequire: { m: Record<string, Function>, c: Record<string, unknown> }, installedModules: Record<string, unknown> }} options
 * @param {string | number} id
 */
function keepFirstAnswer({ webpackRequire, installedModules }, id) {
  const lookUp = webpackRequire.m[id];
  if (typeof lookUp !== 'function') return;
  /** @type {{ exports: unknown } | undefined} */
  let answer;
  webpackRequire.m[id] = (/** @type {{ exports: unknown }} */ module, /** @type {unknown[]} */ ...rest) => {
    if (answer === undefined) {
      lookUp(module, ...rest);
      answer = { exports: module.exports };
      return;
    }
    // What the bundler runtime's factory does besides the lookup.
    installedModules[id] = 0;
    delete webpackRequire.c[id];
    module.exports = answer.exports;
  };
}

module.exports = { lookingUpOnce };
