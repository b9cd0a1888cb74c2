/**
 * What is shared at run time decides what a remote can ship alone: the API definitions and the
 * shared components must be bundled by each app (a remote's new call or changed component needs
 * no host rebuild); only the singleton root of @portal/shared and the libraries are shared.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the webpack preset is CommonJS
const { broughtComponents, sharedSingletons } = require('../build/federation.cjs') as {
  broughtComponents(pkg: { name?: string; portal?: { brings?: unknown } }): string[];
  sharedSingletons(deps: Record<string, string>, kind?: 'host' | 'remote'): Record<string, { singleton?: boolean; strictVersion?: boolean; import?: string | false; eager?: boolean }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- read like webpack reads it
const host = require('../../host/package.json') as { dependencies: Record<string, string> };

describe('the shared modules of every app', () => {
  const shared = sharedSingletons(host.dependencies);

  it('share the singleton root of @portal/shared and its forms strictly, and never @portal/api or another subpath of @portal/shared', () => {
    expect(shared['@portal/shared']).toMatchObject({ singleton: true, strictVersion: true });
    // The same version and strictness as the root, but loaded with the first form, not at start.
    const { eager, ...root } = shared['@portal/shared']!;
    expect(eager).toBe(true);
    expect(shared['@portal/shared/forms']).toEqual(root);
    expect(Object.keys(shared).filter((key) => key.startsWith('@portal/')).sort()).toEqual([
      '@portal/antd-core',
      '@portal/antd-data',
      '@portal/antd-details',
      '@portal/antd-extra',
      '@portal/antd-forms',
      '@portal/shared',
      '@portal/shared/forms',
    ]);
  });

  it("let only the host provide the portal's antd, so a page holds one copy of it whichever remote loads a part first", () => {
    const remote = sharedSingletons(host.dependencies, 'remote');
    for (const key of ['@portal/antd-core', '@portal/antd-data', '@portal/antd-details', '@portal/antd-extra', '@portal/antd-forms']) {
      expect(shared[key]).toMatchObject({ singleton: true, import: expect.stringMatching(/shared\/src\/antd-(core|data|details|extra|forms)\.ts$/) });
      expect(remote[key]).toMatchObject({ singleton: true, import: false });
    }
    // antd whole is never shared (host contract 2.0 retired the one module of all the parts).
    expect(shared.antd).toBeUndefined();
  });

  it('let a remote bundle no copy of any shared module: the host provides every one ', () => {
    const remote = sharedSingletons(host.dependencies, 'remote');
    expect(Object.keys(remote).sort()).toEqual(Object.keys(shared).sort());
    expect(Object.entries(remote).filter(([, config]) => config.import !== false)).toEqual([]);
    // The host provides each from its own copy.
    expect(Object.entries(shared).filter(([, config]) => config.import === false)).toEqual([]);
  });

  it("build into the host's first file only what every page runs before its content: not the forms", () => {
    const eager = (all: Record<string, { eager?: boolean }>) => Object.keys(all).filter((key) => all[key]!.eager).sort();
    expect(eager(shared)).toEqual(['@portal/antd-core', '@portal/shared', 'react', 'react-dom', 'react-dom/', 'react-router-dom', 'react/', 'typebox', 'zustand']);
    expect(eager(sharedSingletons(host.dependencies, 'remote'))).toEqual([]);
  });

  it('share the router as the set of it the apps use', () => {
    expect(shared['react-router-dom']).toMatchObject({ singleton: true, import: expect.stringMatching(/shared\/src\/router\.ts$/) });
    expect(shared['react-router']).toBeUndefined();
  });

  it('share the libraries as singletons', () => {
    for (const name of ['react', 'react-dom', 'react-final-form', 'typebox']) expect(shared[name]).toMatchObject({ singleton: true });
  });
});

describe('the antd components a remote brings ("portal"."brings" in its package.json)', () => {
  const brings = (value: unknown) => () => broughtComponents({ name: '@portal/remote-tokens', portal: { brings: value } });

  it('are names, each once; none when the remote brings none', () => {
    expect(broughtComponents({ name: '@portal/remote-tokens', portal: {} })).toEqual([]);
    expect(brings(['Steps', 'DatePicker'])()).toEqual(['Steps', 'DatePicker']);
  });

  it('stop the build, saying what is wrong, when they are anything else', () => {
    expect(brings('Steps')).toThrow('@portal/remote-tokens: "portal"."brings" must be a list of antd component names, e.g. ["Steps"]');
    expect(brings(['steps'])).toThrow('@portal/remote-tokens: "portal"."brings": "steps" is not an antd component\'s name (e.g. "Steps")');
    expect(brings(['antd/es/steps'])).toThrow('"antd/es/steps" is not an antd component\'s name');
    expect(brings([42])).toThrow('42 is not an antd component\'s name');
    expect(brings(['Steps', 'Steps'])).toThrow('@portal/remote-tokens: "portal"."brings" names a component twice');
  });
});
