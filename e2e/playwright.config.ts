/**
 * End-to-end tests in Debian's Chromium against the production build, started the way
 * `npm start` starts it (server/dist/main.mjs on the embedded database), never a dev server.
 * `npm test` builds first; running `playwright test` alone expects a build to exist.
 *
 * Each worker runs a portal of its own (tests/fixtures.ts): the tests of one worker change its
 * pins, accounts and requests without reaching another's. E2E_WORKERS sets how many (npm test
 * picks it for the machine).
 */
import { defineConfig } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// The config is read by the runner and again by each worker: the folder is made once and
// handed on through the environment.
process.env.E2E_DIR ??= mkdtempSync(join(tmpdir(), 'portal-e2e-'));
mkdirSync(process.env.E2E_DIR, { recursive: true });

// The portals under test run on their embedded database with their local remote store (the
// workspace builds published at start, server/environments/local.json the initial pins), as
// `npm start` runs it.
delete process.env.DATABASE_URL;

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A spec file's tests run in order in one worker (they share its portal and build on each
  // other's data); files are spread over the workers.
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
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // This machine has no outside network: keep Chromium from trying.
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
});
