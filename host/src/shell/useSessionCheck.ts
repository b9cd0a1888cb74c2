import { type SessionState, useSessionStore } from '@portal/shared';
import { useEffect, useRef } from 'react';

/**
 * Asks the server who is signed in whenever `key` changes (a navigation), and hands the answer
 * to `onResolved`. A check overtaken by a newer one is abandoned.
 */
export function useSessionCheck(key: unknown, onResolved: (state: SessionState) => void): void {
  const callback = useRef(onResolved);
  callback.current = onResolved;
  useEffect(() => {
    const controller = new AbortController();
    useSessionStore
      .getState()
      .resolve(controller.signal)
      .then((state) => callback.current(state))
      .catch(() => undefined); // aborted: a newer check decides
    return () => controller.abort();
  }, [key]);
}
