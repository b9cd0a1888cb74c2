// @ts-check
/**
 * One webpack configuration for the host and every remote, so that what is shared, and how, is
 * decided in one place: the shared singletons are part of the contract between the host and
 * the remotes just as much as the types in ../src/contract.ts are.
 *
 * Each app's webpack.config.cjs calls createWebpackConfig() with its own folder; build tools are
 * resolved from that app's own dependencies, so each app builds (and deploys) on its own.
 */
const path = require('node:path');
const fs = require('node:fs');
const { createRequire } = require('node:module');
const zlib = require('node:zlib');

const sharedPackage = require('../package.json');

/**
 * The singletons of docs/architecture.md ("The contract"), plus final-form and react-final-form: @portal/shared/forms'
 * fields are loaded once (from whichever container provides them) and must find the
 * <Form> context of the remote that renders them, so every app must use the same copy; and
 * typebox, the schema builder of @portal/api's definitions, which every app bundles: shared, it
 * is loaded once per page instead of once per remote (~14 KB gzip each).
 * Keys ending in '/' share every subpath ('react/jsx-runtime').
 *
 * Not shared, on purpose: @portal/api and @portal/shared/components. Each app bundles its own
 * copy, so a remote can ship a new API call or a changed component without a host rebuild.
 */
const SINGLETON_PACKAGES = [
  'react',
  'react-dom',
  'react-router-dom',
  'antd',
  'dayjs',
  'zustand',
  'final-form',
  'react-final-form',
  'typebox',
];
const SUBPATH_SHARED = ['react', 'react-dom'];

/**
 * The shared modules every page of the host runs before its content (see sharedSingletons). Not
 * the forms (@portal/shared/forms, the form libraries, @portal/antd-forms): the pages with a form,
 * the sign-in page among them, load them with their own code.
 */
const HOST_EAGER = ['react', 'react/', 'react-dom', 'react-dom/', 'react-router-dom', '@portal/antd-core', 'zustand', 'typebox', '@portal/shared'];

const { ANTD_PARTS } = require('./antd-imports-loader.cjs');
const { AntdStaticStylesPlugin } = require('./antd-static-styles.cjs');

/** The portal's router: what the apps use of react-router-dom, re-exported (../src/router.ts). */
const ROUTER_SET = path.join(__dirname, '..', 'src', 'router.ts');

/**
 * @param {Record<string, string>} dependencies the app's package.json dependencies (exact pins)
 * @param {'host' | 'remote'} [kind] who builds: the host provides the portal's antd, a remote only uses it
 * @returns {Record<string, import('@module-federation/enhanced').moduleFederationPlugin.SharedConfig>}
 */
