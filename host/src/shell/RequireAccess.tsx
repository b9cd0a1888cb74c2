import { type RouteAccess, useSessionStore } from '@portal/shared';
import { useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { guardDecision } from './guard';
import { Loading } from './Loading';
import { useSessionCheck } from './useSessionCheck';

/**
 * Resolves the session on every navigation to a signed-in page and applies the guard. The
 * page stays on screen while a later navigation is checked; the first check shows a spinner.
 */
export function RequireAccess({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  // A page renders at once when the answer the portal already has allows it (a page after the
  // first, from another remote too), while the server is asked again, as within a remote; before
  // any answer (the first page of a load, as a rule) it waits for one.
  const [allowed, setAllowed] = useState(() => {
    const known = useSessionStore.getState();
    return known.status === 'signed-in' && guardDecision(known, access, location).kind === 'allow';
  });

  // A new location object on every navigation, to the same path too: each is checked.
  useSessionCheck(location, (state) => {
    const decision = guardDecision(state, access, location);
    if (decision.kind === 'allow') setAllowed(true);
    else navigate(decision.to, { replace: true });
  });

  if (!allowed) return <Loading />;
  return <>{children}</>;
}
