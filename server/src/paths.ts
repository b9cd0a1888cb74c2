/**
 * Where the server package and the repository are on disk. Works the same from the TypeScript
 * source (src/, run by tsx) and from the bundle (dist/main.mjs): walk up from this module to the
 * directory whose package.json names the server package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_PACKAGE_NAME = '@portal/server';

function isServerPackage(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && (parsed as { name?: unknown }).name === SERVER_PACKAGE_NAME;
  } catch {
    return false;
  }
}

function findServerDir(start: string): string {
  let dir = start;
  for (;;) {
    if (isServerPackage(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`Cannot find the ${SERVER_PACKAGE_NAME} package above ${start}.`);
    }
    dir = parent;
  }
}

/** The server package directory (holding package.json, migrations/ and environments/). */
export const SERVER_DIR = findServerDir(dirname(fileURLToPath(import.meta.url)));

/** The repository root: the workspace directory that holds server/, host/ and the remotes. */
export const REPO_DIR = dirname(SERVER_DIR);

export const MIGRATIONS_DIR = join(SERVER_DIR, 'migrations');