function sharedSingletons(dependencies, kind = 'host') {
  /** @type {Record<string, import('@module-federation/enhanced').moduleFederationPlugin.SharedConfig>} */
  const shared = {};
  for (const name of SINGLETON_PACKAGES) {
    const pinned = dependencies[name];
    if (!pinned) throw new Error(`The app must depend on ${name}: it is a shared singleton of the portal.`);
    const version = pinned.replace(/^[\^~]/, '');
    const requiredVersion = `^${version}`;
    // The version is stated, not detected: webpack reads the nearest package.json, and some
    // packages (react-final-form) ship one without a version next to their build.
    shared[name] = { singleton: true, requiredVersion, version };
    if (SUBPATH_SHARED.includes(name)) shared[`${name}/`] = { singleton: true, requiredVersion, version };
  }
  // antd is served by the portal's set of its components, not the whole library (shared whole it
  // cannot be tree-shaken), in parts: what every page needs, and the rest, each part
  // loaded with the first page that uses it. The apps import from 'antd'; antd-imports-loader.cjs
  // sends each name to its part. Only the host provides them, so a page has one copy of each antd
  // module (one theme, one set of contexts) whichever remote loads a part first. antd itself is not
  // shared: nothing asks the share scope for it.
  const antd = shared.antd;
  for (const { key, file } of ANTD_PARTS) shared[key] = { ...antd, import: kind === 'host' ? file : false };
  delete shared.antd;
  // The router likewise: react-router-dom shared whole is its data routers and its server runtime
  // too (~50 KB brotli); the apps use its components and hooks (../src/router.ts).
  shared['react-router-dom'] = { ...shared['react-router-dom'], import: ROUTER_SET };
  // The workspace package carries the remote contract and the session store: one copy, and a
  // remote built against another minor line of it is refused rather than half-working.
  shared['@portal/shared'] = {
    singleton: true,
    strictVersion: true,
    requiredVersion: `~${sharedPackage.version}`,
    version: sharedPackage.version,
  };
  // Its form primitives likewise, as a singleton of their own: loaded with the first
  // form, with the form libraries (final-form, react-final-form, @portal/antd-forms), which the
  // pages without a form, and the host's first file, no longer carry (../src/forms.ts).
  shared['@portal/shared/forms'] = { ...shared['@portal/shared'] };
  // What the host needs before its first page is built into its first file (eager), not fetched
  // one file each after it: fewer requests, and brotli sees them together. The host provides them
  // to the remotes as before; a remote never bundles them eagerly.
  if (kind === 'host') for (const key of HOST_EAGER) shared[key] = { ...shared[key], eager: true };
  // A remote bundles no copy of any of them: the host provides every one, so a
  // remote's copy was never used, yet its entry listed each (with how to load it) for the share
  // scope, ~0.8 KB brotli of every remote's entry on every page that loads it.
  if (kind === 'remote') for (const key of Object.keys(shared)) shared[key] = { ...shared[key], import: false };
  return shared;
}

/**
 * Where module federation's own runtime modules are, for the app in appDir: the folder of the
 * bundler runtime's modules (its federation entry imports bundler.js), and the runtime API's ES
 * module.
 */
function federationRuntimeFiles(/** @type {string} */ appDir) {
  const enhanced = path.dirname(require.resolve('@module-federation/enhanced', { paths: [appDir] }));
  const tools = require.resolve('@module-federation/runtime-tools', { paths: [enhanced] });
  const bundler = path.dirname(require.resolve('@module-federation/webpack-bundler-runtime', { paths: [tools] }));
  const runtime = path.dirname(require.resolve('@module-federation/runtime', { paths: [tools] }));
  return { bundlerRuntime: bundler, runtime: path.join(runtime, 'index.js') };
}

/** The bundler runtime's module, as a federation entry imports it (FederationRuntimePlugin). */
const BUNDLER_RUNTIME_MODULE = /[\\/]@module-federation[\\/]webpack-bundler-runtime[\\/]dist[\\/]bundler\.js$/;

/** The ES module of the runtime plugin that hands the host's federation runtime to the remotes. */
function externalRuntimeProvider(/** @type {string} */ appDir) {
  const enhanced = path.dirname(require.resolve('@module-federation/enhanced', { paths: [appDir] }));
  const commonJs = require.resolve('@module-federation/inject-external-runtime-core-plugin', { paths: [enhanced] });
  return path.join(path.dirname(commonJs), 'index.js');
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of 1 KB or more, once the
 * build is emitted; the server sends the smallest the browser accepts. Source maps are left out.
 */
class PrecompressPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const outputPath = compilation.outputOptions.path;
      if (!outputPath) return;
      const jobs = [];
      for (const name of Object.keys(compilation.assets)) {
        if (!/\.(?:js|html|json|css|svg|txt)$/.test(name)) continue;
        const file = path.join(outputPath, name);
        const content = await fs.promises.readFile(file);
        if (content.length < 1024) continue;
        jobs.push(
          fs.promises.writeFile(
            `${file}.br`,
            zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          ),
          fs.promises.writeFile(`${file}.gz`, zlib.gzipSync(content, { level: 9 })),
        );
      }
      await Promise.all(jobs);
    });
  }
}

