/**
 * For the tests that check a patch of shared/build/patches is applied to the package the build
 * takes (shared/src/ui/antdPatches.test.tsx, host/src/federation/semver.test.ts).
 */
const { existsSync, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');

const patches = join(__dirname, 'patches');

/**
 * The folder of the package `name` as the package in `from` resolves it (as its build does).
 * @param {string} name
 * @param {string} from
 * @returns {string}
 */
function installedDir(name, from) {
  let dir = dirname(createRequire(join(from, 'package.json')).resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === name) return dir;
    if (dirname(dir) === dir) throw new Error(`${name}'s package.json was not found from ${from}.`);
    dir = dirname(dir);
  }
}

/**
 * What of `patch` (a file in shared/build/patches) is missing from the package installed at `dir`:
 * its version when it is not the one the patch is for, and each line the patch adds that the
 * installed file lacks. Empty when the patch is applied.
 * @param {string} patch
 * @param {string} dir
 * @returns {string[]}
 */
function unapplied(patch, dir) {
  const version = /@([^@]+)\.patch$/.exec(patch)?.[1];
  const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  if (installed !== version) return [`the installed version is ${installed}, the patch is for ${version}`];
  /** @type {string[]} */
  const missing = [];
  /** @type {string | undefined} */
  let file;
  let lines = new Set();
  for (const line of readFileSync(join(patches, patch), 'utf8').split('\n')) {
    const target = /^\+\+\+ b\/(.+)$/.exec(line);
    if (target) {
      file = target[1];
      lines = new Set(readFileSync(join(dir, file), 'utf8').split('\n').map((l) => l.trim()));
    } else if (file && line.startsWith('+') && line.slice(1).trim() !== '' && !lines.has(line.slice(1).trim())) {
      missing.push(`${file}: ${line.slice(1).trim()}`);
    }
  }
  return missing;
}

module.exports = { installedDir, patches, unapplied };
