// `npm test -- --changed`: which checks and which test files a change can affect, for everyday
// work (CI always runs everything). Plain Node, no dependencies.
//
// A change is what git reports against a ref (`--changed=REF`; default HEAD: the uncommitted
// changes) plus the untracked files. Then:
// - type check: the programs (browser, server, end to end) holding a changed file;
// - lint: the changed files (all of them when the lint configuration changed);
// - unit tests: Jest's own --findRelatedTests over the changed browser files;
// - server tests: the test files that import a changed file, directly or through others;
// - end to end: the specs that import a changed file, and the specs that visit a route of a
//   remote whose sources changed (all of them for a change to the host or to @portal/shared).
// A change to what everything depends on (a package.json, the lockfile, the TypeScript or Jest
// configuration, the test runner itself) selects everything.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const EVERYTHING = [/(^|\/)package\.json$/, /^pnpm-lock\.yaml$/, /^pnpm-workspace\.yaml$/, /^tsconfig(\.base)?\.json$/, /^jest\.config\.cjs$/, /^shared\/build\//, /^scripts\/test(\.mjs|\/)/, /^scripts\/lib\.mjs$/];

/** The files changed against `ref` (and the untracked ones), relative to the repository. */
export function changedFiles(root, ref = 'HEAD') {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const tracked = git('diff', '--name-only', ref, '--').split('\n');
  const untracked = git('ls-files', '--others', '--exclude-standard').split('\n');
  return [...new Set([...tracked, ...untracked].filter(Boolean))].sort();
}

const IMPORT = /(?:^|[^\w.])(?:import|export)\s[^;'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Where a workspace package's import goes (the packages' "exports"). */
function packageEntry(root, specifier) {
  const match = /^@portal\/(api|shared)(\/.*)?$/.exec(specifier);
  if (!match) return undefined;
  const dir = match[1] === 'api' ? 'shared/api' : 'shared';
  const exports = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).exports ?? {};
  const target = exports[`.${match[2] ?? ''}`];
  return typeof target === 'string' ? join(root, dir, target) : undefined;
}

function resolveImport(root, from, specifier) {
  if (specifier.startsWith('@portal/')) return packageEntry(root, specifier);
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** Every file `entry` imports, directly or not (the workspace's own files only), with itself. */
function importClosure(root, entry, cache) {
  const seen = new Set();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    let imports = cache.get(file);
    if (!imports) {
      imports = [];
      const text = /\.(m?[jt]sx?|cjs)$/.test(file) ? readFileSync(file, 'utf8') : '';
      for (const m of text.matchAll(IMPORT)) {
        const target = resolveImport(root, file, m[1] ?? m[2] ?? m[3]);
        if (target) imports.push(target);
      }
      cache.set(file, imports);
    }
    stack.push(...imports);
  }
  return seen;
}

/** The remotes' route prefixes, by app folder (from the local environment's pins). */
function remoteRoutes(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'server', 'environments', 'local.json'), 'utf8'));
  return Object.fromEntries(manifest.remotes.map((r) => [`remote-${r.name.replace(/_/g, '-')}`, r.routes]));
}

/**
 * What to run for these changed files: `everything: true`, or per stage the files (or programs)
 * to run, an empty list meaning "nothing to do".
 */
export function selectForChange(root, files) {
  if (files.some((file) => EVERYTHING.some((pattern) => pattern.test(file)))) return { everything: true, files };
  const abs = files.map((file) => join(root, file));
  const code = files.filter((file) => /\.(m?[jt]sx?|cjs)$/.test(file));
  const inBrowser = (file) => /^(shared|host|remote-[a-z-]+)\//.test(file) && !file.startsWith('shared/build/');

  const types = [];
  if (code.some(inBrowser)) types.push('browser');
  if (code.some((file) => file.startsWith('server/') || file.startsWith('shared/api/') || file.startsWith('shared/src/contract') || file.startsWith('shared/src/semver'))) types.push('server');
  if (code.some((file) => file.startsWith('e2e/'))) types.push('e2e');

  const lintAll = files.some((file) => /^eslint\.config\.mjs$/.test(file));
  const lint = lintAll ? ['.'] : code.filter((file) => existsSync(join(root, file)));

  const unit = code.filter((file) => inBrowser(file) && existsSync(join(root, file)));

  const cache = new Map();
  const changed = new Set(abs);
  const affected = (entry) => [...importClosure(root, entry, cache)].some((file) => changed.has(file));
  const migrations = files.some((file) => file.startsWith('server/migrations/'));
  const serverDir = join(root, 'server', 'test');
  const server = readdirSync(serverDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(serverDir, f))
    .filter((file) => migrations || affected(file))
    .map((file) => relative(join(root, 'server'), file));

  const routes = remoteRoutes(root);
  const specDir = join(root, 'e2e', 'tests');
  const everySpec = code.some((file) => /^(host|shared)\//.test(file) && inBrowser(file));
  const touchedRoutes = Object.entries(routes)
    .filter(([app]) => files.some((file) => file.startsWith(`${app}/`)))
    .flatMap(([, prefixes]) => prefixes);
  const e2e = readdirSync(specDir)
    .filter((f) => f.endsWith('.spec.ts'))
    .filter((f) => {
      const file = join(specDir, f);
      if (everySpec || affected(file)) return true;
      const text = readFileSync(file, 'utf8');
      return touchedRoutes.some((prefix) => new RegExp(`['\`"(]${prefix.replace(/[-/]/g, '\\$&')}(?=[/'\`"?])`).test(text));
    })
    .map((f) => join('tests', f));

  return { everything: false, files, types, lint, unit, server, e2e };
}
