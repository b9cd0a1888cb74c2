/**
 * The `test` every spec uses: each Playwright worker runs its own portal (portal-server.ts) and
 * its pages' `baseURL` is that portal's address, so the workers' tests never see each other's
 * pins, accounts or requests. The portal starts with the worker and stops with it; a worker that
 * starts again after a failure reopens the same data folder, as the single portal of earlier
 * runs kept its data between tests.
 *
 * The helpers that need the portal of the running worker (its data folder for the command line
 * and the outbox, its list listener) read it through `workerPortal()`.
 */
import { test as base } from '@playwright/test';
import { join } from 'node:path';
import { startPortalServer, type PortalServer } from './portal-server';

let current: PortalServer | undefined;

/** The portal of this worker (set up before any of its tests run). */
export function workerPortal(): PortalServer {
  if (!current) throw new Error('No portal runs in this worker: import `test` from ./fixtures (or ./session), not from @playwright/test.');
  return current;
}

/** The folder of this run's files (playwright.config.ts makes it). */
export function e2eDir(): string {
  const dir = process.env.E2E_DIR;
  if (!dir) throw new Error('E2E_DIR is not set: run the tests through playwright.config.ts.');
  return dir;
}

export const test = base.extend<object, { portal: PortalServer }>({
  portal: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      // parallelIndex is the worker's slot (0 … workers-1): a worker started again after a failure
      // takes its predecessor's slot, and its data folder.
      const server = await startPortalServer({ dataDir: join(e2eDir(), `portal-${workerInfo.parallelIndex}`, 'data') });
      current = server;
      try {
        await use(server);
      } finally {
        current = undefined;
        await server.stop();
      }
    },
    { scope: 'worker', auto: true, timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => use(portal.url),
});

export { expect } from '@playwright/test';
