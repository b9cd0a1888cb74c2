/** SQL for published remote versions, each environment's pins, their history and previews (migration 0012). */
import type { NavigationEntry } from '@portal/shared/contract';
import type { Queryable } from '../db/database.js';

export interface RemoteVersionRecord {
  name: string;
  version: string;
  contract: string;
  routes: string[];
  /** Its sidebar entries and request queues (migration 0020). */
  navigation: NavigationEntry[];
  files: Record<string, string>;
  publishedAt: Date;
  publishedBy: string;
}

export interface PinRecord {
  environment: string;
  name: string;
  version: string;
  pinnedAt: Date;
  pinnedBy: string;
  reason: string;
}

export type PinAction = 'initial' | 'pin' | 'rollback';

export interface PinHistoryRecord {
  id: number;
  environment: string;
  name: string;
  action: PinAction;
  fromVersion: string | null;
  toVersion: string;
  changedAt: Date;
  changedBy: string;
  reason: string;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

interface VersionRow {
  name: string;
  version: string;
  contract: string;
  routes: unknown;
  navigation: unknown;
  files: unknown;
  published_at: Date | string;
  published_by: string;
}

function versionRecord(row: VersionRow): RemoteVersionRecord {
  return {
    name: row.name,
    version: row.version,
    contract: row.contract,
    routes: json<string[]>(row.routes),
    navigation: json<NavigationEntry[]>(row.navigation),
    files: json<Record<string, string>>(row.files),
    publishedAt: date(row.published_at),
    publishedBy: row.published_by,
  };
}

const VERSION_COLUMNS = 'name, version, contract, routes, navigation, files, published_at, published_by';

export async function findRemoteVersion(db: Queryable, name: string, version: string): Promise<RemoteVersionRecord | undefined> {
  const { rows } = await db.query<VersionRow>(`select ${VERSION_COLUMNS} from remote_versions where name = $1 and version = $2`, [name, version]);
  return rows[0] ? versionRecord(rows[0]) : undefined;
}

/** Every published version, by remote, newest first. */
export async function listRemoteVersions(db: Queryable, name?: string): Promise<RemoteVersionRecord[]> {
  const { rows } = await db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from remote_versions where $1::text is null or name = $1 order by name, published_at desc, version desc`,
    [name ?? null],
  );
  return rows.map(versionRecord);
}

/** Records a published version; false when one of that name and version is there already. */
export async function insertRemoteVersion(db: Queryable, record: RemoteVersionRecord): Promise<boolean> {
  const { rows } = await db.query(
    `insert into remote_versions (name, version, contract, routes, files, published_at, published_by, navigation)
     values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8::jsonb) on conflict do nothing returning name`,
    [record.name, record.version, record.contract, JSON.stringify(record.routes), JSON.stringify(record.files), record.publishedAt, record.publishedBy, JSON.stringify(record.navigation)],
  );
  return rows.length > 0;
}

/** Replaces a version's record (the local demo store only: a workspace build rebuilt). */
export async function replaceRemoteVersion(db: Queryable, record: RemoteVersionRecord): Promise<void> {
  await db.query(
    `update remote_versions set contract = $3, routes = $4::jsonb, files = $5::jsonb, published_at = $6, published_by = $7, navigation = $8::jsonb
     where name = $1 and version = $2`,
    [record.name, record.version, record.contract, JSON.stringify(record.routes), JSON.stringify(record.files), record.publishedAt, record.publishedBy, JSON.stringify(record.navigation)],
  );
}

interface PinRow {
  environment: string;
  name: string;
  version: string;
  pinned_at: Date | string;
  pinned_by: string;
  reason: string;
}

function pinRecord(row: PinRow): PinRecord {
  return { environment: row.environment, name: row.name, version: row.version, pinnedAt: date(row.pinned_at), pinnedBy: row.pinned_by, reason: row.reason };
}

/** The pins of one environment (or of all), by environment and remote. */
export async function listPins(db: Queryable, environment?: string): Promise<PinRecord[]> {
  const { rows } = await db.query<PinRow>(
    `select environment, name, version, pinned_at, pinned_by, reason from remote_pins
     where $1::text is null or environment = $1 order by environment, name`,
    [environment ?? null],
  );
  return rows.map(pinRecord);
}

/** The pin of one remote, locked for the rest of the transaction (two pins at once are made one after the other). */
export async function findPinForUpdate(db: Queryable, environment: string, name: string): Promise<PinRecord | undefined> {
  const { rows } = await db.query<PinRow>(
    'select environment, name, version, pinned_at, pinned_by, reason from remote_pins where environment = $1 and name = $2 for update',
    [environment, name],
  );
  return rows[0] ? pinRecord(rows[0]) : undefined;
}

/** Sets a pin; with `onlyIfAbsent`, only when the remote has none yet (the initial pins). Returns whether it was written. */
export async function upsertPin(db: Queryable, pin: PinRecord, onlyIfAbsent = false): Promise<boolean> {
  const { rows } = await db.query(
    `insert into remote_pins (environment, name, version, pinned_at, pinned_by, reason) values ($1, $2, $3, $4, $5, $6)
     on conflict (environment, name) do ${onlyIfAbsent ? 'nothing' : 'update set version = excluded.version, pinned_at = excluded.pinned_at, pinned_by = excluded.pinned_by, reason = excluded.reason'}
     returning name`,
    [pin.environment, pin.name, pin.version, pin.pinnedAt, pin.pinnedBy, pin.reason],
  );
  return rows.length > 0;
}

interface HistoryRow {
  id: number | string;
  environment: string;
  name: string;
  action: PinAction;
  from_version: string | null;
  to_version: string;
  changed_at: Date | string;
  changed_by: string;
  reason: string;
}

export async function insertPinHistory(db: Queryable, entry: Omit<PinHistoryRecord, 'id'>): Promise<void> {
  await db.query(
    `insert into remote_pin_history (environment, name, action, from_version, to_version, changed_at, changed_by, reason)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [entry.environment, entry.name, entry.action, entry.fromVersion, entry.toVersion, entry.changedAt, entry.changedBy, entry.reason],
  );
}

