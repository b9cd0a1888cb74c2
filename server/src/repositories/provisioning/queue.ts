/**
 * SQL for the provisioning queue (migration 0016): the targets, what each has still to apply
 * (recorded by triggers in the decisions' own transactions), and the history of failures,
 * retries and reconciles.
 */
import type { Queryable } from '../../db/database.js';

/** An object to bring in step, as the worker claimed it. */
export interface DueObject {
  object: string;
  version: number;
  attempts: number;
}

/**
 * Makes the configured targets the registered ones: new ones are added (nothing is recorded for
 * them: the reconcile at start fills them), and one no longer configured goes with its backlog.
 */
export async function registerTargets(db: Queryable, targets: readonly { name: string; kind: string }[]): Promise<void> {
  await db.query('delete from provisioning_targets where name <> all($1::text[])', [targets.map((t) => t.name)]);
  for (const target of targets) {
    await db.query('insert into provisioning_targets (name, kind) values ($1, $2) on conflict (name) do update set kind = excluded.kind', [
      target.name,
      target.kind,
    ]);
  }
}

/** How many targets are registered (`exceptKind`: not counting that kind's). */
export async function countTargets(db: Queryable, options: { exceptKind?: string } = {}): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from provisioning_targets where kind is distinct from $1', [options.exceptKind ?? null]);
  return rows[0]?.n ?? 0;
}

/** Ends every claim (the changes are due again at once); how many there were. */
export async function releaseClaims(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ released: string | number }>(
    'with released as (update provisioning_pending set claimed_until = null where claimed_until is not null returning 1) select count(*) as released from released',
  );
  return Number(rows[0]?.released ?? 0);
}

/** Records objects for every target, as the triggers do (for changes no table row shows: a renewal lapsing). */
export async function recordObjects(db: Queryable, objects: readonly string[]): Promise<void> {
  if (objects.length > 0) await db.query('select provisioning_record($1::text[])', [objects]);
}

/**
 * Claims up to `limit` due objects of a target, oldest first, for `leaseMs` (FOR UPDATE SKIP
 * LOCKED: several servers never claim the same row; a dead worker's claim runs out).
 */
export async function claimDue(db: Queryable, target: string, leaseMs: number, limit: number): Promise<DueObject[]> {
  // A read first: an idle worker asks twice a second, and on the embedded database every write
  // (even one that changes no row) makes the session cache read the database again.
  const due = await db.query<{ due: boolean }>(
    `select exists (select 1 from provisioning_pending
                     where target = $1 and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())) as due`,
    [target],
  );
  if (!due.rows[0]?.due) return [];
  const { rows } = await db.query<{ object: string; version: string | number; attempts: number; since: Date }>(
    `update provisioning_pending p set claimed_until = now() + make_interval(secs => $2::float8 / 1000)
      where (p.target, p.object) in (
              select target, object from provisioning_pending
               where target = $1 and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
               order by since, object
               limit $3
               for update skip locked)
      returning p.object, p.version, p.attempts, p.since`,
    [target, leaseMs, limit],
  );
  return rows
    .sort((a, b) => new Date(a.since).getTime() - new Date(b.since).getTime() || a.object.localeCompare(b.object))
    .map((r) => ({ object: r.object, version: Number(r.version), attempts: r.attempts }));
}

/** The object is in step as of `version`: its row goes, unless it was recorded again meanwhile. */
export async function markApplied(db: Queryable, target: string, due: DueObject): Promise<void> {
  const { rows } = await db.query<{ object: string }>(
    'delete from provisioning_pending where target = $1 and object = $2 and version = $3 returning object',
    [target, due.object, due.version],
  );
  if (rows.length === 0) {
    // Recorded again while it was applied: apply it once more, now.
    await db.query('update provisioning_pending set claimed_until = null, attempts = 0, last_error = null where target = $1 and object = $2', [
      target,
      due.object,
    ]);
  }
}

/** A failed attempt: counted, its reason kept, tried again after `delayMs`. */
export async function markFailed(db: Queryable, target: string, due: DueObject, error: string, delayMs: number): Promise<void> {
  await db.query(
    `update provisioning_pending
        set attempts = attempts + 1, last_error = $3, claimed_until = null,
            next_attempt_at = now() + make_interval(secs => $4::float8 / 1000)
      where target = $1 and object = $2`,
    [target, due.object, error, delayMs],
  );
}

/** Makes every failed object of a target (or all targets) due now; returns how many. */
export async function retryNow(db: Queryable, target: string | undefined): Promise<number> {
  const { rows } = await db.query<{ target: string }>(
    `update provisioning_pending set next_attempt_at = now()
      where attempts > 0 and ($1::text is null or target = $1)
      returning target`,
    [target ?? null],
  );
  return rows.length;
}

export async function addEvent(db: Queryable, event: { target: string; kind: 'failed' | 'retry' | 'reconciled'; object?: string; detail: string }): Promise<void> {
  await db.query('insert into provisioning_events (target, kind, object, detail) values ($1, $2, $3, $4)', [
    event.target,
    event.kind,
    event.object ?? null,
    event.detail,
  ]);
}

