/**
 * The portal's antd (antd.ts) is the shared singleton every app's `from 'antd'` is served by: a
 * component an app uses that is not in it would be undefined in the browser. This reads every
 * app's sources and fails, naming the file, when one imports from antd anything the set lacks, or
 * imports antd in a way the set cannot serve (a default or namespace import, a deep path).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repo = join(__dirname, '..', '..');
const APP_SOURCES = ['host/src', 'shared/src', ...readdirSync(repo).filter((d) => d.startsWith('remote-')).map((d) => `${d}/src`)];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && path !== join(__dirname, 'antd.ts') ? [path] : [];
  });
}

/** The value names a source imports from 'antd' (type-only ones left out). */
function antdValueImports(source: string): string[] {
  return [...source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'antd'/g)].flatMap(([, typeOnly, specifiers]) =>
    typeOnly
      ? []
      : (specifiers ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '' && !s.startsWith('type '))
          .map((s) => s.split(/\s+as\s+/)[0]!.trim()),
  );
}

const set = new Set(
  /export\s*\{([^}]*)\}\s*from\s*'antd\/es\/index\.js'/
    .exec(readFileSync(join(__dirname, 'antd.ts'), 'utf8'))![1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const files = APP_SOURCES.flatMap((dir) => sourceFiles(join(repo, dir)));

describe("the portal's antd set (antd.ts)", () => {
  it('reads the sources of the host, shared and every remote', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(set.has('Button')).toBe(true);
  });

  it('has every antd component the apps use', () => {
    const missing = files.flatMap((file) =>
      antdValueImports(readFileSync(file, 'utf8'))
        .filter((name) => !set.has(name))
        .map((name) => `${relative(repo, file)}: ${name} (add it to shared/src/antd.ts)`),
    );
    expect(missing).toEqual([]);
  });

  it('is the only way the apps reach antd', () => {
    const other = files.flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      const bad = [...source.matchAll(/(?:import|export)\s+(?!type\b)[^;]*?from\s*'(antd[^']*)'/g)].filter(
        ([statement, request]) => request !== 'antd' || !/^import\s*\{/.test(statement),
      );
      return bad.map(([statement]) => `${relative(repo, file)}: ${statement.replace(/\s+/g, ' ')}`);
    });
    expect(other).toEqual([]);
  });
});
