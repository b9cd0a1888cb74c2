/** What the provisioning tests share: a silent engine log, and waiting until every change is applied. */
import assert from 'node:assert/strict';
import type { Database } from '../src/db/database.js';
import { pendingRows } from '../src/repositories/provisioning/queue.js';

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Waits until the engine has applied every recorded change (or fails after `timeoutMs`, saying what waits). */
export async function settled(db: Database, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await pendingRows(db, { limit: 5 });
    if (rows.length === 0) return;
    if (Date.now() > deadline) assert.fail(`still pending: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
