/**
 * For the tests that read every app's sources (antd-set, router-set, links-used): the source
 * files (not tests) of the host, shared and every remote.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_DIR = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every app's source files, as absolute paths. */
export function appSourceFiles(): string[] {
  const apps = ['host', 'shared', ...readdirSync(REPO_DIR).filter((d) => d.startsWith('remote-'))];
  return apps.flatMap((app) => sourceFiles(join(REPO_DIR, app, 'src')));
}
