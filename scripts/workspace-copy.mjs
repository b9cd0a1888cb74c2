// @ts-check
/**
 * For the tests that do what docs/extending.md says on a copy of the workspace, never on this
 * checkout: the guide's files (its code blocks that name one), and a copy of the workspace's
 * packages with their node_modules as pnpm linked them (relative links, so that @portal/api and
 * @portal/shared lead to the copies; the package store is this checkout's).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The files a section of docs/extending.md adds: each fenced block whose info string names one
 * (```ts file=path), by path, in the guide's order.
 * @param {string} section
 * @returns {Map<string, string>}
 */
export function guideFiles(section) {
  const text = readFileSync(join(REPO, 'docs', 'extending.md'), 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start === -1) throw new Error(`docs/extending.md has no section '${section}'`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end === -1 ? undefined : end);
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const match of body.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) files.set(String(match[1]), String(match[2]));
  return files;
}

/** What the server and the shared packages are built and run from. */
const PACKAGES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'server/package.json',
  'server/tsconfig.json',
  'server/build.mjs',
  'server/src',
  'server/test',
  'server/migrations',
  'server/config',
  'server/environments',
  'server/node_modules',
  'shared/package.json',
  'shared/tsconfig.json',
  'shared/build',
  'shared/src',
  'shared/node_modules',
  'shared/api/package.json',
  'shared/api/tsconfig.json',
  'shared/api/src',
  'shared/api/node_modules',
];

/**
 * Copies the server and the shared packages into `work` (an empty folder), and links there the
 * checkout's folders named in `linked` (the host's and the remotes' dist/, which a started server
 * serves and publishes), as they are.
 * @param {string} work
 * @param {{ linked?: readonly string[] }} [options]
 */
export function copyWorkspace(work, { linked = [] } = {}) {
  symlinkSync(join(REPO, 'node_modules'), join(work, 'node_modules'), 'dir');
  for (const path of PACKAGES) {
    if (!existsSync(join(REPO, path))) continue;
    // Caches stay behind: they name this checkout's paths.
    cpSync(join(REPO, path), join(work, path), { recursive: true, verbatimSymlinks: true, filter: (source) => !/[\\/]\.(cache|federation)$/.test(source) });
  }
  for (const path of linked) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    symlinkSync(join(REPO, path), join(work, path), 'dir');
  }
}

/**
 * Copies one app's folder for a build inside `work` (a sibling of the copied packages, so that
 * its node_modules' relative links lead to them), without its build output; returns the copy.
 * @param {string} work
 * @param {string} app
 * @param {string} folder the copy's name in `work`
 */
export function copyApp(work, app, folder) {
  const to = join(work, folder);
  cpSync(join(REPO, app), to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !/[\\/](dist|\.cache|\.federation)$/.test(source),
  });
  return to;
}
