/**
 * The remote store (PORTAL_REMOTES_DIR): every published version of every remote, each in its
 * own folder <store>/<name>/<version>/ that never changes once written, and the SHA-384 digest
 * of each of its files (kept in the database, services/federation.ts). A build is read from its
 * folder or from a tar archive of it (.tar, .tar.gz, .tgz), as a team ships it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REMOTE_NAME, validateEnvironmentManifest, type NavigationEntry } from '@portal/shared/contract';
import { validRange } from 'semver';
import { readTar } from '../db/tar.js';
import { isVersion, safeRelativePath } from './static-files.js';

/** What a remote's build says about itself (shared/build/federation.cjs writes it). */
export const RECORD_FILE = 'portal-remote.json';
/** The files a build cannot run without. */
const REQUIRED_FILES = [RECORD_FILE, 'mf-manifest.json', 'remoteEntry.js'];
/** A build larger than this is refused (a remote is a few megabytes with its source maps). */
export const MAX_BUILD_BYTES = 200 * 1024 * 1024;

/** A build that cannot be published, with the reason in words a team can act on. */
export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildError';
  }
}

export interface RemoteBuild {
  name: string;
  version: string;
  /** The range of the host contract it needs. */
  contract: string;
  /** The path prefixes it owns. */
  routes: string[];
  /** Its sidebar entries and request queues (none for a build that declares none). */
  navigation: NavigationEntry[];
  /** Relative path → content. */
  files: Map<string, Buffer>;
}

/** 'sha384-<base64>', the form subresource integrity uses. */
export function digestOf(data: Uint8Array): string {
  return `sha384-${createHash('sha384').update(data).digest('base64')}`;
}

export function digestsOf(build: RemoteBuild): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const path of [...build.files.keys()].sort()) digests[path] = digestOf(build.files.get(path) as Buffer);
  return digests;
}

async function readFolder(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(relative === '' ? root : join(root, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const data = await readFile(join(root, path));
        total += data.length;
        if (total > MAX_BUILD_BYTES) throw new BuildError(`The build is larger than ${MAX_BUILD_BYTES / 1024 / 1024} MB.`);
        files.set(path, data);
      } else throw new BuildError(`${path} is neither a file nor a folder (links are not published).`);
    }
  };
  await walk('');
  return files;
}

async function readArchive(archive: Buffer, source: string): Promise<Map<string, Buffer>> {
  let tar = archive;
  if (archive[0] === 0x1f && archive[1] === 0x8b) {
    try {
      tar = gunzipSync(archive, { maxOutputLength: MAX_BUILD_BYTES });
    } catch (error) {
      throw new BuildError(`${source} is not a readable gzip file (${(error as Error).message}).`);
    }
  }
  const entries = await readTar(tar);
  if (entries === undefined) {
    throw new BuildError(`${source} is not a tar archive of plain files and folders (make it with: tar -czf FILE -C dist/VERSION .).`);
  }
  const files = new Map<string, Buffer>();
  for (const entry of entries) if (entry.type === 'file') files.set(entry.path, Buffer.from(entry.data));
  // An archive of the version folder itself ('0.2.0/remoteEntry.js …'): its files are the build.
  const tops = new Set([...files.keys()].map((path) => path.split('/')[0]));
  const [top] = tops;
  if (tops.size === 1 && top !== undefined && !files.has(top) && !files.has(RECORD_FILE)) {
    const inner = new Map<string, Buffer>();
    for (const [path, data] of files) inner.set(path.slice(top.length + 1), data);
    return inner;
  }
  return files;
}

