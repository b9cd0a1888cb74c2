/**
 * Helpers for the end-to-end tests: publishing and pinning remotes in the portal under test (its
 * command line, as a team and a platform administrator would), and copies of remote builds.
 */
import { expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eDir, workerPortal } from './fixtures';
import { repoRoot } from './paths';

export { repoRoot };

export const UNAVAILABLE = 'This part of the portal is unavailable right now.';

/** The environment the portal under test serves (server/environments/local.json). */
export const ENVIRONMENT = 'local';

/** The data folder of this worker's portal (its remote store is remotes/ in it). */
export function dataDir(): string {
  return workerPortal().dataDir;
}

export interface PortalCommand {
  status: number;
  stdout: string;
  stderr: string;
}

/** `npm run portal -- ARGS` against the portal under test (through its command socket). */
export function portalCommand(...args: string[]): PortalCommand {
  const result = spawnSync(process.execPath, [join(repoRoot, 'server', 'dist', 'cli.mjs'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, PORTAL_DATA_DIR: dataDir(), PORTAL_CONFIG_FILE: join(repoRoot, 'server', 'config', 'demo.json'), LOG_LEVEL: 'warn' },
  });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command that must succeed; returns what it printed. */
export function portal(...args: string[]): string {
  const result = portalCommand(...args);
  if (result.status !== 0) throw new Error(`portal ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** Pins a published version in the environment under test (nothing to do when it runs already). */
export function pin(name: string, version: string): void {
  const result = portalCommand('remotes', 'pin', ENVIRONMENT, `${name}@${version}`, '--reason', 'end-to-end test', '--by', 'e2e');
  if (result.status !== 0 && !result.stderr.includes('already; nothing changed')) {
    throw new Error(`pin ${name}@${version} failed:\n${result.stderr}`);
  }
}

/** Puts a remote back on the version the workspace built (after a test pinned another). */
export function restorePin(name: string, app: string): void {
  pin(name, builtVersion(app));
}

function remoteDist(app: string, version: string): string {
  return join(repoRoot, app, 'dist', version);
}

export function builtVersion(app: string): string {
  return JSON.parse(readFileSync(join(repoRoot, app, 'package.json'), 'utf8')).version as string;
}

/** A file of a published version in the portal's remote store. */
export function storeFile(name: string, version: string, file: string): string {
  return join(dataDir(), 'remotes', name, version, file);
}

/**
 * Publishes a copy of a remote's build under another version (as a team would publish a new
 * release), letting `edit` change its files first; `record` changes what the build declares
 * (its contract range). The copy lives in the test folder; the store keeps its own.
 */
export function publishCopy(app: string, version: string, edit: (dir: string) => void, record: { contract?: string; navigation?: readonly object[] } = {}): string {
  const dir = join(mkdtempSync(join(e2eDir(), `${app}-`)), version);
  cpSync(remoteDist(app, builtVersion(app)), dir, { recursive: true });
  const recordFile = join(dir, 'portal-remote.json');
  const declared = JSON.parse(readFileSync(recordFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(recordFile, JSON.stringify({ ...declared, version, ...record }, null, 2));
  edit(dir);
  return portal('remotes', 'publish', dir, '--by', 'e2e team');
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

/**
 * The page's reader asks to save data (Save-Data): the host then fetches no remote ahead of time
 * (SideNav), only on hover, focus or a visit.
 */
export async function saveData(page: Page): Promise<void> {
  await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }));
}
