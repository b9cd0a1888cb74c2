/** Helpers for the end-to-end tests: the environment manifest the portal under test serves, and remote builds. */
import { expect, type Page } from '@playwright/test';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const manifestFile = () => {
  const file = process.env.E2E_MANIFEST;
  if (!file) throw new Error('E2E_MANIFEST is not set: run the tests through playwright.config.ts.');
  return file;
};
const pristineManifest = readFileSync(join(repoRoot, 'server', 'environments', 'local.json'), 'utf8');

export const UNAVAILABLE = 'This part of the portal is unavailable right now.';

interface ManifestRemote {
  name: string;
  version?: string;
  entry?: string;
  contract: string;
  routes: string[];
}

/** Changes one remote's entry in the manifest the portal serves (read afresh on every request). */
export function pinRemote(name: string, change: Partial<ManifestRemote>): void {
  const manifest = JSON.parse(readFileSync(manifestFile(), 'utf8')) as { remotes: ManifestRemote[] };
  const remote = manifest.remotes.find((r) => r.name === name);
  if (!remote) throw new Error(`No remote ${name} in the manifest`);
  if ('entry' in change) delete remote.version;
  if ('version' in change) delete remote.entry;
  Object.assign(remote, change);
  writeFileSync(manifestFile(), JSON.stringify(manifest, null, 2));
}

export function restoreManifest(): void {
  writeFileSync(manifestFile(), pristineManifest);
}

function remoteDist(app: string, version: string): string {
  return join(repoRoot, app, 'dist', version);
}

export function builtVersion(app: string): string {
  return JSON.parse(readFileSync(join(repoRoot, app, 'package.json'), 'utf8')).version as string;
}

/**
 * Deploys a copy of a remote's build under another version (as a team would deploy a new
 * release next to the old one), letting `edit` change its files. Returns a function removing it.
 */
export function deployCopy(app: string, version: string, edit: (dir: string) => void): () => void {
  const target = remoteDist(app, version);
  rmSync(target, { recursive: true, force: true });
  cpSync(remoteDist(app, builtVersion(app)), target, { recursive: true });
  edit(target);
  return () => rmSync(target, { recursive: true, force: true });
}

/**
 * Writes a file of a copied build. Its precompressed copies (.br, .gz), which the server would
 * send instead, are removed so that the browser gets what was written.
 */
export function rewriteBuildFile(dir: string, file: string, content: string): void {
  writeFileSync(join(dir, file), content);
  rmSync(join(dir, `${file}.br`), { force: true });
  rmSync(join(dir, `${file}.gz`), { force: true });
}

/** Replaces a text in whichever of a build's JavaScript files holds it. */
export function replaceInBuild(dir: string, from: string, to: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes(from));
  if (files.length === 0) throw new Error(`'${from}' is in no file of ${dir}`);
  for (const f of files) rewriteBuildFile(dir, f, readFileSync(join(dir, f), 'utf8').split(from).join(to));
}

export function exists(path: string): boolean {
  return existsSync(path);
}

/** The chrome is there: the top bar with the brand, and (on signed-in pages) the sidebar. */
export async function expectChrome(page: Page, { sidebar = true } = {}): Promise<void> {
  await expect(page.getByRole('banner')).toContainText('DevPlatform');
  if (sidebar) await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Navigates inside the single-page app without a reload (as a link would). */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}
