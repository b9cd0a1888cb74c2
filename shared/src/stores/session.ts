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
  /** Asks the server who is signed in (401 → anonymous; any other failure → error). */
  resolve(signal?: AbortSignal): Promise<SessionState>;
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
  const ask = async (): Promise<SessionState> => {
    try {
      const session = await getCurrentSession();
      set({ status: 'signed-in', session, error: undefined });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) set({ status: 'anonymous', session: undefined, error: undefined });
      else set({ status: 'error', session: undefined, error });
    }
    return get();
  };
  return {
    status: 'unknown',
    resolve(signal) {
      if (!inFlight) {
        inFlight = ask().finally(() => {
          inFlight = null;
        });
      }
      return abortable(inFlight, signal);
    },
    signedIn: (session) => set({ status: 'signed-in', session, error: undefined }),
    signedOut: () => set({ status: 'anonymous', session: undefined, error: undefined }),
  };
});

export function hasPermission(session: Session | undefined, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
}

/** Does the signed-in user hold this permission? (The server checks again: this only hides.) */
export function useHasPermission(permission: Permission): boolean {
  return useSessionStore((s) => hasPermission(s.session, permission));
}