/**
 * Starts every script with V8's explicit compile hint, `//# allFunctionsCalledOnLoad` (Chromium
 * 136 and later; other engines read a comment): the browser then compiles the script's functions
 * while it downloads it, on a background thread, instead of one by one on the main thread the first
 * time each is called. Nearly everything in these files runs as soon as they load (the host's
 * start, the shell, a remote's entry and its page), and compiling it lazily was a large part of
 * the first page's blocking time on a slow phone. Added once the files are minified
 * (the minifier drops comments) and before their source maps are made (which then count the line).
 */
class CompileHintsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('CompileHintsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CompileHintsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_DEV_TOOLING - 1 }, (assets) => {
        for (const name of Object.keys(assets)) {
          if (!name.endsWith('.js')) continue;
          compilation.updateAsset(name, (source) => new sources.ConcatSource(`${COMPILE_HINT}\n`, source));
        }
      });
    });
  }
}

/**
 * webpack 5.110's RuntimePlugin adds a sharing runtime of its own (`webpack/runtime/sharing`: the
 * share scope, and an initializeSharing that registers every module the build provides) wherever
 * the share scope is needed, and the federation plugin adds its own beside it, one stage later,
 * which sets both again (`__webpack_require__.S` and `.I`). webpack's is then dead code (~1.9 KB
 * minified in the host's first file): it is emitted empty, in a chunk that has the other one only.
 */
class ShadowedShareRuntimePlugin {
  /** @param {new (...args: never[]) => object} webpackShareRuntimeModule webpack's lib/sharing/ShareRuntimeModule */
  constructor(webpackShareRuntimeModule) {
    this.webpackShareRuntimeModule = webpackShareRuntimeModule;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ShadowedShareRuntimePlugin', (compilation) => {
      compilation.hooks.runtimeModule.tap('ShadowedShareRuntimePlugin', (module, chunk) => {
        if (module.constructor !== this.webpackShareRuntimeModule) return;
        const generate = module.generate.bind(module);
        // Decided when the code is generated, once every runtime module of the chunk is there.
        module.generate = () => {
          const shadowing = [...compilation.chunkGraph.getChunkRuntimeModulesIterable(chunk)].some(
            (other) => other !== module && other.name === 'sharing' && other.stage > module.stage,
          );
          return shadowing ? null : generate();
        };
      });
    });
  }
}

/** V8's magic comment: compile every function of the script eagerly (see CompileHintsPlugin). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Hints at the named chunks every page loads next (the host's shell, with the chunks split from it)
 * in index.html, as `<link rel="preload" as="script">`: the browser fetches them alongside the first
 * file instead of after it has run (webpack only asks for a lazily imported chunk once the code
 * importing it runs). Needs html-webpack-plugin (the host's).
 *
 * `pages` names the chunks of a page of the host's own that only some addresses load (the sign-in
 * page on /login): their files, with the chunks of the shared modules they consume that the host
 * provides (the forms), are written to page-preloads.json by address; the server hints at them in
 * the first HTML of those addresses only (server/src/routes/host.ts).
 *
 * shared-preloads.json lists, for each shared module the host provides, the files of its chunks
 * that no page loads anyway (beyond the first file and the named chunks): what a remote's first
 * page waits for when its code consumes that module (antd's parts). The server hints at them for
 * the remote that owns the address, from the shared modules the remote's build says its routes
 * consume (PortalRemoteRecordPlugin's `firstLoad`).
 */
