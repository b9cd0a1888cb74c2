/**
 * What is shared at run time decides what a remote can ship alone: the API definitions and the
 * shared components must be bundled by each app (a remote's new call or changed component needs
 * no host rebuild); only the singleton root of @portal/shared and the libraries are shared.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the webpack preset is CommonJS
const { sharedSingletons } = require('../build/federation.cjs') as { sharedSingletons(deps: Record<string, string>): Record<string, { singleton?: boolean; strictVersion?: boolean }> };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- read like webpack reads it
const host = require('../../host/package.json') as { dependencies: Record<string, string> };

describe('the shared modules of every app', () => {
  const shared = sharedSingletons(host.dependencies);

  it('share the singleton root of @portal/shared strictly, and never @portal/api or a subpath of @portal/shared', () => {
    expect(shared['@portal/shared']).toMatchObject({ singleton: true, strictVersion: true });
    expect(Object.keys(shared).filter((key) => key.startsWith('@portal/'))).toEqual(['@portal/shared']);
  });

  it('share the libraries as singletons', () => {
    for (const name of ['react', 'react-dom', 'antd', 'react-final-form', 'typebox']) expect(shared[name]).toMatchObject({ singleton: true });
  });
});
