/**
 * The environment's file (server/environments/<name>.json): its name and its initial pins, which
 * the server imports into the database for remotes not pinned yet (services/federation.ts).
 * Checked at start; the pins served are the database's.
 */
import { readFile } from 'node:fs/promises';
import { validateEnvironmentManifest, type EnvironmentManifest } from '@portal/shared/contract';

export class ManifestError extends Error {
  readonly problems: readonly string[];
  constructor(file: string, problems: readonly string[]) {
    super(`The environment manifest ${file} is not usable:\n  ${problems.join('\n  ')}`);
    this.name = 'ManifestError';
    this.problems = problems;
  }
}

export async function readEnvironmentManifest(file: string): Promise<EnvironmentManifest> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ManifestError(file, [code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${code ?? 'unknown error'})`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(file, [`not valid JSON (${(error as Error).message})`]);
  }
  const problems = validateEnvironmentManifest(value);
  if (problems.length > 0) throw new ManifestError(file, problems);
  return value as EnvironmentManifest;
}

/** The start-up check: the manifest is usable and every developer override names one of its remotes. */
export async function checkEnvironmentManifest(file: string, devRemotes: Readonly<Record<string, string>> = {}): Promise<EnvironmentManifest> {
  const manifest = await readEnvironmentManifest(file);
  const names = new Set(manifest.remotes.map((r) => r.name));
  const unknown = Object.keys(devRemotes).filter((name) => !names.has(name));
  if (unknown.length > 0) {
    throw new ManifestError(
      file,
      unknown.map((name) => `PORTAL_DEV_REMOTES names '${name}', which is not a remote of this manifest (remotes: ${[...names].join(', ')})`),
    );
  }
  return manifest;
}
