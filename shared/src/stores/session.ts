/**
 * Who is signed in, shared by the host and every remote (one store: @portal/shared is a strict
 * singleton). The host resolves it on every navigation to a signed-in page.
 */
import { create } from 'zustand';
import { ApiError } from '../api/client.js';
import { getCurrentSession, type Session } from '../api/sessions.js';
import type { Permission } from '@portal/api';

export type SessionStatus = 'unknown' | 'signed-in' | 'anonymous' | 'error';

export interface SessionState {
  readonly status: SessionStatus;
  readonly session?: Session;
  readonly error?: unknown;
  /**
   * Asks the server who is signed in (401 → anonymous; any other failure → error). With
   * `reuseWithinMs`, an answer the server gave that recently is used instead of asking again (the
   * first page of a load reuses the check the shell made as it started).
   */
  resolve(signal?: AbortSignal, options?: { reuseWithinMs?: number }): Promise<SessionState>;
  signedIn(session: Session): void;
  signedOut(): void;
}

/** Rejects when the signal aborts; otherwise follows the promise. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export const useSessionStore = create<SessionState>()((set, get) => {
  // Callers asking at the same moment (the shell starting, the guard of the first page) share
  // one request; a caller that aborts stops waiting without cancelling it for the others.
  let inFlight: Promise<SessionState> | null = null;
  /** When the server last said who is signed in (or that nobody is). */
  let answeredAt = Number.NEGATIVE_INFINITY;
  const ask = async (): Promise<SessionState> => {
    try {
      const session = await getCurrentSession();
      const current = get().session;
      // The same user with the same permissions keeps the same object: nothing re-renders.
      const same = current !== undefined && current.username === session.username && current.permissions.join() === session.permissions.join();
      set({ status: 'signed-in', session: same ? current : session, error: undefined });
      answeredAt = Date.now();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        set({ status: 'anonymous', session: undefined, error: undefined });
        answeredAt = Date.now();
      } else set({ status: 'error', session: undefined, error });
    }
    return get();
  };
  return {
    status: 'unknown',
    resolve(signal, options) {
      const reuse = options?.reuseWithinMs;
      if (!inFlight && reuse !== undefined && Date.now() - answeredAt <= reuse) return Promise.resolve(get());
      if (!inFlight) {
        inFlight = ask().finally(() => {
          inFlight = null;
        });
      }
      return abortable(inFlight, signal);
    },
    signedIn: (session) => {
      answeredAt = Date.now();
      set({ status: 'signed-in', session, error: undefined });
    },
    signedOut: () => {
      answeredAt = Date.now();
      set({ status: 'anonymous', session: undefined, error: undefined });
    },
  };
});

export function hasPermission(session: Session | undefined, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
}

/** Does the signed-in user hold this permission? (The server checks again: this only hides.) */
export function useHasPermission(permission: Permission): boolean {
  return useSessionStore((s) => hasPermission(s.session, permission));
}