/** Takes the target's reconcile lease when no other server holds it; true when taken. */
export async function claimReconcile(db: Queryable, target: string, leaseMs: number): Promise<boolean> {
  const { rows } = await db.query(
    `update provisioning_targets set reconcile_claimed_until = now() + make_interval(secs => $2::float8 / 1000)
      where name = $1 and (reconcile_claimed_until is null or reconcile_claimed_until < now())
      returning name`,
    [target, leaseMs],
  );
  return rows.length > 0;
}

/** Whether the target's last reconcile is older than `intervalMs` (or there was none). */
export async function reconcileDue(db: Queryable, target: string, intervalMs: number): Promise<boolean> {
  const { rows } = await db.query<{ due: boolean }>(
    `select (last_reconcile_at is null or last_reconcile_at < now() - make_interval(secs => $2::float8 / 1000)) as due
       from provisioning_targets where name = $1`,
    [target, intervalMs],
  );
  return rows[0]?.due ?? false;
}

export async function finishReconcile(db: Queryable, target: string, drift: number | undefined): Promise<void> {
  await db.query(
    `update provisioning_targets
        set reconcile_claimed_until = null,
            last_reconcile_at = case when $2::int is null then last_reconcile_at else now() end,
            last_reconcile_drift = coalesce($2::int, last_reconcile_drift)
      where name = $1`,
    [target, drift ?? null],
  );
}

export interface TargetStatus {
  name: string;
  kind: string;
  backlog: number;
  failing: number;
  oldestSince: Date | null;
  lastReconcileAt: Date | null;
  lastReconcileDrift: number | null;
}

export async function targetStatuses(db: Queryable): Promise<TargetStatus[]> {
  const { rows } = await db.query<{
    name: string;
    kind: string;
    backlog: number;
    failing: number;
    oldest_since: Date | string | null;
    last_reconcile_at: Date | string | null;
    last_reconcile_drift: number | null;
  }>(
    `select t.name, t.kind, t.last_reconcile_at, t.last_reconcile_drift,
            count(p.object)::int as backlog,
            (count(p.object) filter (where p.attempts > 0))::int as failing,
            min(p.since) as oldest_since
       from provisioning_targets t left join provisioning_pending p on p.target = t.name
      group by t.name order by t.name`,
  );
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return rows.map((r) => ({
    name: r.name,
    kind: r.kind,
    backlog: r.backlog,
    failing: r.failing,
    oldestSince: date(r.oldest_since),
    lastReconcileAt: date(r.last_reconcile_at),
    lastReconcileDrift: r.last_reconcile_drift,
  }));
}

export interface PendingRow {
  target: string;
  object: string;
  since: Date;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
}

/** The objects waiting, failed ones first; of the given objects only, when named; not those of targets of `exceptKind`. */
export async function pendingRows(
  db: Queryable,
  options: { objects?: readonly string[]; failedOnly?: boolean; exceptKind?: string; limit: number },
): Promise<PendingRow[]> {
  const { rows } = await db.query<{ target: string; object: string; since: Date | string; attempts: number; next_attempt_at: Date | string; last_error: string | null }>(
    `select target, object, since, attempts, next_attempt_at, last_error from provisioning_pending
      where ($1::text[] is null or object = any($1)) and (not $2 or attempts > 0)
        and ($4::text is null or target not in (select name from provisioning_targets where kind = $4))
      order by attempts > 0 desc, since, target, object
      limit $3`,
    [options.objects ?? null, options.failedOnly ?? false, options.limit, options.exceptKind ?? null],
  );
  return rows.map((r) => ({
    target: r.target,
    object: r.object,
    since: new Date(r.since),
    attempts: r.attempts,
    nextAttemptAt: new Date(r.next_attempt_at),
    lastError: r.last_error,
  }));
}

export interface EventRow {
  id: number;
  target: string;
  at: Date;
  kind: 'failed' | 'retry' | 'reconciled';
  object: string | null;
  detail: string;
}

/** The history, newest first; `sinceDays` back. */
export async function eventRows(db: Queryable, options: { sinceDays: number; limit: number; kinds?: readonly string[] }): Promise<EventRow[]> {
  const { rows } = await db.query<{ id: string | number; target: string; at: Date | string; kind: EventRow['kind']; object: string | null; detail: string }>(
    `select id, target, at, kind, object, detail from provisioning_events
      where at >= now() - make_interval(days => $1::int) and ($3::text[] is null or kind = any($3))
      order by at desc, id desc limit $2`,
    [options.sinceDays, options.limit, options.kinds ?? null],
  );
  return rows.map((r) => ({ id: Number(r.id), target: r.target, at: new Date(r.at), kind: r.kind, object: r.object, detail: r.detail }));
}

/** Deletes history older than `days`; returns how many rows went. */
export async function purgeEvents(db: Queryable, days: number): Promise<number> {
  const { rows } = await db.query('delete from provisioning_events where at < now() - make_interval(days => $1::int) returning id', [days]);
  return rows.length;
}
