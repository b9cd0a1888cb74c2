/**
 * What a provisioning target is (docs/provisioning.md): a module that brings one outside system in
 * step with the portal's truth, one object at a time ('account:<id>': the person and every group
 * it is in; 'group:<name>': one group's members), and all at once (reconcile). The engine
 * (engine.ts) claims objects, calls `apply`, retries with back-off; neither it nor the decisions
 * know which target they feed. Applying an object twice changes nothing the second time.
 */
import type { Queryable } from '../../db/database.js';

export interface ReconcileReport {
  /** Entries created, changed and removed (removed: only unknown entries, with pruning on). */
  created: number;
  updated: number;
  removed: number;
  /** How many entries differed from the truth. */
  differences: number;
  /** What differed, in words (the first few hundred). */
  drift: string[];
  /** Entries the portal does not know, left in place (pruning off). */
  unknown: string[];
}

export interface ProvisioningTarget {
  /** Unique among the targets: 'ldap', 'scim:<name>'. */
  readonly name: string;
  readonly kind: string;
  apply(object: string, db: Queryable): Promise<void>;
  /** Compares everything with the truth and repairs it (only reports it with dryRun). */
  reconcile(db: Queryable, options: { dryRun: boolean }): Promise<ReconcileReport>;
  close(): Promise<void>;
}

/**
 * A failure a person can read, without secrets. `unreachable`: the target did not answer, so
 * every object would fail the same way; the engine waits before trying the next one.
 */
export class ProvisioningError extends Error {
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

export const emptyReport = (): ReconcileReport => ({ created: 0, updated: 0, removed: 0, differences: 0, drift: [], unknown: [] });

/** '1 member', '2 members'. */
/** An object of the queue ('account:12', 'group:ALPHA-user', 'list:3') as its kind and its key (which may hold ':'). */
export function objectParts(object: string): { kind: string; key: string } {
  const at = object.indexOf(':');
  return at < 0 ? { kind: object, key: '' } : { kind: object.slice(0, at), key: object.slice(at + 1) };
}

export const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What differs between a group at the target and the portal's, in the words every target's
 * report uses (`label`: 'cn=X' for the directory, 'Group X' for SCIM); null when nothing does.
 */
export function groupDrift(label: string, group: { exists: boolean; wanted: number; have: number; missing: number; extra: number }): string | null {
  if ((!group.exists && group.wanted === 0) || (group.missing === 0 && group.extra === 0)) return null;
  if (!group.exists) return `${label}: missing (${plural(group.wanted, 'member')})`;
  if (group.wanted === 0) return `${label}: has ${plural(group.have, 'member')}, the portal none`;
  return `${label}: ${plural(group.missing, 'member')} missing, ${group.extra} too many`;
}

/** `items` in slices of at most `size` (a target's requests have a size limit). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `fn` on every item with at most `limit` at once (a reconcile's requests in flight). */
export async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A report in one line: what the reconcile found and repaired. */
export function describeReport(report: ReconcileReport, dryRun: boolean): string {
  const verb = dryRun ? 'would be' : '';
  const parts = [
    `${plural(report.differences, 'difference')} from the portal`,
    `${report.created} ${verb ? `${verb} ` : ''}created`,
    `${report.updated} ${verb ? `${verb} ` : ''}changed`,
    `${report.removed} ${verb ? `${verb} ` : ''}removed`,
  ];
  if (report.unknown.length > 0) parts.push(`${report.unknown.length} unknown entr${report.unknown.length === 1 ? 'y' : 'ies'} left in place`);
  return parts.join(', ');
}
