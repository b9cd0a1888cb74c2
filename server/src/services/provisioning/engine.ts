/**
 * The provisioning engine (docs/provisioning.md, "How changes flow"): one worker per target claims
 * the objects the decisions recorded (repositories/provisioning/queue.ts), applies each through
 * the target and deletes its row; a failure is kept with its reason and tried again after a
 * back-off (10 s doubling to 5 min). A target that does not answer pauses its worker for the
 * back-off; the decisions never wait for it. Claims are leases taken with FOR UPDATE SKIP LOCKED,
 * so several servers on one PostgreSQL apply each change once and a killed server's claims run
 * out. A reconcile compares a whole target with the truth and repairs it: at start, then every
 * PORTAL_PROVISIONING_RECONCILE_MINUTES (one server at a time: a lease), and on demand. Accounts
 * whose renewal lapsed are recorded each minute (no row changes when a date passes).
 */
import type { Database } from '../../db/database.js';
import {
  addEvent,
  claimDue,
  claimReconcile,
  finishReconcile,
  markApplied,
  markFailed,
  reconcileDue,
  recordObjects,
  registerTargets,
  releaseClaims,
  retryNow,
  type DueObject,
} from '../../repositories/provisioning/queue.js';
import { recentlyLapsed } from '../../repositories/provisioning/truth.js';
import { describeReport, plural, ProvisioningError, type ProvisioningTarget, type ReconcileReport } from './target.js';

export const FIRST_RETRY_DELAY_MS = 10_000;
export const MAX_RETRY_DELAY_MS = 300_000;
const CLAIM_LEASE_MS = 120_000;
const RECONCILE_LEASE_MS = 30 * 60_000;
const BATCH = 50;
const MAX_ERROR_LENGTH = 500;

/** The wait after the n-th failed attempt (n ≥ 1): doubling from 10 s, at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)), MAX_RETRY_DELAY_MS);
}

export interface EngineLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface EngineOptions {
  db: Database;
  targets: readonly ProvisioningTarget[];
  reconcileIntervalMs: number;
  /** How often an idle worker looks for work (ms). */
  pollMs?: number;
  /** How often lapsed renewals are recorded and a due reconcile is looked for (ms). */
  scheduleMs?: number;
  log: EngineLog;
}

export interface TargetReconcile {
  target: string;
  report: ReconcileReport;
  summary: string;
}

export interface ProvisioningEngine {
  readonly targets: readonly ProvisioningTarget[];
  /** Registers the targets (before anything is recorded for them). */
  register(): Promise<void>;
  /** Starts the workers and the schedule; the first reconcile runs at once. */
  start(): void;
  stop(): Promise<void>;
  /** Reconciles one target or all, now (refused while another server reconciles it). */
  reconcile(options: { target?: string; dryRun: boolean }): Promise<TargetReconcile[]>;
  /** Makes failed objects due now; returns how many. */
  retry(target?: string, by?: string): Promise<number>;
}

export class ReconcileBusyError extends Error {}
export class UnknownTargetError extends Error {}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

