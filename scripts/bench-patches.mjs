// npm run bench -- --only=patches: what each patched dependency (pnpm-workspace.yaml's
// patchedDependencies, files in shared/build/patches) gains, measured. For each patch a git
// worktree of the current commit, in a temporary folder, whose pnpm-workspace.yaml lacks that one
// patch: installed (its own lockfile updated there, never this checkout's) and built with the
// project's own build (scripts/build.mjs), one at a time. Each is then served by its own portal on
// PGlite beside this checkout's build, all measured in one run, interleaved, by bench-pages.mjs.
// The worktrees are removed afterwards (git worktree remove), whatever happens.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRONTEND_APPS, pnpmCommand } from './lib.mjs';

/** A figure gains when it is at least this much worse without the patch (without ÷ with). */
export const KEEP_RATIO = 1.1;

/** The patched dependencies of `dir`'s pnpm-workspace.yaml: { key: 'name@version', name, version, file }. */
export function readPatches(dir) {
  const lines = readFileSync(join(dir, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^patchedDependencies:\s*$/.test(line));
  if (start < 0) return [];
  const patches = [];
  for (const line of lines.slice(start + 1)) {
    const entry = /^\s+'?((@?[^@'\s]+)@([^'\s:]+))'?:\s*(\S+)\s*$/.exec(line);
    if (!entry) break;
    patches.push({ key: entry[1], name: entry[2], version: entry[3], file: entry[4] });
  }
  return patches;
}

/** pnpm-workspace.yaml's text without `key`'s patch entry (an error when it is not there once). */
export function workspaceWithout(text, key) {
  const lines = text.split('\n');
  const entry = (line) => new RegExp(`^\\s+'?${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'?:`).test(line);
  if (lines.filter(entry).length !== 1) throw new Error(`pnpm-workspace.yaml lists ${key}'s patch ${lines.filter(entry).length} times, not once.`);
  const rest = lines.filter((line) => !entry(line));
  // With no patch left, no empty section either.
  const header = rest.findIndex((line) => /^patchedDependencies:\s*$/.test(line));
  if (header >= 0 && !/^\s+\S/.test(rest[header + 1] ?? '')) rest.splice(header, 1);
  return rest.join('\n');
}

/**
 * Whether `dir`'s install has `patch` applied: pnpm installs a patched package under a name with
 * `_patch_hash=` (node_modules/.pnpm); true, false, or an error when the package is not installed.
 */
export function patchInstalled(dir, patch) {
  const prefix = `${patch.name.replace('/', '+')}@${patch.version}`;
  const entries = readdirSync(join(dir, 'node_modules', '.pnpm')).filter((name) => name === prefix || name.startsWith(`${prefix}_`));
  if (entries.length === 0) throw new Error(`${patch.key} is not installed in ${dir}.`);
  const patched = entries.filter((name) => name.includes('patch_hash='));
  if (patched.length !== 0 && patched.length !== entries.length) throw new Error(`${patch.key} is installed both patched and not in ${dir}: ${entries.join(', ')}`);
  return patched.length > 0;
}

/** The JavaScript the build wrote (host and remotes), as its precompressed brotli files weigh: the sum. */
export function builtJavaScriptBytes(dir) {
  let total = 0;
  const walk = (path) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.js.br')) total += statSync(file).size;
    }
  };
  for (const app of FRONTEND_APPS) if (existsSync(join(dir, app, 'dist'))) walk(join(dir, app, 'dist'));
  return total;
}

/**
 * Runs a command to its end (output inherited, prefixed by nothing); `track(child)` is called with
 * the process so that the caller can stop it on Ctrl+C. Rejects on a non-zero exit.
 */
