// @ts-check
// The portal as one application without module federation, what the bench compares the portal with: the host's own
// build configuration (createWebpackConfig: the same loaders, output and precompression) without
// the federation plugin (nor the loader that splits antd's imports into its shared parts), the host's bootstrap as its entry (no asynchronous boundary for a share
// scope), and each remote's routes imported directly through federation-runtime.mjs, each remote
// its own chunk as today. `npm run bench` builds it into .portal/monolith and serves it with
// PORTAL_HOST_DIR to measure the federated portal against it in the same run.
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const hostDir = path.join(root, 'host');
const { createWebpackConfig } = require(require.resolve('@portal/shared/federation', { paths: [hostDir] }));

/** @type {(env: Record<string, string | boolean>, argv: { mode?: string }) => import('webpack').Configuration} */
module.exports = (env, argv) => {
  const config = createWebpackConfig({ appDir: hostDir, kind: 'host', name: 'host', devPort: 0 })(env, { ...argv, mode: 'production' });
  return {
    ...config,
    entry: { main: path.join(hostDir, 'src', 'bootstrap.tsx') },
    output: { ...config.output, path: String(env.outDir ?? path.join(root, '.portal', 'monolith')), uniqueName: 'portal_monolith' },
    resolve: {
      ...config.resolve,
      alias: { '@module-federation/enhanced/runtime$': path.join(__dirname, 'federation-runtime.mjs') },
    },
    // Without federation antd is imported as one application imports it: no parts to split it into.
    module: {
      ...config.module,
      rules: (config.module?.rules ?? []).map((rule) =>
        rule && typeof rule === 'object' && Array.isArray(rule.use)
          ? { ...rule, use: rule.use.filter((use) => !(use && typeof use === 'object' && String(use.loader).endsWith('antd-imports-loader.cjs'))) }
          : rule,
      ),
    },
    plugins: (config.plugins ?? []).filter((plugin) => plugin?.constructor.name !== 'ModuleFederationPlugin'),
  };
};
