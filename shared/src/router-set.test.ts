/**
 * The portal's router (router.ts) is the shared singleton every app's `from 'react-router-dom'` is
 * served by: a name an app imports that it lacks would be undefined in the browser. This reads
 * every app's sources and fails, naming the file, when one imports a name the set lacks.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { appSourceFiles, REPO_DIR } from './app-sources';

const repo = REPO_DIR;

const set = new Set(
  /export\s*\{([^}]*)\}\s*from\s*'react-router'/
    .exec(readFileSync(join(__dirname, 'router.ts'), 'utf8'))![1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const files = appSourceFiles();

describe("the portal's router (router.ts)", () => {
  it('has every name the apps import from react-router-dom', () => {
    expect(set.has('Link')).toBe(true);
    const missing = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'react-router-dom'/g)].flatMap(([, typeOnly, specifiers]) =>
        typeOnly
          ? []
          : (specifiers ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '' && !s.startsWith('type '))
              .map((s) => s.split(/\s+as\s+/)[0]!.trim())
              .filter((name) => !set.has(name))
              .map((name) => `${relative(repo, file)}: ${name} (add it to shared/src/router.ts)`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('is the only way the apps reach the router', () => {
    const other = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:import|export)\s+(?!type\b)[^;]*?from\s*'(react-router[^']*)'/g)]
        .filter(([statement, request]) => request !== 'react-router-dom' || !/^import\s*\{/.test(statement))
        .filter(() => file !== join(__dirname, 'router.ts'))
        .map(([statement]) => `${relative(repo, file)}: ${statement.replace(/\s+/g, ' ')}`),
    );
    expect(other).toEqual([]);
  });
});
