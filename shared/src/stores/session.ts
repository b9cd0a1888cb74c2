/**
 * Who is signed in, shared by the host and every remote (one store: @portal/shared is a strict
 * singleton). The host resolves it on every navigation to a signed-in page.
 */
import { create } from 'zustand';
import { ApiError } from '../api/client.js';
import { getCurrentSession, type Session } from '../api/sessions.js';
import type { Permission } from '../permissions.js';

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

export const useSessionStore = create<SessionState>()((set, get) => ({
  status: 'unknown',
  async resolve(signal) {
    try {
      const session = await getCurrentSession({ signal });
      set({ status: 'signed-in', session, error: undefined });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof ApiError && error.status === 401) set({ status: 'anonymous', session: undefined, error: undefined });
      else set({ status: 'error', session: undefined, error });
    }
    return get();
  },
  signedIn: (session) => set({ status: 'signed-in', session, error: undefined }),
  signedOut: () => set({ status: 'anonymous', session: undefined, error: undefined }),
}));

export function hasPermission(session: Session | undefined, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
}

/** Does the signed-in user hold this permission? (The server checks again: this only hides.) */
export function useHasPermission(permission: Permission): boolean {
  return useSessionStore((s) => hasPermission(s.session, permission));
}
