// @ts-check
/**
 * Sends each antd component an app's source imports to the part of the portal's antd that has it
 * (so a page loads only the parts it uses): `import { Button, Table, type TableColumnsType } from 'antd'` is built as
 *
 *   import { Button } from '@portal/antd-core'; import { Table } from '@portal/antd-data'; import type { TableColumnsType } from 'antd';
 *
 * on the same lines (so source maps still point at the right line). The parts are shared
 * singletons the host provides (federation.cjs): the first is what every page needs, each other
 * is loaded with the first page that uses one of its components. The sources keep importing from
 * 'antd', so types, tests and editors see antd itself.
 *
 * A name no part has fails the build, naming the file and where to add it; so does any other
 * way of importing antd's values (default, namespace, deep path), which the parts cannot serve.
 *
 * A remote may instead bring a component the set lacks, at the cost of its own bytes: its
 * package.json lists it (`"portal": { "brings": ["Steps"] }`), and its imports of that name are
 * built from the remote's own copy of antd, wrapped so that it draws in the portal's theme
 * (../src/brought/antd.tsx):
 *
 *   import { Steps as __portalOwn_Steps_1 } from 'antd/es/index.js'; const Steps = __portalWithTheme(__portalOwn_Steps_1);
 */
const fs = require('node:fs');
const path = require('node:path');

/** The wrapper a brought component is drawn through: it alone imports the remote's own copy of antd. */
const BROUGHT_MODULE = path.join(__dirname, '..', 'src', 'brought', 'antd.tsx');

/** The parts: the shared key of each and the module that serves it. */
const ANTD_PARTS = [
  { key: '@portal/antd-core', file: path.join(__dirname, '..', 'src', 'antd-core.ts') },
  { key: '@portal/antd-data', file: path.join(__dirname, '..', 'src', 'antd-data.ts') },
  { key: '@portal/antd-details', file: path.join(__dirname, '..', 'src', 'antd-details.ts') },
  { key: '@portal/antd-extra', file: path.join(__dirname, '..', 'src', 'antd-extra.ts') },
  { key: '@portal/antd-forms', file: path.join(__dirname, '..', 'src', 'antd-forms.ts') },
];

/** The names a part's module re-exports from antd (its one `export { … } from 'antd/es/index.js'`). */
function exportedNames(/** @type {string} */ file) {
  const found = /export\s*\{([^}]*)\}\s*from\s*'antd\/es\/index\.js'/.exec(fs.readFileSync(file, 'utf8'));
  if (!found?.[1]) throw new Error(`${file} must re-export the components of its part from 'antd/es/index.js'`);
  return found[1].split(',').map((name) => name.trim()).filter(Boolean);
}

/** @returns {Map<string, string>} each component's name → the shared key of its part */
function antdParts() {
  const partOf = new Map();
  for (const { key, file } of ANTD_PARTS) {
    for (const name of exportedNames(file)) {
      if (partOf.has(name)) throw new Error(`${name} is in two parts of the portal's antd (${partOf.get(name)} and ${key}): keep it in one`);
      partOf.set(name, key);
    }
  }
  return partOf;
}

const IMPORT_FROM_ANTD = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*(['"])antd\3\s*;?/g;
const ANTD_STATEMENT = /(?:import|export)\s+(?!type\b)[^;]*?from\s*(['"])(antd(?:\/[^'"]*)?)\1/g;

/**
 * Rewrites one source's value imports from 'antd'.
 * @param {string} source
 * @param {Map<string, string>} partOf
 * @param {{ brings?: ReadonlySet<string>, ownCopy?: boolean }} [options] the names the app brings
 *   itself; `ownCopy`: the source is the wrapper that imports the app's own copy (a deep path)
 * @returns {{ code: string, problems: string[] }}
 */
function splitAntdImports(source, partOf, options = {}) {
  const brings = options.brings ?? new Set();
  /** @type {string[]} */
  const problems = [];
  let ownNames = 0;
  for (const [statement, , request] of source.matchAll(ANTD_STATEMENT)) {
    if (request === 'antd' && /^import\s*\{/.test(statement)) continue;
    if (options.ownCopy && request === 'antd/es/index.js') continue;
    problems.push(`${statement.replace(/\s+/g, ' ')}: the portal's antd cannot serve ${request === 'antd' ? 'this form' : 'a deep path'}; import its components by name: import { Button } from 'antd'`);
  }
  const code = source.replace(IMPORT_FROM_ANTD, (statement, typeOnly, specifiers) => {
    if (typeOnly) return statement;
    /** @type {Map<string, string[]>} */
    const byPart = new Map();
    /** @type {string[]} */
    const types = [];
    /** @type {{ name: string, local: string }[]} */
    const brought = [];
    for (const specifier of String(specifiers).split(',').map((s) => s.trim()).filter(Boolean)) {
      if (/^type\s/.test(specifier)) {
        types.push(specifier.replace(/^type\s+/, ''));
        continue;
      }
      const [name = '', local = name] = specifier.split(/\s+as\s+/).map((part) => part.trim());
      const part = partOf.get(name);
      if (part && brings.has(name)) {
        problems.push(`${name} is in the portal's antd: take it from there (remove it from "portal"."brings" in the package.json)`);
        continue;
      }
      if (brings.has(name)) {
        brought.push({ name, local });
        continue;
      }
      if (!part) {
        problems.push(
          `${name} is not in the portal's antd: add it to shared/src/antd-extra.ts (antd-core.ts if the shell needs it), or bring it with this app ("portal": { "brings": ["${name}"] } in its package.json)`,
        );
        continue;
      }
      byPart.set(part, [...(byPart.get(part) ?? []), specifier]);
    }
    const statements = [...byPart].map(([part, names]) => `import { ${names.join(', ')} } from '${part}';`);
    if (types.length > 0) statements.push(`import type { ${types.join(', ')} } from 'antd';`);
    if (brought.length > 0) {
      // Each statement's own names for the own copy's components: a file may import one twice.
      const renamed = brought.map(({ name, local }) => ({ name, local, own: `__portalOwn_${name}_${++ownNames}` }));
      statements.push(`import { ${renamed.map(({ name, own }) => `${name} as ${own}`).join(', ')} } from 'antd/es/index.js';`);
      if (ownNames === renamed.length) statements.push(`import { withPortalTheme as __portalWithTheme } from '@portal/shared/brought-antd';`);
      for (const { local, own } of renamed) statements.push(`const ${local} = __portalWithTheme(${own});`);
    }
    return statements.join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
  return { code, problems };
}

/** @this {import('webpack').LoaderContext<{ brings?: string[] }>} @param {string} source */
function antdImportsLoader(source) {
  // The modules that are the portal's antd re-export antd itself.
  if (ANTD_PARTS.some((part) => part.file === this.resourcePath)) return source;
  const { brings = [] } = this.getOptions();
  const { code, problems } = splitAntdImports(source, antdParts(), { brings: new Set(brings), ownCopy: this.resourcePath === BROUGHT_MODULE });
  for (const problem of problems) this.emitError(new Error(`${path.relative(process.cwd(), this.resourcePath)}: ${problem}`));
  for (const part of ANTD_PARTS) this.addDependency(part.file);
  return code;
}

module.exports = antdImportsLoader;
module.exports.ANTD_PARTS = ANTD_PARTS;
module.exports.BROUGHT_MODULE = BROUGHT_MODULE;
module.exports.antdParts = antdParts;
module.exports.splitAntdImports = splitAntdImports;
