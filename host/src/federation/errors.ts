/** Why a remote could not be used. The panel is the same for all; the reason goes to the log. */
export type RemoteFailureReason = 'network' | 'not-found' | 'script' | 'contract' | 'environment';

export class RemoteLoadError extends Error {
  readonly remote: string;
  readonly reason: RemoteFailureReason;
  constructor(remote: string, reason: RemoteFailureReason, message: string, options?: { cause?: unknown }) {
    super(`Remote '${remote}' is unavailable (${reason}): ${message}`, options);
    this.name = 'RemoteLoadError';
    this.remote = remote;
    this.reason = reason;
  }
}

/** Sorts a module federation runtime error into a reason, from its message (the runtime has no codes we can rely on across versions). */
export function classifyLoadFailure(error: unknown): RemoteFailureReason {
  if (error instanceof RemoteLoadError) return error.reason;
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  // A script that did not load says nothing of why (its text lists "network failure, 404, CORS"):
  // since the host loads each remote's entry as a script (no mf-manifest.json fetched first), that
  // is how an unreachable remote fails.
  if (/ScriptNetworkError|Failed to fetch/.test(text)) return 'network';
  if (/\b404\b|not found/i.test(text)) return 'not-found';
  if (/ScriptExecutionError|SyntaxError|TypeError|ReferenceError/.test(text)) return 'script';
  return 'network';
}
