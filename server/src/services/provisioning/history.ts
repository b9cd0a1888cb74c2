/** The provisioning history as CSV, oldest first: when (ISO 8601), target, what, object, detail. */
import type { EventRow } from '../../repositories/provisioning/queue.js';
import { toCsv } from '../account-admin.js';

const WHAT: Record<EventRow['kind'], string> = { failed: 'failed', retry: 'retry asked', reconciled: 'reconciled' };

/** `names`: the objects as people read them ('account alice'), see status.ts objectNames. */
export function provisioningHistoryCsv(events: readonly EventRow[], names: ReadonlyMap<string, string>): string {
  const oldestFirst = [...events].sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
  const object = (e: EventRow) => (e.object === null ? '' : (names.get(e.object) ?? e.object));
  return toCsv([['when', 'target', 'what', 'object', 'detail'], ...oldestFirst.map((e) => [e.at.toISOString(), e.target, WHAT[e.kind], object(e), e.detail])]);
}
