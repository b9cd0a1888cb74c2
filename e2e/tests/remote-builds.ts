/**
 * Builds a changed version of one remote the way its team would, on its own: a copy of the
 * remote's sources with some files replaced, built by the remote's own webpack configuration,
 * and packed as the tarball the team hands to `portal remotes publish`. Nothing else is rebuilt.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { copyApp } from '../../scripts/workspace-copy.mjs';
import { repoRoot } from './portal';

/**
 * Builds `app` as `version` with `files` (paths relative to the remote's folder) replaced; returns the tarball of its dist/<version>.
 * With `workspace` (a copy of the workspace's packages, scripts/workspace-copy.mjs), the build
 * is made there, with the copies of @portal/api and @portal/shared (files added to them included).
 */
export function buildRemoteVersion(app: string, version: string, files: Record<string, string>, { workspace }: { workspace?: string } = {}): string {
  const appDir = join(repoRoot, app);
  let work: string;
  if (workspace) {
    work = copyApp(workspace, app, `${app}-${version}`);
  } else {
    work = mkdtempSync(join(process.env.E2E_DIR ?? tmpdir(), `${app}-`));
    cpSync(join(appDir, 'src'), join(work, 'src'), { recursive: true });
    cpSync(join(appDir, 'webpack.config.cjs'), join(work, 'webpack.config.cjs'));
    // The team's checkout has the same dependencies: reuse the installed ones.
    symlinkSync(join(appDir, 'node_modules'), join(work, 'node_modules'), 'dir');
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ extends: join(repoRoot, 'tsconfig.json'), include: ['src'] }));
  }
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(work, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  const webpack = join(work, 'node_modules', '.bin', 'webpack');
  const built = spawnSync(webpack, ['--mode', 'production', '--stats', 'errors-only'], { cwd: work, encoding: 'utf8', timeout: 240_000 });
  if (built.status !== 0) throw new Error(`Building ${app} ${version} failed:\n${built.stdout}\n${built.stderr}`);
  // The release: a tarball of the version folder, as the team's CI would keep it.
  const tarball = join(process.env.E2E_DIR ?? tmpdir(), `${app}-${version}.tgz`);
  const packed = spawnSync('tar', ['-czf', tarball, '-C', join(work, 'dist', version), '.'], { encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`Packing ${app} ${version} failed: ${packed.stderr}`);
  rmSync(work, { recursive: true, force: true });
  return tarball;
}