class PreloadChunksPlugin {
  /** @param {{ chunks: string[], pages?: Record<string, string[]>, htmlWebpackPlugin: any }} options */
  constructor({ chunks, pages = {}, htmlWebpackPlugin }) {
    this.chunks = chunks;
    this.pages = pages;
    this.htmlWebpackPlugin = htmlWebpackPlugin;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadChunksPlugin', (compilation) => {
      const publicPath = () => String(compilation.outputOptions.publicPath ?? '/');
      const groupOf = (/** @type {string} */ name) => {
        const group = compilation.namedChunkGroups.get(name);
        if (!group) throw new Error(`No chunk named '${name}' to preload: is it still imported with webpackChunkName "${name}"?`);
        return group;
      };
      this.htmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadChunksPlugin', (/** @type {{ headTags: object[] }} */ data) => {
        for (const name of this.chunks) {
          // Every chunk of its group: the code it shares with another lazy chunk (the sign-in page)
          // is split into a chunk of its own, which the browser would otherwise ask for only once
          // the first file has run.
          for (const file of scriptsOf(groupOf(name).chunks)) {
            data.headTags.push({ tagName: 'link', voidTag: true, meta: { plugin: 'PreloadChunksPlugin' }, attributes: { rel: 'preload', as: 'script', href: `${publicPath()}${file}` } });
          }
        }
        return data;
      });
      // Once the files have their final names (after the content hashes).
      compilation.hooks.processAssets.tap({ name: 'PreloadChunksPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        // What every page loads anyway: the first file and the hinted chunks.
        const loaded = new Set([...compilation.entrypoints.values()].flatMap((entry) => entry.chunks));
        for (const name of this.chunks) for (const chunk of groupOf(name).chunks) loaded.add(chunk);
        const filesOf = (/** @type {Iterable<import('webpack').Chunk>} */ chunks) =>
          scriptsOf(withConsumedShares(compilation, chunks).filter((chunk) => !loaded.has(chunk))).map((file) => `${publicPath()}${file}`);
        const emit = (/** @type {string} */ file, /** @type {unknown} */ value) =>
          compilation.emitAsset(file, new compiler.webpack.sources.RawSource(`${JSON.stringify(value, null, 1)}\n`));
        if (Object.keys(this.pages).length > 0) {
          /** @type {Record<string, string[]>} */
          const byPath = {};
          for (const [name, paths] of Object.entries(this.pages)) {
            const files = filesOf(groupOf(name).chunks);
            for (const path of paths) byPath[path] = files;
          }
          emit('page-preloads.json', byPath);
        }
        /** @type {Record<string, string[]>} */
        const byShareKey = {};
        for (const module of compilation.modules) {
          if (module.type !== 'provide-module') continue;
          const key = /** @type {{ _name?: unknown }} */ (module)._name;
          if (typeof key !== 'string') throw new Error('A provided shared module without a name: has @module-federation/enhanced renamed ProvideSharedModule._name?');
          const chunks = module.blocks.flatMap((block) => compilation.chunkGraph.getBlockChunkGroup(block)?.chunks ?? []);
          const files = filesOf(chunks);
          if (files.length > 0) byShareKey[key] = [...new Set([...(byShareKey[key] ?? []), ...files])];
        }
        emit(SHARED_PRELOADS, byShareKey);
      });
    });
  }
}

/** The host build's list of the files each shared module it provides loads (see PreloadChunksPlugin). */
const SHARED_PRELOADS = 'shared-preloads.json';

/** The chunk group of a remote's exposed routes (@module-federation/enhanced names it after the expose). */
const ROUTES_EXPOSE_GROUP = '__federation_expose_routes';

/** The JavaScript files of these chunks, once each. */
function scriptsOf(/** @type {Iterable<import('webpack').Chunk>} */ chunks) {
  return [...new Set([...chunks].flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js'))))];
}

/**
 * These chunks and, transitively, the chunks of the shared modules their code consumes (the
 * provider's own copy, which is what the host serves: it provides them), as the federation runtime
 * loads them when the chunk is asked for.
 * @param {import('webpack').Compilation} compilation
 * @param {Iterable<import('webpack').Chunk>} chunks
 */
function withConsumedShares(compilation, chunks) {
  /** @type {Set<import('webpack').Chunk>} */
  const seen = new Set();
  const visit = (/** @type {import('webpack').Chunk} */ chunk) => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type !== 'consume-shared-module') continue;
      for (const block of module.blocks) {
        const group = compilation.chunkGraph.getBlockChunkGroup(block);
        if (group) for (const next of group.chunks) visit(next);
      }
    }
  };
  for (const chunk of chunks) visit(chunk);
  return [...seen];
}