export function createProvisioningEngine(options: EngineOptions): ProvisioningEngine {
  const { db, targets, log } = options;
  const pollMs = options.pollMs ?? 500;
  const scheduleMs = options.scheduleMs ?? 60_000;
  let stopped = true;
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  /** One target's applies and reconciles never overlap in this process. */
  const busy = new Map<string, Promise<unknown>>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });

  function exclusive<T>(target: string, fn: () => Promise<T>): Promise<T> {
    const previous = busy.get(target) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    busy.set(
      target,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Applies one batch; the wait before the next claim (0: go on at once). */
  async function applyBatch(target: ProvisioningTarget, due: DueObject[]): Promise<number> {
    for (let i = 0; i < due.length; i++) {
      const item = due[i] as DueObject;
      try {
        await target.apply(item.object, db);
        await markApplied(db, target.name, item);
      } catch (error) {
        const reason = errorText(error);
        const unreachable = error instanceof ProvisioningError && error.unreachable;
        const failed = unreachable ? due.slice(i) : [item];
        for (const one of failed) {
          await db.transaction(async (tx) => {
            await markFailed(tx, target.name, one, reason, retryDelayMs(one.attempts + 1));
            // The history keeps an object's first failure, not each retry of it.
            if (one.attempts === 0) await addEvent(tx, { target: target.name, kind: 'failed', object: one.object, detail: reason });
          });
        }
        log.warn({ target: target.name, object: item.object, attempts: item.attempts + 1 }, `provisioning failed: ${reason}`);
        if (unreachable) return retryDelayMs(item.attempts + 1);
      }
    }
    return 0;
  }

  async function work(target: ProvisioningTarget): Promise<void> {
    while (!stopped) {
      let wait = pollMs;
      try {
        wait = await exclusive(target.name, async () => {
          const due = await claimDue(db, target.name, CLAIM_LEASE_MS, BATCH);
          if (due.length === 0) return pollMs;
          return applyBatch(target, due);
        });
      } catch (error) {
        log.error({ err: error, target: target.name }, 'the provisioning worker failed; it tries again');
        wait = FIRST_RETRY_DELAY_MS;
      }
      if (wait > 0 && !stopped) await sleep(wait);
    }
  }

  async function reconcileOne(target: ProvisioningTarget, dryRun: boolean): Promise<TargetReconcile> {
    if (!(await claimReconcile(db, target.name, RECONCILE_LEASE_MS))) {
      throw new ReconcileBusyError(`${target.name} is being reconciled now; try again when that is done.`);
    }
    let report: ReconcileReport | undefined;
    try {
      report = await exclusive(target.name, () => target.reconcile(db, { dryRun }));
      const summary = describeReport(report, dryRun);
      if (!dryRun) {
        const lines = report.drift.length > 0 ? `\n${report.drift.join('\n')}${report.differences > report.drift.length ? '\n…' : ''}` : '';
        await addEvent(db, { target: target.name, kind: 'reconciled', detail: `${summary}${lines}` });
      }
      return { target: target.name, report, summary };
    } catch (error) {
      if (!dryRun) await addEvent(db, { target: target.name, kind: 'failed', object: 'reconcile', detail: errorText(error) });
      throw error;
    } finally {
      await finishReconcile(db, target.name, dryRun || report === undefined ? undefined : report.differences);
    }
  }

  async function scheduled(): Promise<void> {
    let first = true;
    while (!stopped) {
      try {
        const lapsed = await recentlyLapsed(db, 2 * scheduleMs);
        await recordObjects(
          db,
          lapsed.map((id) => `account:${id}`),
        );
        for (const target of targets) {
          if (!first && !(await reconcileDue(db, target.name, options.reconcileIntervalMs))) continue;
          try {
            const done = await reconcileOne(target, false);
            log.info({ target: target.name }, `provisioning reconciled: ${done.summary}`);
          } catch (error) {
            if (!(error instanceof ReconcileBusyError)) log.warn({ target: target.name }, `provisioning reconcile failed: ${errorText(error)}`);
          }
        }
      } catch (error) {
        log.error({ err: error }, 'the provisioning schedule failed; it runs again at the next interval');
      }
      first = false;
      if (!stopped) await sleep(scheduleMs);
    }
  }

  return {
    targets,
    async register() {
      await registerTargets(db, targets);
      // The embedded database is opened by one process at a time (its folder's lock): a claim
      // found now is a dead process's (a server killed while applying), and its changes need not
      // wait for the claim to run out. On PostgreSQL another server may be applying them.
      if (db.kind === 'pglite') {
        const released = await releaseClaims(db);
        if (released > 0) log.info({ released }, `provisioning: ${plural(released, 'change')} claimed by a process that ended ${released === 1 ? 'is' : 'are'} due again`);
      }
    },
    start() {
      if (!stopped || targets.length === 0) return;
      stopped = false;
      for (const target of targets) loops.push(work(target));
      loops.push(scheduled());
    },
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops.splice(0));
      await Promise.all([...busy.values()]);
      for (const target of targets) await target.close();
    },
    async reconcile({ target: name, dryRun }) {
      const chosen = name === undefined ? targets : targets.filter((t) => t.name === name);
      if (name !== undefined && chosen.length === 0) throw new UnknownTargetError(`There is no provisioning target ${name}.`);
      const results: TargetReconcile[] = [];
      for (const target of chosen) results.push(await reconcileOne(target, dryRun));
      return results;
    },
    async retry(name, by) {
      if (name !== undefined && !targets.some((t) => t.name === name)) throw new UnknownTargetError(`There is no provisioning target ${name}.`);
      const count = await retryNow(db, name);
      for (const target of targets.filter((t) => name === undefined || t.name === name)) {
        await addEvent(db, { target: target.name, kind: 'retry', detail: `Retry asked${by ? ` by ${by}` : ''}: failed changes are tried again now.` });
      }
      for (const wake of [...wakers]) wake();
      return count;
    },
  };
}