function parseRecord(files: Map<string, Buffer>, source: string): Pick<RemoteBuild, 'name' | 'version' | 'contract' | 'routes' | 'navigation'> {
  const missing = REQUIRED_FILES.filter((file) => !files.has(file));
  if (missing.length > 0) {
    throw new BuildError(
      `${source} is not a remote's build: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing. ` +
        'Publish the folder dist/VERSION that the remote\'s build (webpack) wrote.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse((files.get(RECORD_FILE) as Buffer).toString('utf8'));
  } catch {
    throw new BuildError(`${RECORD_FILE} is not valid JSON.`);
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { name, version, contract, routes, navigation = [] } = record;
  if (typeof name !== 'string' || !REMOTE_NAME.test(name)) throw new BuildError(`${RECORD_FILE}: the name must be letters, digits and underscores.`);
  if (typeof version !== 'string' || !isVersion(version)) throw new BuildError(`${RECORD_FILE}: the version must be a version such as 1.2.3.`);
  if (typeof contract !== 'string' || validRange(contract) === null) throw new BuildError(`${RECORD_FILE}: the contract must be a range such as ^2.0.0.`);
  // The routes and the navigation are checked with the manifest's own rules (path prefixes, none
  // twice; each sidebar entry's page under one of the routes).
  const problems = validateEnvironmentManifest({ environment: 'build', remotes: [{ name, version, contract, routes, navigation }] });
  if (problems.length > 0) throw new BuildError(`${RECORD_FILE}: ${problems.map((p) => p.replace(/^remotes\[0\]\./, '')).join('; ')}.`);
  return { name, version, contract, routes: routes as string[], navigation: navigation as NavigationEntry[] };
}

/** Reads a build from its folder or a tar archive of it, and checks that it is a remote's build. */
export async function readRemoteBuild(source: string): Promise<RemoteBuild> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(source)).isDirectory();
  } catch {
    throw new BuildError(`${source} does not exist.`);
  }
  let files: Map<string, Buffer>;
  if (isFolder) files = await readFolder(source);
  else {
    const { size } = await stat(source);
    if (size > MAX_BUILD_BYTES) throw new BuildError(`${source} is larger than ${MAX_BUILD_BYTES / 1024 / 1024} MB.`);
    files = await readArchive(await readFile(source), source);
  }
  for (const path of files.keys()) {
    if (safeRelativePath(path) !== path) throw new BuildError(`The build has a file the portal will not serve: ${path} (hidden or unsafe name).`);
  }
  return { ...parseRecord(files, source), files };
}

/** The remote store: PORTAL_REMOTES_DIR, else the folder remotes/ in the data folder. */
export function remoteStoreDir(settings: { remotesDir?: string | undefined; dataDir?: string | undefined }): string {
  return settings.remotesDir ?? join(settings.dataDir ?? 'data', 'remotes');
}

/** The folder of one version in the store. */
export function versionFolder(storeDir: string, name: string, version: string): string {
  return join(storeDir, name, version);
}

/**
 * Writes a build's files into its version folder: into a new folder first, then renamed into
 * place, so a reader sees the whole version or none of it. An existing folder is replaced.
 */
export async function writeVersion(storeDir: string, build: RemoteBuild): Promise<void> {
  const target = versionFolder(storeDir, build.name, build.version);
  const scratch = join(storeDir, build.name, `.publishing-${build.version}-${randomBytes(6).toString('hex')}`);
  try {
    for (const [path, data] of build.files) {
      const file = join(scratch, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data);
    }
    const old = `${target}.old-${randomBytes(6).toString('hex')}`;
    const hadOne = await rename(target, old).then(
      () => true,
      () => false,
    );
    await rename(scratch, target);
    if (hadOne) await rm(old, { recursive: true, force: true });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The files of a version in the store that differ from their published digests: missing,
 * changed, or not published at all. An empty list means the folder is exactly what was published.
 */
export async function versionProblems(storeDir: string, name: string, version: string, digests: Readonly<Record<string, string>>): Promise<string[]> {
  const folder = versionFolder(storeDir, name, version);
  let present: Map<string, Buffer>;
  try {
    present = await readFolder(folder);
  } catch (error) {
    if (error instanceof BuildError) return [error.message];
    return [`the folder ${folder} is missing`];
  }
  const problems: string[] = [];
  for (const [path, digest] of Object.entries(digests)) {
    const data = present.get(path);
    if (data === undefined) problems.push(`${path} is missing`);
    else if (digestOf(data) !== digest) problems.push(`${path} was changed after publishing`);
  }
  for (const path of present.keys()) if (!(path in digests)) problems.push(`${path} was added after publishing`);
  return problems;
}

/**
 * Checks files as they are served: a file's digest is computed once per change of its size,
 * modification time or inode, so serving costs one stat, which the file server does anyway.
 */
export class ServedFileCheck {
  private readonly known = new Map<string, { key: string; digest: string }>();

  /** True when the file at `path` has `digest`; false when it differs or cannot be read. */
  async matches(path: string, digest: string): Promise<boolean> {
    try {
      const info = await stat(path);
      const key = `${info.size}:${info.mtimeMs}:${info.ino}`;
      const cached = this.known.get(path);
      if (cached?.key === key) return cached.digest === digest;
      const actual = digestOf(await readFile(path));
      this.known.set(path, { key, digest: actual });
      return actual === digest;
    } catch {
      return false;
    }
  }
}