/** The workspace files a build read outside webpack's module graph (a remote's sidebar entries'), by compilation. */
const inputsOutsideModules = new WeakMap();

/**
 * A remote's sidebar entries: what its src/navigation.ts exports as `navigation`, each written
 * against a page or a request kind of @portal/api (pageEntry, queueEntry), so that the record
 * carries their paths, permissions and counts as those declare them. The module is bundled with
 * esbuild and run here, at build time (about 0.2 s); it is no part of the remote's bundle. A
 * remote without the file has no entries. Returns them with the files they were made of.
 * @param {string} appDir
 * @returns {{ navigation: unknown, inputs: string[] }}
 */
function declaredNavigation(appDir) {
  const file = path.join(appDir, 'src', 'navigation.ts');
  if (!fs.existsSync(file)) return { navigation: [], inputs: [] };
  const { buildSync } = require('esbuild');
  const built = buildSync({ entryPoints: [file], absWorkingDir: appDir, bundle: true, format: 'cjs', platform: 'node', write: false, metafile: true, logLevel: 'silent' });
  const loaded = { exports: /** @type {{ navigation?: unknown }} */ ({}) };
  new Function('module', 'exports', 'require', built.outputFiles[0]?.text ?? '')(loaded, loaded.exports, createRequire(file));
  const navigation = loaded.exports.navigation;
  if (!Array.isArray(navigation)) throw new Error(`${path.relative(appDir, file)} must export its sidebar entries as \`navigation\`, a list (docs/federation.md)`);
  // The files whose code is in the bundle (@portal/api's barrel re-exports, and its modules the
  // entries do not use, are not): `npm start` rebuilds the remote when one of them changes.
  const bundled = Object.values(built.metafile.outputs)[0]?.inputs ?? {};
  const inputs = Object.entries(bundled).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => path.resolve(appDir, input));
  return { navigation, inputs };
}

/**
 * Writes portal-remote.json into a remote's build: what `portal remotes publish` records about
 * it: its name, version, the host contract range it needs and the paths it owns (the "portal"
 * field of the remote's package.json); its sidebar entries (its src/navigation.ts); and
 * `firstLoad`, what its first page waits for once its entry has loaded: the files of its exposed
 * routes (`scripts`, names in the build's folder) and the shared modules their code consumes
 * (`shared`, the host provides them). The server hints at both in the first HTML of the remote's
 * addresses (server/src/routes/host.ts).
 */
class PortalRemoteRecordPlugin {
  /** @param {{ name: string, version: string, portal: unknown, appDir: string }} remote */
  constructor(remote) {
    this.remote = remote;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { name, version, portal, appDir } = this.remote;
    const declared = /** @type {{ remote?: unknown, contract?: unknown, routes?: unknown, navigation?: unknown }} */ (portal ?? {});
    if (declared.remote !== name || typeof declared.contract !== 'string' || !Array.isArray(declared.routes)) {
      throw new Error(
        `package.json must declare "portal": { "remote": "${name}", "contract": "^2.0.0", "routes": ["/path", …] } ` +
          '(the paths this remote owns: docs/federation.md)',
      );
    }
    if (declared.navigation !== undefined) {
      throw new Error('package.json\'s "portal"."navigation" is no longer read: the sidebar entries are src/navigation.ts\'s, each naming its page or kind (docs/federation.md)');
    }
    compiler.hooks.thisCompilation.tap('PortalRemoteRecordPlugin', (compilation) => {
      // Read again for each compilation (a watched build sees the entries change). They are
      // checked where the record is read (the server's publish, the host's manifest) and by the
      // remote's own route-table test (describeRemoteContract), with the contract's rules.
      const { navigation, inputs } = declaredNavigation(appDir);
      inputsOutsideModules.set(compilation, inputs);
      for (const input of inputs) compilation.fileDependencies.add(input);
      const record = { name, version, contract: declared.contract, routes: declared.routes, navigation };
      // After the content hashes, so that the files have their final names.
      compilation.hooks.processAssets.tap({ name: 'PortalRemoteRecordPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const routes = compilation.namedChunkGroups.get(ROUTES_EXPOSE_GROUP);
        if (!routes) throw new Error(`No chunk group named '${ROUTES_EXPOSE_GROUP}': does the remote still expose ./routes?`);
        /** @type {Set<string>} */
        const shared = new Set();
        for (const chunk of routes.chunks) {
          for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
            if (module.type === 'consume-shared-module') shared.add(/** @type {{ options: { shareKey: string } }} */ (/** @type {unknown} */ (module)).options.shareKey);
          }
        }
        const firstLoad = { scripts: scriptsOf(routes.chunks), shared: [...shared].sort() };
        compilation.emitAsset('portal-remote.json', new compiler.webpack.sources.RawSource(`${JSON.stringify({ ...record, firstLoad }, null, 2)}\n`));
      });
    });
  }
}

