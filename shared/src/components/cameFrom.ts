import { safeRedirect } from '@portal/shared';

/** The location state a link passes to say where the reader came from: `{ from: path + search }`. */
export interface CameFromState {
  readonly from: string;
}

/** Where the location state says the reader came from (a path on this site), if anywhere. */
export function cameFrom(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'from' in state) {
    const { from } = state as { from: unknown };
    return typeof from === 'string' ? safeRedirect(from) : undefined;
  }
  return undefined;
}
