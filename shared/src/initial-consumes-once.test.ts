/**
 * The host's first file consumes the shared modules it provides through consume modules that
 * webpack never caches: module federation's bundler runtime looked the shared module up again at
 * every import (react: 97 times as /login started). The host's bundler runtime
 * (../build/bundler-runtime-host.mjs) keeps the first answer. Run here with module federation's own
 * installInitialConsumes and a container shaped as webpack's.
 */
import path from 'node:path';
type Install<O> = (options: O) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, as the host's build bundles it
const { lookingUpOnce } = require('../build/initial-consumes-once.cjs') as { lookingUpOnce<O>(install: Install<O>): Install<O> };

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the webpack preset is CommonJS
const { federationRuntimeFiles } = require('../build/federation.cjs') as { federationRuntimeFiles(appDir: string): { bundlerRuntime: string } };
type Options = {
  initialConsumes: string[];
  moduleToHandlerMapping: object;
  webpackRequire: unknown;
  installedModules: Record<string, unknown>;
  asyncLoad?: boolean;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- module federation's own, as the host's build bundles it
const { installInitialConsumes } = require(path.join(federationRuntimeFiles(path.join(__dirname, '..', '..', 'host')).bundlerRuntime, 'installInitialConsumes.cjs')) as {
  installInitialConsumes(options: Options): unknown;
};

const REACT = { version: '19.3.1' };

/** A container as webpack builds one: its modules, its module cache, its federation instance. */
function container(lookUp: (shareKey: string) => () => unknown) {
  const cache: Record<string, { exports: unknown }> = {};
  const modules: Record<string, (module: { exports: unknown }, exports: unknown, require: unknown) => void> = {};
  const lookups: string[] = [];
  const webpackRequire = Object.assign(
    (id: string) => {
      if (cache[id]) return cache[id].exports;
      const module = (cache[id] = { exports: {} });
      try {
        modules[id]!(module, module.exports, webpackRequire);
      } catch (error) {
        delete cache[id];
        throw error;
      }
      return module.exports;
    },
    {
      m: modules,
      c: cache,
      federation: {
        instance: {
          options: { name: 'host' },
          loadShareSync(shareKey: string) {
            lookups.push(shareKey);
            return lookUp(shareKey);
          },
          async loadShare(shareKey: string) {
            lookups.push(shareKey);
            return lookUp(shareKey);
          },
        },
      },
    },
  );
  const options = (asyncLoad = false): Options => ({
    initialConsumes: ['react-consume'],
    moduleToHandlerMapping: { 'react-consume': { shareKey: 'react', shareInfo: { scope: ['default'], shareConfig: { singleton: true, requiredVersion: '^19.3.1' } } } },
    webpackRequire,
    installedModules: {},
    asyncLoad,
  });
  return { webpackRequire, lookups, options };
}

describe("the host's bundler runtime, for the shared modules it provides to its own first file", () => {
  it('looks each up once, however many modules import it', () => {
    const { webpackRequire, lookups, options } = container(() => () => REACT);
    lookingUpOnce(installInitialConsumes)(options());
    const answers = [webpackRequire('react-consume'), webpackRequire('react-consume'), webpackRequire('react-consume')];
    expect(answers).toEqual([REACT, REACT, REACT]);
    expect(answers.every((answer) => answer === REACT)).toBe(true);
    expect(lookups).toEqual(['react']);
  });

  it("is what module federation's own does, but for the lookups: its runtime asks at every import", () => {
    const { webpackRequire, lookups, options } = container(() => () => REACT);
    installInitialConsumes(options());
    for (let i = 0; i < 3; i++) expect(webpackRequire('react-consume')).toBe(REACT);
    expect(lookups).toEqual(['react', 'react', 'react']);
  });

  it('keeps no answer from a lookup that failed: the next import asks again', () => {
    let available = false;
    const { webpackRequire, lookups, options } = container(() => {
      if (!available) throw new Error('react is not in the share scope yet');
      return () => REACT;
    });
    lookingUpOnce(installInitialConsumes)(options());
    // Module federation's runtime says why, as it does in the browser.
    const said = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => webpackRequire('react-consume')).toThrow('react is not in the share scope yet');
    expect(said).toHaveBeenCalled();
    said.mockRestore();
    available = true;
    expect(webpackRequire('react-consume')).toBe(REACT);
    expect(webpackRequire('react-consume')).toBe(REACT);
    expect(lookups).toEqual(['react', 'react']);
  });

  it('answers the same when the lookups are made before the page starts (asyncLoad)', async () => {
    const { webpackRequire, lookups, options } = container(() => () => REACT);
    await lookingUpOnce(installInitialConsumes)(options(true));
    expect([webpackRequire('react-consume'), webpackRequire('react-consume')]).toEqual([REACT, REACT]);
    expect(lookups).toEqual(['react']);
  });
});
