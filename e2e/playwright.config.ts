/**
 * End-to-end tests in Debian's Chromium against the production build, started the way
 * `npm start` starts it (server/dist/main.mjs on the embedded database), never a dev server.
 * `npm test` builds first; running `playwright test` alone expects a build to exist.
 */
import { defineConfig } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = dirname(here);

// The config is read by the runner and again by each worker: the folder is made once and
// handed on through the environment.
process.env.E2E_DIR ??= mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const e2eDir = process.env.E2E_DIR;
mkdirSync(e2eDir, { recursive: true });

// The portal under test runs on its embedded database with its local remote store (the
// workspace builds published at start, server/environments/local.json the initial pins), as
// `npm start` runs it.
delete process.env.DATABASE_URL;

const port = Number(process.env.E2E_PORT ?? 18391);
const baseURL = `http://localhost:${port}`;
// The mailing lists' SMTP listener of the portal under test (tests post to it).
process.env.E2E_LIST_SMTP_PORT ??= String(port + 100);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  // One portal, one browser at a time: the tests change the pins it serves.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  // In CI a test that fails is run once more; one that then passes is counted and named as flaky
  // in npm test's summary (never silently), so a rare timing failure does not hide the rest.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: join(here, 'test-results', 'results.json') }]],
  outputDir: join(here, 'test-results', 'artifacts'),
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // This machine has no outside network: keep Chromium from trying.
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  webServer: {
    command: `node --enable-source-maps ${JSON.stringify(join(repoRoot, 'server', 'dist', 'main.mjs'))}`,
    cwd: repoRoot,
    url: `${baseURL}/accounts/rest/health`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PORTAL_LIST_SMTP_PORT: process.env.E2E_LIST_SMTP_PORT,
      PORTAL_DATA_DIR: join(e2eDir, 'data'),
      PORTAL_CONFIG_FILE: join(repoRoot, 'server', 'config', 'demo.json'),
      LOG_LEVEL: 'warn',
    },
  },
});
