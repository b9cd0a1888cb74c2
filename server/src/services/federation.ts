/**
 * Federation operations (docs/federation.md): teams publish versions of their
 * remote into the store, platform administrators pin a published version per environment (in
 * the database, so every server on one database serves the same pins from the next page load),
 * roll back, preview a version in their own browser first, and read the history.
 *
 * A pin is refused, with nothing changed, when the version is not published, when its files in
 * the store are not the ones published, when the host's contract does not satisfy its range, or
 * when it claims a path another pinned remote owns.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTRACT_VERSION, type EnvironmentManifest, type ResolvedEnvironmentManifest, type ResolvedEnvironmentRemote } from '@portal/shared/contract';
import { satisfies } from 'semver';
import type { Database, Queryable } from '../db/database.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.js';
import {
  deletePreview,
  findPinForUpdate,
  findRemoteVersion,
  insertPinHistory,
  insertRemoteVersion,
  listPinHistory,
  listPins,
  listPreviews,
  listRemoteVersions,
  replaceRemoteVersion,
  setPreview,
  upsertPin,
  type PinAction,
  type PinHistoryRecord,
  type PinRecord,
  type RemoteVersionRecord,
} from '../repositories/remotes.js';
import { toCsv } from './account-admin.js';
import { BuildError, digestsOf, readRemoteBuild, type RemoteBuild, versionProblems, writeVersion } from './remote-store.js';
import { isVersion } from './static-files.js';

export interface FederationContext {
  db: Database;
  /** The remote store (PORTAL_REMOTES_DIR). */
  storeDir: string;
  /** The contract version the host implements (this portal's @portal/shared). */
  hostContract?: string;
  now?: () => Date;
}

const nowOf = (context: FederationContext): Date => (context.now ?? (() => new Date()))();
const hostContractOf = (context: FederationContext): string => context.hostContract ?? CONTRACT_VERSION;

/** The URL path of a published file, served by the remotes route. */
export function remoteFilePath(name: string, version: string, file: string): string {
  return `/remotes/${name}/${version}/${file}`;
}

/**
 * The entry the host loads: the version's remoteEntry.js. The host's federation runtime is built
 * without the snapshot plugin (fewer bytes and no manifest fetched before a remote), so it reads no mf-manifest.json (still published: the
 * build's record of what it shares and exposes).
 */
export function remoteEntryPath(name: string, version: string): string {
  return remoteFilePath(name, version, 'remoteEntry.js');
}

// ---------------------------------------------------------------------------------------------
// Publishing

export type PublishOutcome = 'published' | 'unchanged' | 'replaced';

export interface PublishResult {
  name: string;
  version: string;
  contract: string;
  outcome: PublishOutcome;
}