/** An environment's pin changes (of one remote, or all), oldest first. */
export async function listPinHistory(db: Queryable, environment: string, name?: string): Promise<PinHistoryRecord[]> {
  const { rows } = await db.query<HistoryRow>(
    `select id, environment, name, action, from_version, to_version, changed_at, changed_by, reason from remote_pin_history
     where environment = $1 and ($2::text is null or name = $2) order by id`,
    [environment, name ?? null],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    environment: row.environment,
    name: row.name,
    action: row.action,
    fromVersion: row.from_version,
    toVersion: row.to_version,
    changedAt: date(row.changed_at),
    changedBy: row.changed_by,
    reason: row.reason,
  }));
}

/** The environments that have pins. */
export async function listPinnedEnvironments(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ environment: string }>('select distinct environment from remote_pins order by environment');
  return rows.map((row) => row.environment);
}

export async function listPreviews(db: Queryable, sessionIdHash: string): Promise<{ name: string; version: string }[]> {
  const { rows } = await db.query<{ name: string; version: string }>(
    'select name, version from remote_previews where session_id_hash = $1 order by name',
    [sessionIdHash],
  );
  return rows;
}

export async function setPreview(db: Queryable, sessionIdHash: string, name: string, version: string): Promise<void> {
  await db.query(
    `insert into remote_previews (session_id_hash, name, version) values ($1, $2, $3)
     on conflict (session_id_hash, name) do update set version = excluded.version`,
    [sessionIdHash, name, version],
  );
}

export async function deletePreview(db: Queryable, sessionIdHash: string, name: string): Promise<boolean> {
  const { rows } = await db.query('delete from remote_previews where session_id_hash = $1 and name = $2 returning name', [sessionIdHash, name]);
  return rows.length > 0;
}