function runStep(command, args, options, track) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    track?.(child);
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} in ${options.cwd} failed (${signal ?? `exit code ${code}`}).`)),
    );
  });
}

const git = (cwd, ...args) => {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
};

/** Removes a worktree made by addVariant (and its registration), synchronously: safe in an exit hook. */
export function removeVariant(root, dir) {
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
  spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
}

/**
 * A worktree of `root`'s HEAD at `dir` without `patch`: registered with git (detached), its
 * pnpm-workspace.yaml without that entry, installed (the worktree's own lockfile updated to match),
 * then built by the project's build. `onCreated()` is called as soon as the worktree exists, so that
 * the caller can remove it whatever happens next.
 */
export async function addVariant(root, dir, patch, { onCreated, track, log }) {
  git(root, 'worktree', 'add', '--detach', '--quiet', dir, 'HEAD');
  onCreated();
  const workspace = join(dir, 'pnpm-workspace.yaml');
  writeFileSync(workspace, workspaceWithout(readFileSync(workspace, 'utf8'), patch.key));
  const [pnpm, prefix] = pnpmCommand();
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CI: '1' };
  log(`Installing the worktree without ${patch.key} (its own lockfile updated, offline where it can)…`);
  await runStep(pnpm, [...prefix, 'install', '--no-frozen-lockfile', '--prefer-offline', '--reporter=append-only'], { cwd: dir, env }, track);
  if (patchInstalled(dir, patch)) throw new Error(`${patch.key} is still patched in ${dir} after its entry was removed.`);
  for (const other of readPatches(dir)) {
    if (!patchInstalled(dir, other)) throw new Error(`${other.key} should still be patched in ${dir}, and is not.`);
  }
  log(`Building the worktree without ${patch.key} (scripts/build.mjs)…`);
  await runStep(process.execPath, [join(dir, 'scripts', 'build.mjs')], { cwd: dir, env }, track);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${Math.round(value)} ms`;

/**
 * The figures of each build, lower is better for all: `pages` is measurePages' answer and
 * `lighthouse` measureLighthouse's (mobile only) or undefined. Answers [{ what, format, values }],
 * values by build index.
 */
export function patchFigures(pages, lighthouse, builtBytes) {
  const figures = [];
  for (const { spec, medians } of pages.pages) {
    figures.push({ what: `JS before content, ${spec.path}`, format: kb, values: medians.map((m) => m.bytes) });
    figures.push({ what: `time to content, ${spec.path}`, format: ms, values: medians.map((m) => m.at) });
  }
  for (const { spec, medians } of pages.navigations) figures.push({ what: `navigation ${spec.label}`, format: ms, values: medians });
  for (const row of lighthouse?.rows ?? []) {
    if (row.formFactor !== 'mobile' || row.slowdown !== undefined) continue;
    figures.push({ what: `Lighthouse mobile TBT, ${row.path}`, format: ms, values: row.medians.map((m) => m.tbt) });
    figures.push({ what: `Lighthouse mobile LCP, ${row.path}`, format: ms, values: row.medians.map((m) => m.lcp) });
    // The score is higher-better: the ratio is of what it lacks to 100 (lower is better), the
    // cells show the score itself.
    figures.push({ what: `Lighthouse mobile score, ${row.path} (ratio of 100 − score)`, format: (v) => `${100 - v}`, values: row.medians.map((m) => 100 - m.score) });
  }
  if (builtBytes) figures.push({ what: 'all built JavaScript (host and remotes, brotli files)', format: kb, values: builtBytes });
  return figures;
}

/**
 * The report: per patch, each figure with it (build 0, this checkout) and without it (build i+1),
 * the ratio without ÷ with, and the verdict. Answers { lines, verdicts: [{ key, keep, gains }] }.
 */
export function patchesReport(patches, figures) {
  const lines = [];
  const verdicts = [];
  for (const [i, patch] of patches.entries()) {
    const b = i + 1;
    lines.push('', `${patch.key} (${patch.file})`, '', '| figure | with the patch | without | without ÷ with |', '|---|---:|---:|---:|');
    const gains = [];
    for (const f of figures) {
      const [withIt, without] = [f.values[0], f.values[b]];
      // A figure of 0 with the patch has no ratio (said as ∞ when it is more without): not counted.
      const ratio = withIt > 0 ? without / withIt : without > 0 ? Infinity : 1;
      if (ratio >= KEEP_RATIO && Number.isFinite(ratio)) gains.push(`${f.what} ${ratio.toFixed(2)}`);
      lines.push(`| ${f.what} | ${f.format(withIt)} | ${f.format(without)} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '∞'} |`);
    }
    const keep = gains.length > 0;
    lines.push('', keep ? `${patch.key}: keep (≥10 %): ${gains.join('; ')}` : `${patch.key}: no measured gain (no figure 10 % worse without it)`);
    verdicts.push({ key: patch.key, keep, gains });
  }
  return { lines, verdicts };
}
