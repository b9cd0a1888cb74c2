/** Loading an account for the signed-in screens. */
import { type Account } from '@portal/api';
import { type Loaded, useLoaded } from '@portal/shared/components';
import { useMemo } from 'react';
import { getAccount } from '../api/profile';

export type AccountState = Exclude<Loaded<Account>, { readonly status: 'idle' }>;

/** GET /accounts/{username} (useLoaded), again whenever the username changes; aborted on unmount. */
export function useAccount(username: string | undefined): AccountState {
  const load = useMemo(() => (username ? (signal: AbortSignal) => getAccount(username, { signal }) : undefined), [username]);
  const state = useLoaded(load);
  // No username yet: the page waits (the host's guard resolves the session before a signed-in page shows).
  return state.status === 'idle' ? { status: 'loading' } : state;
}
