// Bundles the server into dist/main.mjs and the command line into dist/cli.mjs: our code and the workspace packages (@portal/shared, @portal/api: TypeScript source) are
// bundled; every other dependency stays external and is loaded from node_modules at run time.
// `--outdir DIR` writes them elsewhere (a folder under server/, so that node_modules is found):
// the server tests that start the portal as a process build their own copy there.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8'));
const externalPackages = Object.entries(pkg.dependencies ?? {})
  .filter(([, version]) => !String(version).startsWith('workspace:'))
  .map(([name]) => name);
// A package and its subpaths (e.g. 'typebox' and 'typebox/value').
const external = externalPackages.flatMap((name) => [name, `${name}/*`]);
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag === -1 ? join(serverDir, 'dist') : resolve(process.argv[outdirFlag + 1] ?? '');
const ENTRIES = [
  { entry: 'src/main.ts', outfile: join(outdir, 'main.mjs') },
  { entry: 'src/cli.ts', outfile: join(outdir, 'cli.mjs') },
];

// Bundled CommonJS code calls require(), which an ES module lacks; esbuild then emits a
// "Dynamic require" shim. Only in that case does the bundle get a real require.
const REQUIRE_BANNER =
  "import { createRequire as __portalCreateRequire } from 'node:module'; const require = __portalCreateRequire(import.meta.url);";

// The request kinds' modules are found by reading their folder (src/services/request-kinds/index.ts),
// which a bundle no longer has: here the folder is read at build time, and the lines between the
// index's markers become one static import per module, in the same order.
const KINDS_INDEX = /services[\\/]request-kinds[\\/]index\.ts$/;
const KIND_MODULE = /^[a-z0-9-]+\.(ts|js)$/; // as isKindModule in that index
const KINDS_BLOCK = /\/\/ request-kinds:begin\n[\s\S]*?\/\/ request-kinds:end\n/;
const requestKinds = {
  name: 'request-kinds',
  setup(build) {
    build.onLoad({ filter: KINDS_INDEX }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!KINDS_BLOCK.test(source)) throw new Error(`${args.path} has lost its request-kinds markers`);
      const files = readdirSync(join(dirname(args.path), 'kinds')).filter((file) => KIND_MODULE.test(file)).sort();
      const imports = files.map((file) => `import './kinds/${file.replace(/\.ts$/, '.js')}';\n`).join('');
      return { contents: source.replace(KINDS_BLOCK, imports), loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

async function bundle(entry, outfile, banner) {
  await build({
    absWorkingDir: serverDir,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external,
    logLevel: 'warning',
    plugins: [requestKinds],
    ...(banner ? { banner: { js: banner } } : {}),
  });
}

rmSync(outdir, { recursive: true, force: true });
const built = [];
for (const { entry, outfile } of ENTRIES) {
  await bundle(entry, outfile);
  const needsRequire = readFileSync(outfile, 'utf8').includes('Dynamic require of');
  if (needsRequire) await bundle(entry, outfile, REQUIRE_BANNER);
  built.push(`${relative(serverDir, outfile)}${needsRequire ? ' (with a require() banner)' : ''}`);
}
console.log(`Built ${built.join(', ')}; external: ${externalPackages.join(', ')}`);