/**
 * Writes to the file PORTAL_BUILD_INPUTS names (scripts/lib.mjs sets it) the workspace files the
 * build's output is made of: each module in its chunks (the modules webpack concatenated
 * included) with the files its loaders read, and the barrels re-exporting them (such as
 * @portal/api's index.ts, whose re-exports webpack follows to the module itself).
 * `npm start` then rebuilds an app when one of them changes, not whenever any file of @portal/api
 * or @portal/shared does: the host is not rebuilt for a definition only a remote calls. Files
 * under node_modules are left out (the lockfile stands for them).
 */
class BuildInputsPlugin {
  /** @param {string} file */
  constructor(file) {
    this.file = file;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const repo = path.join(__dirname, '..', '..');
    compiler.hooks.done.tap('BuildInputsPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const { compilation } = stats;
      const { chunkGraph, moduleGraph } = compilation;
      /** @type {Set<import('webpack').Module>} */
      const modules = new Set();
      const add = (/** @type {import('webpack').Module} */ module) => {
        if (modules.has(module)) return;
        modules.add(module);
        for (const inner of /** @type {{ modules?: Iterable<import('webpack').Module> }} */ (module).modules ?? []) add(inner);
      };
      for (const chunk of compilation.chunks) for (const module of chunkGraph.getChunkModulesIterable(chunk)) add(module);
      // The barrels whose re-exports lead to them (a module that only imports one does not count:
      // its output is not in the build).
      const reexporters = (/** @type {import('webpack').Module} */ module) => {
        for (const connection of moduleGraph.getIncomingConnections(module)) {
          const origin = connection.originModule;
          if (origin && !modules.has(origin) && connection.dependency?.constructor.name === 'HarmonyExportImportedSpecifierDependency') {
            modules.add(origin);
            reexporters(origin);
          }
        }
      };
      for (const module of [...modules]) reexporters(module);
      /** @type {Set<string>} */
      const files = new Set();
      const inRepo = (/** @type {string} */ file) => {
        const relative = path.relative(repo, file);
        if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules')) files.add(relative);
      };
      for (const module of modules) {
        const resource = /** @type {{ resource?: string }} */ (module).resource;
        if (resource) inRepo(resource.split('?')[0] ?? resource);
        for (const file of module.buildInfo?.fileDependencies ?? []) inRepo(file);
      }
      for (const file of inputsOutsideModules.get(compilation) ?? []) inRepo(file);
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, `${JSON.stringify({ files: [...files].sort() })}\n`);
    });
  }
}

/**
 * The antd components a remote brings itself (its package.json's "portal"."brings"): names, each
 * once. Anything else there stops the build, saying what is wrong.
 * @param {{ name?: string, portal?: { brings?: unknown } }} pkg
 * @returns {string[]}
 */
