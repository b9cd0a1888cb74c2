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
 */
const fs = require('node:fs');
const path = require('node:path');

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
 * @returns {{ code: string, problems: string[] }}
 */
function splitAntdImports(source, partOf) {
  /** @type {string[]} */
  const problems = [];
  for (const [statement, , request] of source.matchAll(ANTD_STATEMENT)) {
    if (request === 'antd' && /^import\s*\{/.test(statement)) continue;
    problems.push(`${statement.replace(/\s+/g, ' ')}: the portal's antd cannot serve ${request === 'antd' ? 'this form' : 'a deep path'}; import its components by name: import { Button } from 'antd'`);
  }
  const code = source.replace(IMPORT_FROM_ANTD, (statement, typeOnly, specifiers) => {
    if (typeOnly) return statement;
    /** @type {Map<string, string[]>} */
    const byPart = new Map();
    /** @type {string[]} */
    const types = [];
    for (const specifier of String(specifiers).split(',').map((s) => s.trim()).filter(Boolean)) {
      if (/^type\s/.test(specifier)) {
        types.push(specifier.replace(/^type\s+/, ''));
        continue;
      }
      const name = specifier.split(/\s+as\s+/)[0]?.trim() ?? '';
      const part = partOf.get(name);
      if (!part) {
        problems.push(`${name} is not in the portal's antd: add it to shared/src/antd-extra.ts (antd-core.ts if the shell needs it)`);
        continue;
      }
      byPart.set(part, [...(byPart.get(part) ?? []), specifier]);
    }
    const statements = [...byPart].map(([part, names]) => `import { ${names.join(', ')} } from '${part}';`);
    if (types.length > 0) statements.push(`import type { ${types.join(', ')} } from 'antd';`);
    return statements.join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
  return { code, problems };
}

/** @this {import('webpack').LoaderContext<{}>} @param {string} source */
function antdImportsLoader(source) {
  // The modules that are the portal's antd re-export antd itself.
  if (ANTD_PARTS.some((part) => part.file === this.resourcePath)) return source;
  const { code, problems } = splitAntdImports(source, antdParts());
  for (const problem of problems) this.emitError(new Error(`${path.relative(process.cwd(), this.resourcePath)}: ${problem}`));
  for (const part of ANTD_PARTS) this.addDependency(part.file);
  return code;
}

module.exports = antdImportsLoader;
module.exports.ANTD_PARTS = ANTD_PARTS;
module.exports.antdParts = antdParts;
module.exports.splitAntdImports = splitAntdImports;
