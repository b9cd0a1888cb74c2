/**
 * The environment manifest: which remotes this environment runs, pinned to which version, and
 * which paths each owns. Fetched at start with no-store, so a changed pin is honoured on the
 * next reload, with no rebuild of the host.
 */
import { CONTRACT_VERSION, isValidRange, type ResolvedEnvironmentRemote, satisfies, validateEnvironmentManifest } from '@portal/shared';
import { ENVIRONMENT_URL } from '../prefetch';

export { ENVIRONMENT_URL };

export interface PortalRemote extends ResolvedEnvironmentRemote {
  /** False when this host does not implement the contract range the remote needs. */
  readonly compatible: boolean;
}

export interface PortalEnvironment {
  readonly environment: string;
  readonly remotes: readonly PortalRemote[];
}

export class EnvironmentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EnvironmentError';
  }
}

/** Checks a served manifest and marks each remote compatible or not with this host's contract. */
export function readEnvironment(value: unknown, contractVersion = CONTRACT_VERSION): PortalEnvironment {
  const problems = validateEnvironmentManifest(value, { resolved: true });
  const manifest = value as { environment: string; remotes: ResolvedEnvironmentRemote[] };
  if (problems.length > 0) throw new EnvironmentError(`The environment manifest is not valid: ${problems.join('; ')}`);
  return {
    environment: manifest.environment,
    remotes: manifest.remotes.map((remote) => ({
      ...remote,
      compatible: isValidRange(remote.contract) && satisfies(contractVersion, remote.contract),
    })),
  };
}

export async function fetchEnvironment(fetchImpl: typeof fetch = fetch): Promise<PortalEnvironment> {
  let response: Response;
  try {
    response = await fetchImpl(ENVIRONMENT_URL, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (cause) {
    throw new EnvironmentError('The environment manifest could not be fetched.', { cause });
  }
  if (!response.ok) throw new EnvironmentError(`The environment manifest answered ${response.status}.`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new EnvironmentError('The environment manifest is not JSON.', { cause });
  }
  return readEnvironment(body);
}