function sameFiles(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Publishes a build: its files into the store under <name>/<version>/ and its record (with each
 * file's digest) into the database. The same content again changes nothing (the files are
 * written again if the store lost them); other content under a published version is refused,
 * except with `replace` (npm start's local store, for a workspace build that was rebuilt).
 */
export async function publishRemote(
  context: FederationContext,
  build: RemoteBuild,
  by: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<PublishResult> {
  const files = digestsOf(build);
  const result = (outcome: PublishOutcome): PublishResult => ({ name: build.name, version: build.version, contract: build.contract, outcome });
  const existing = await findRemoteVersion(context.db, build.name, build.version);
  if (existing) {
    const same =
      sameFiles(existing.files, files) &&
      existing.contract === build.contract &&
      JSON.stringify(existing.routes) === JSON.stringify(build.routes) &&
      JSON.stringify(existing.navigation) === JSON.stringify(build.navigation);
    if (same) {
      // The store may have lost the folder (a new server, a store that is not shared): put it back.
      if ((await versionProblems(context.storeDir, build.name, build.version, files)).length > 0) await writeVersion(context.storeDir, build);
      return result('unchanged');
    }
    if (!replace) {
      throw new ConflictError(
        `${build.name} ${build.version} is already published with other content; a published version never changes. ` +
          'Give the new build a new version (in its package.json) and publish that.',
      );
    }
  }
  await writeVersion(context.storeDir, build);
  const record: RemoteVersionRecord = {
    name: build.name,
    version: build.version,
    contract: build.contract,
    routes: build.routes,
    navigation: build.navigation,
    files,
    publishedAt: nowOf(context),
    publishedBy: by,
  };
  if (existing) {
    await replaceRemoteVersion(context.db, record);
    return result('replaced');
  }
  if (!(await insertRemoteVersion(context.db, record))) {
    // Published by someone else at the same moment: the same content is fine, other content is not.
    const raced = await findRemoteVersion(context.db, build.name, build.version);
    if (raced && sameFiles(raced.files, files)) return result('unchanged');
    throw new ConflictError(`${build.name} ${build.version} was just published by someone else with other content.`);
  }
  return result('published');
}

/**
 * The local store (PORTAL_REMOTES_DIR unset, as npm start runs): every workspace build
 * (remote-NAME/dist/VERSION/) is published at start, a rebuilt one replacing its version.
 */
export async function publishWorkspaceBuilds(context: FederationContext, repoDir: string): Promise<{ published: PublishResult[]; skipped: string[] }> {
  const published: PublishResult[] = [];
  const skipped: string[] = [];
  const apps = (await readdir(repoDir, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name.startsWith('remote-'));
  for (const app of apps) {
    const dist = join(repoDir, app.name, 'dist');
    const versions = await readdir(dist, { withFileTypes: true }).catch(() => []);
    for (const version of versions) {
      if (!version.isDirectory()) continue;
      const folder = join(dist, version.name);
      try {
        published.push(await publishRemote(context, await readRemoteBuild(folder), 'workspace build', { replace: true }));
      } catch (error) {
        if (!(error instanceof BuildError)) throw error;
        skipped.push(`${folder}: ${error.message}`);
      }
    }
  }
  return { published, skipped };
}

// ---------------------------------------------------------------------------------------------
// Pins

export interface PinChange {
  environment: string;
  name: string;
  fromVersion: string | null;
  toVersion: string;
  action: PinAction;
}

/** Why this version may not run in this environment, or undefined when it may. */
async function refusal(
  context: FederationContext,
  db: Queryable,
  environment: string,
  record: RemoteVersionRecord,
): Promise<string | undefined> {
  const label = `${record.name} ${record.version}`;
  const problems = await versionProblems(context.storeDir, record.name, record.version, record.files);
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
    return `${label} cannot be pinned: its files in the remote store are not the ones published (${shown}). Publish it again from its build, or pin another version.`;
  }
  const host = hostContractOf(context);
  if (!satisfies(host, record.contract)) {
    return `${label} cannot be pinned: it needs host contract ${record.contract}, and the host of ${environment} implements ${host}. Pin a version written for contract ${host}.`;
  }
  const others = (await listPins(db, environment)).filter((pin) => pin.name !== record.name);
  for (const other of others) {
    const otherRecord = await findRemoteVersion(db, other.name, other.version);
    const clash = record.routes.find((route) => otherRecord?.routes.includes(route));
    if (clash !== undefined) {
      return `${label} cannot be pinned: it claims ${clash}, which ${other.name} ${other.version} owns in ${environment}.`;
    }
  }
  return undefined;
}

async function publishedVersion(db: Queryable, name: string, version: string): Promise<RemoteVersionRecord> {
  if (!isVersion(version)) throw new InvalidInputError(`'${version}' is not a version such as 1.2.3.`);
  const record = await findRemoteVersion(db, name, version);
  if (record) return record;
  const any = await listRemoteVersions(db, name);
  if (any.length === 0) throw new NotFoundError(`No version of a remote named ${name} is published.`);
  throw new NotFoundError(
    `${name} ${version} is not published (published: ${any.map((v) => v.version).join(', ')}). Publish it first: npm run portal -- remotes publish BUILD.`,
  );
}

/**
 * The versions an environment's remote has run, as a stack: a pin pushes, a rollback pops. A
 * rollback goes to the version below the top.
 */
function pinStack(history: readonly PinHistoryRecord[]): string[] {
  const stack: string[] = [];
  for (const entry of history) {
    if (entry.action === 'rollback') stack.pop();
    else stack.push(entry.toVersion);
    // A rollback's target is on the stack already; anything else would be a history from before stacks.
    if (stack[stack.length - 1] !== entry.toVersion) stack.push(entry.toVersion);
  }
  return stack;
}

async function changePin(
  context: FederationContext,
  environment: string,
  name: string,
  target: (tx: Queryable, current: PinRecord | undefined) => Promise<{ version: string; action: PinAction }>,
  by: string,
  reason: string,
): Promise<PinChange> {
  return context.db.transaction(async (tx) => {
    // Serialises changes of one remote's pin: the row lock, or (no pin yet) the insert's conflict.
    const current = await findPinForUpdate(tx, environment, name);
    const { version, action } = await target(tx, current);
    if (current?.version === version) throw new ConflictError(`${environment} runs ${name} ${version} already; nothing changed.`);
    const record = await publishedVersion(tx, name, version);
    const why = await refusal(context, tx, environment, record);
    if (why !== undefined) throw new ConflictError(why);
    const at = nowOf(context);
    await upsertPin(tx, { environment, name, version, pinnedAt: at, pinnedBy: by, reason });
    await insertPinHistory(tx, { environment, name, action, fromVersion: current?.version ?? null, toVersion: version, changedAt: at, changedBy: by, reason });
    return { environment, name, fromVersion: current?.version ?? null, toVersion: version, action };
  });
}

/** Pins a published version of a remote in an environment; refused (nothing changed) with the reason. */
export function pinRemote(context: FederationContext, environment: string, name: string, version: string, by: string, reason = ''): Promise<PinChange> {
  return changePin(context, environment, name, async () => ({ version, action: 'pin' }), by, reason);
}

/** Pins the version that ran before the current pin (a second rollback goes one further back). */
export function rollbackRemote(context: FederationContext, environment: string, name: string, by: string, reason = ''): Promise<PinChange> {
  return changePin(
    context,
    environment,
    name,
    async (tx, current) => {
      if (!current) throw new NotFoundError(`${name} is not pinned in ${environment}.`);
      const stack = pinStack(await listPinHistory(tx, environment, name));
      const previous = stack[stack.length - 2];
      if (previous === undefined) throw new ConflictError(`${name} has had only one pin in ${environment} (${current.version}): there is nothing to roll back to.`);
      return { version: previous, action: 'rollback' };
    },
    by,
    reason,
  );
}

export interface RemoteStatus {
  environment: string;
  name: string;
  version: string;
  contract: string;
  routes: string[];
  pinnedAt: Date;
  pinnedBy: string;
  reason: string;
  /** The version a rollback would pin, if any. */
  rollbackTo: string | null;
}

/** What each remote of an environment (or of every environment) runs, since when, set by whom. */
export async function remoteStatus(db: Queryable, environment?: string): Promise<RemoteStatus[]> {
  const pins = await listPins(db, environment);
  const statuses: RemoteStatus[] = [];
  for (const pin of pins) {
    const record = await findRemoteVersion(db, pin.name, pin.version);
    const stack = pinStack(await listPinHistory(db, pin.environment, pin.name));
    statuses.push({
      ...pin,
      contract: record?.contract ?? '',
      routes: record?.routes ?? [],
      rollbackTo: stack[stack.length - 2] ?? null,
    });
  }
  return statuses;
}

/** An environment's pin history, newest first. */
export async function pinHistory(db: Queryable, environment: string, name?: string): Promise<PinHistoryRecord[]> {
  return (await listPinHistory(db, environment, name)).reverse();
}

export const PIN_HISTORY_CSV_HEADER = ['when', 'environment', 'remote', 'action', 'from', 'to', 'who', 'why'] as const;

/** The history as CSV, oldest first (as an account's history is exported). */
export function pinHistoryCsv(entries: readonly PinHistoryRecord[]): string {
  const oldestFirst = [...entries].sort((a, b) => a.id - b.id);
  return toCsv([
    PIN_HISTORY_CSV_HEADER,
    ...oldestFirst.map((e) => [e.changedAt.toISOString(), e.environment, e.name, e.action, e.fromVersion ?? '', e.toVersion, e.changedBy, e.reason]),
  ]);
}

export function pinHistoryFileName(environment: string): string {
  return `${environment.replace(/[^A-Za-z0-9._-]/g, '_')}-remote-history.csv`;
}

export interface PublishedVersion {
  version: string;
  contract: string;
  routes: string[];
  publishedAt: Date;
  publishedBy: string;
  /** The host of this portal satisfies its contract range. */
  compatible: boolean;
}

export async function publishedVersions(context: Pick<FederationContext, 'db' | 'hostContract'>, name?: string): Promise<(PublishedVersion & { name: string })[]> {
  const host = context.hostContract ?? CONTRACT_VERSION;
  return (await listRemoteVersions(context.db, name)).map((r) => ({
    name: r.name,
    version: r.version,
    contract: r.contract,
    routes: r.routes,
    publishedAt: r.publishedAt,
    publishedBy: r.publishedBy,
    compatible: satisfies(host, r.contract),
  }));
}

// ---------------------------------------------------------------------------------------------
// Initial pins: an environment's JSON file (server/environments/<name>.json)

export interface InitialPinsResult {
  pinned: string[];
  /** Remotes of the file that could not be pinned, each with the reason. */
  skipped: { name: string; reason: string }[];
}

/**
 * Pins every remote of the environment's file that has no pin yet (a new database, or a remote
 * added to the file), with the same checks as any pin. Run at each start; two servers starting
 * at once pin each remote once.
 */
export async function importInitialPins(context: FederationContext, manifest: EnvironmentManifest, source: string): Promise<InitialPinsResult> {
  const result: InitialPinsResult = { pinned: [], skipped: [] };
  const pinned = new Set((await listPins(context.db, manifest.environment)).map((pin) => pin.name));
  for (const remote of manifest.remotes) {
    if (pinned.has(remote.name)) continue;
    if (remote.version === undefined) {
      result.skipped.push({ name: remote.name, reason: 'it names an entry URL, not a version: only published versions are pinned (publish it, or use PORTAL_DEV_REMOTES while developing)' });
      continue;
    }
    const version = remote.version;
    try {
      await context.db.transaction(async (tx) => {
        const record = await publishedVersion(tx, remote.name, version);
        const why = await refusal(context, tx, manifest.environment, record);
        if (why !== undefined) throw new ConflictError(why);
        const at = nowOf(context);
        if (await upsertPin(tx, { environment: manifest.environment, name: remote.name, version, pinnedAt: at, pinnedBy: source, reason: 'initial pin' }, true)) {
          await insertPinHistory(tx, {
            environment: manifest.environment, name: remote.name, action: 'initial', fromVersion: null, toVersion: version,
            changedAt: at, changedBy: source, reason: 'initial pin',
          });
          result.pinned.push(`${remote.name} ${version}`);
        }
      });
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof NotFoundError || error instanceof InvalidInputError)) throw error;
      result.skipped.push({ name: remote.name, reason: error.message });
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// What the browser gets: GET /environment.json

/** The entry files the browser checks with subresource integrity: the one it loads first. */
const ENTRY_FILES = ['remoteEntry.js'];

function servedRemote(record: RemoteVersionRecord, preview: boolean): ResolvedEnvironmentRemote {
  const integrity: Record<string, string> = {};
  for (const file of ENTRY_FILES) {
    const digest = record.files[file];
    if (digest !== undefined) integrity[remoteFilePath(record.name, record.version, file)] = digest;
  }
  return {
    name: record.name,
    version: record.version,
    entry: remoteEntryPath(record.name, record.version),
    contract: record.contract,
    routes: record.routes,
    ...(record.navigation.length > 0 ? { navigation: record.navigation } : {}),
    integrity,
    ...(preview ? { preview: true } : {}),
  };
}

/**
 * The environment's manifest as served: each pinned remote with its entry and the digests of
 * its entry files; a session's previews in place of the pins; a developer's overrides last.
 */
export async function servedManifest(
  db: Queryable,
  environment: string,
  { devRemotes = {}, previewSession }: { devRemotes?: Readonly<Record<string, string>>; previewSession?: string } = {},
): Promise<ResolvedEnvironmentManifest> {
  const previews = new Map((previewSession === undefined ? [] : await listPreviews(db, previewSession)).map((p) => [p.name, p.version]));
  const remotes: ResolvedEnvironmentRemote[] = [];
  for (const pin of await listPins(db, environment)) {
    const previewVersion = previews.get(pin.name);
    const record = await findRemoteVersion(db, pin.name, previewVersion ?? pin.version);
    if (!record) continue;
    const remote = servedRemote(record, previewVersion !== undefined && previewVersion !== pin.version);
    const override = devRemotes[pin.name];
    // A developer's own build of the remote: served from its dev server, with the published version's routes and sidebar entries.
    const { integrity: _integrity, preview: _preview, ...published } = remote;
    remotes.push(override === undefined ? remote : { ...published, entry: override });
  }
  return { environment, remotes };
}

// ---------------------------------------------------------------------------------------------
// Previews: one administrator's session runs a published version before the environment does

export async function startPreview(context: FederationContext, environment: string, sessionIdHash: string, name: string, version: string): Promise<void> {
  const record = await publishedVersion(context.db, name, version);
  const pins = await listPins(context.db, environment);
  if (!pins.some((pin) => pin.name === name)) throw new NotFoundError(`${name} is not a remote of ${environment}.`);
  const why = await refusal(context, context.db, environment, record);
  if (why !== undefined) throw new ConflictError(why.replace('cannot be pinned', 'cannot be previewed'));
  await setPreview(context.db, sessionIdHash, name, version);
}

export async function endPreview(db: Queryable, sessionIdHash: string, name: string): Promise<void> {
  if (!(await deletePreview(db, sessionIdHash, name))) throw new NotFoundError(`You are not previewing ${name}.`);
}

export { listPreviews };