function broughtComponents(pkg) {
  const brings = pkg.portal?.brings;
  if (brings === undefined) return [];
  const where = `${pkg.name}: "portal"."brings"`;
  if (!Array.isArray(brings)) throw new Error(`${where} must be a list of antd component names, e.g. ["Steps"]`);
  for (const name of brings) {
    if (typeof name !== 'string' || !/^[A-Z][A-Za-z]*$/.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not an antd component's name (e.g. "Steps")`);
  }
  if (new Set(brings).size !== brings.length) throw new Error(`${where} names a component twice`);
  return brings;
}

/**
 * @typedef {object} AppOptions
 * @property {string} appDir the app's folder (where its package.json is)
 * @property {'host' | 'remote'} kind
 * @property {string} name the federation name ('host', 'groups', 'self_service' …)
 * @property {number} devPort port of `webpack serve`
 */

/**
 * @param {AppOptions} options
 * @returns {(env: Record<string, string | boolean>, argv: { mode?: string }) => import('webpack').Configuration}
 */
function createWebpackConfig({ appDir, kind, name, devPort }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const fromApp = (/** @type {string} */ request) => require(require.resolve(request, { paths: [appDir] }));
  const { ModuleFederationPlugin } = fromApp('@module-federation/enhanced/webpack');

  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const isHost = kind === 'host';
    // A remote builds into a folder named by its version: deployable next to earlier versions,
    // which stay where they are so that an environment can be pinned back to them.
    const outputPath = isHost ? path.join(appDir, 'dist') : path.join(appDir, 'dist', pkg.version);

    /** @type {import('webpack').Configuration} */
    const config = {
      mode: production ? 'production' : 'development',
      context: appDir,
      // A remote has no page of its own: its container (remoteEntry.js) is its only entry.
      entry: isHost ? { main: './src/index.ts' } : {},
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: outputPath,
        publicPath: isHost ? '/' : 'auto',
        filename: production ? '[name].[contenthash:16].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:16].js' : '[name].js',
        uniqueName: `portal_${name}`,
        clean: true,
      },
      resolve: {
        // Module federation's runtime modules, by name for the modules that hand the bundler
        // runtime from the host to the remotes (bundler-runtime-provider.mjs, -from-host.mjs).
        alias: isHost
          ? { '@portal/federation-bundler-runtime': federationRuntimeFiles(appDir).bundlerRuntime }
          : {
              '@portal/federation-runtime$': federationRuntimeFiles(appDir).runtime,
              '@module-federation/error-codes$': path.join(__dirname, 'error-codes-remote.mjs'),
            },
        extensions: ['.tsx', '.ts', '.js', '.mjs'],
        // TypeScript sources import each other with '.js' (so the server's nodenext build agrees).
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            // Loaders run last to first: antd's imports are split into its parts before transpiling.
            use: [
              {
                loader: require.resolve('ts-loader', { paths: [appDir] }),
                // Types are checked once for the whole workspace by `tsc`; the build only transpiles.
                options: { transpileOnly: true, configFile: path.join(appDir, 'tsconfig.json') },
              },
              { loader: path.join(__dirname, 'antd-imports-loader.cjs'), options: { brings: broughtComponents(pkg) } },
            ],
          },
        ],
      },
      performance: { hints: false },
      optimization: {
        moduleIds: 'deterministic',
        chunkIds: production ? 'deterministic' : 'named',
        // The host's shared modules are split by who loads them, not by where their files come
        // from: webpack's vendors group took each part's antd files (node_modules) out of the part's
        // own chunk into a second one, so that a page loaded two files, with a chunk's wrapper each,
        // for one part (/groups: the table's part as ~250 bytes and ~45 KB, brotli).
        ...(isHost ? { splitChunks: { cacheGroups: { defaultVendors: false } } } : {}),
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          // The host declares no remotes: it learns them from the environment manifest at run time.
          ...(isHost ? {} : { filename: 'remoteEntry.js', exposes: { './routes': './src/routes.tsx' } }),
          shared: sharedSingletons(pkg.dependencies, kind),
          // One remote that cannot be reached must not hold up the others' shared modules.
          shareStrategy: 'loaded-first',
          manifest: !isHost,
          dts: false,
          // One federation runtime per page: the host's. A remote's entry carries none of its own
          // (~16 KB brotli less each) and uses the one the host provides (see
          // ../src/contract.ts). The host provides it with the runtime plugin made for that, taken
          // as its ES module: `experiments.provideExternalRuntime` adds the CommonJS one, whose
          // imports bring a second copy of the runtime into the host (~10 KB brotli).
          // The runtime is built for browsers only (`target: 'web'`): without its Node.js paths.
          // The host's is built without the snapshot plugin (`disableSnapshot`), which reads a
          // remote's mf-manifest.json before its entry: the host loads remoteEntry.js itself
          // (host/src/federation/remoteLoader.ts), one request less, and with the runtime-core
          // patch (build/patches) the handler and preload planner only that plugin used are left
          // out too (2.5 KB brotli less on every page, measured with and without the patch).
          ...(isHost
            ? {
                runtimePlugins: [
                  path.join(appDir, 'src/federation/runtimePlugin.ts'),
                  externalRuntimeProvider(appDir),
                  path.join(__dirname, 'bundler-runtime-provider.mjs'),
                ],
                experiments: { optimization: { target: 'web', disableSnapshot: true } },
              }
            : { experiments: { externalRuntime: true, optimization: { target: 'web' } } }),
        }),
        ...(isHost
          ? [
              // The host's bundler runtime looks each of its own shared modules up once
              // (bundler-runtime-host.mjs): the entry imports that module in place of MF's.
              new (fromApp('webpack').NormalModuleReplacementPlugin)(BUNDLER_RUNTIME_MODULE, path.join(__dirname, 'bundler-runtime-host.mjs')),
            ]
          : [
              new PortalRemoteRecordPlugin({ name, version: pkg.version, portal: pkg.portal, appDir }),
              // The bundler runtime is the host's too: the entry imports this module
              // in its place, which takes the host's (bundler-runtime-from-host.mjs).
              new (fromApp('webpack').NormalModuleReplacementPlugin)(BUNDLER_RUNTIME_MODULE, path.join(__dirname, 'bundler-runtime-from-host.mjs')),
            ]),
        new ShadowedShareRuntimePlugin(fromApp('webpack/lib/sharing/ShareRuntimeModule')),
        ...(production ? [new CompileHintsPlugin(), new PrecompressPlugin()] : []),
        ...(process.env.PORTAL_BUILD_INPUTS ? [new BuildInputsPlugin(process.env.PORTAL_BUILD_INPUTS)] : []),
      ],
      devServer: {
        port: devPort,
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        ...(isHost
          ? {
              historyApiFallback: true,
              // The API, the manifest and pinned remotes come from a running portal (npm start).
              proxy: [
                {
                  context: ['/accounts/rest', '/remotes', '/environment.json'],
                  target: process.env.PORTAL_URL || 'http://localhost:8080',
                },
              ],
            }
          : { static: false }),
      },
    };

    if (isHost) {
      const HtmlWebpackPlugin = fromApp('html-webpack-plugin');
      // The page is given as its text, not as a template module: compiling a template runs a child
      // compilation, in which the federation plugin also built its shared modules, as CommonJS
      // chunks nothing loads (about 870 KB of the host's folder).
      config.plugins?.push(
        new HtmlWebpackPlugin({
          templateContent: fs.readFileSync(path.join(appDir, 'src', 'index.html'), 'utf8'),
          inject: 'body',
          scriptLoading: 'defer',
        }),
        // antd's styles for the portal's set, written at build time (antd-static-styles.cjs).
        new AntdStaticStylesPlugin({ appDir, htmlWebpackPlugin: HtmlWebpackPlugin }),
        // The shell (src/Root.tsx) is what every page runs right after the first file; the sign-in
        // page (src/loginChunk.ts) what /login and / run next, hinted at by the server there.
        new PreloadChunksPlugin({ chunks: ['shell'], pages: { login: ['/', '/login'] }, htmlWebpackPlugin: HtmlWebpackPlugin }),
      );
    }
    return config;
  };
}

module.exports = { broughtComponents, createWebpackConfig, declaredNavigation, federationRuntimeFiles, sharedSingletons, SINGLETON_PACKAGES };
