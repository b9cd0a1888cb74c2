import { type SessionState, useSessionStore } from '@portal/shared';
import { useEffect, useRef } from 'react';

/**
 * The first page of a load: the shell asked who is signed in as it started, a moment before;
 * that answer is this navigation's check. Later navigations ask the server again.
 */
export const FIRST_CHECK_REUSE_MS = 5_000;

/** Whether this page load's first check has happened (once per load, whichever page asks first). */
let firstCheckDone = false;

/** Tests: the next check is a page load's first again. */
export function resetFirstCheck(): void {
  firstCheckDone = false;
}

/**
 * Asks the server who is signed in whenever `key` changes (a navigation), and hands the answer
 * to `onResolved`. A check overtaken by a newer one is abandoned.
 */
export function useSessionCheck(key: unknown, onResolved: (state: SessionState) => void): void {
  const callback = useRef(onResolved);
  callback.current = onResolved;
  useEffect(() => {
    const controller = new AbortController();
    const reuse = firstCheckDone ? undefined : { reuseWithinMs: FIRST_CHECK_REUSE_MS };
    firstCheckDone = true;
    useSessionStore
      .getState()
      .resolve(controller.signal, reuse)
      .then((state) => callback.current(state))
      .catch(() => undefined); // aborted: a newer check decides
    return () => controller.abort();
  }, [key]);
}
