/**
 * Loading what a screen shows, the one way every page does it: one call, aborted when the screen
 * leaves or asks for something else, its answer ignored once aborted.
 */
import { startTransition, useEffect, useState } from 'react';

export type Loaded<T> =
  /** Nothing asked for yet (a search before its first term). */
  | { readonly status: 'idle' }
  /** On its way; `previous` is what was shown before (a list keeps its rows while the next page loads). */
  | { readonly status: 'loading'; readonly previous?: T }
  | { readonly status: 'ready'; readonly value: T }
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * Runs `load` (memoize it with useCallback: a new function is a new call) and follows its answer;
 * `undefined` asks for nothing. A new `again` runs the same call once more (the same search asked
 * for again).
 */
export function useLoaded<T>(load: ((signal: AbortSignal) => Promise<T>) | undefined, again = 0): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(load ? { status: 'loading' } : { status: 'idle' });
  useEffect(() => {
    if (!load) {
      setState({ status: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    setState((current) => ({ status: 'loading', previous: current.status === 'ready' ? current.value : current.status === 'loading' ? current.previous : undefined }));
    load(controller.signal).then(
      (value) => {
        // Rendered as a transition: React renders the answer in short slices, so a large answer
        // does not hold the page still for one long task (the blocking time a phone's first page pays).
        if (!controller.signal.aborted) startTransition(() => setState({ status: 'ready', value }));
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [load, again]);
  return state;
}

/** The message of a failed call, for an error banner. */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown server error';
}
