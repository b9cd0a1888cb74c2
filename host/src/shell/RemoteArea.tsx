import { links } from '@portal/api';
import { remoteForPath, type RemoteModule, type RemoteRoute } from '@portal/shared';
import { startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes } from 'react-router-dom';
import type { PortalRemote } from '../federation/environment';
import { Loading } from './Loading';
import { PortalLayout } from './PortalLayout';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { RequireAccess } from './RequireAccess';
import { RemoteUnavailable } from './RemoteUnavailable';
import { loadEnvironment, remoteLoader, useEnvironmentStore } from './startup';

/** Every path not owned by the host: find its remote by the manifest's prefixes, or not found. */
export function RemoteArea() {
  const { pathname } = useLocation();
  const status = useEnvironmentStore((s) => s.status);
  const environment = useEnvironmentStore((s) => s.environment);

  if (status === 'loading') {
    return (
      <PortalLayout sidebar={false}>
        <Loading />
      </PortalLayout>
    );
  }
  if (status === 'failed' || !environment) {
    return (
      <PortalLayout sidebar>
        <RemoteUnavailable onRetry={loadEnvironment} />
      </PortalLayout>
    );
  }
  const remote = remoteForPath(environment.remotes, pathname);
  if (!remote) return <Navigate to={links.notFound()} replace />;
  // Not keyed by remote: going from one remote to another keeps the chrome (the sidebar, the top
  // bar, the session guard) mounted, as a navigation within a remote does (nothing drawn twice).
  return <RemoteSlot remote={remote} />;
}

type SlotState =
  | { status: 'loading' }
  | { status: 'ready'; module: RemoteModule }
  | { status: 'failed'; error: unknown };

/** A remote already loaded is ready at once; any other starts loading. */
function initialState(remote: PortalRemote): SlotState {
  const module = remoteLoader.loaded(remote);
  return module ? { status: 'ready', module } : { status: 'loading' };
}

function RemoteSlot({ remote }: { remote: PortalRemote }) {
  const [slot, setSlot] = useState<{ remote: PortalRemote; state: SlotState }>(() => ({ remote, state: initialState(remote) }));
  // Another remote (or the same one registered afresh): start from what the loader has for it.
  let state = slot.state;
  if (slot.remote !== remote) {
    state = initialState(remote);
    setSlot({ remote, state });
  }
  const { pathname } = useLocation();

  useEffect(() => {
    let current = true;
    remoteLoader.load(remote).then(
      // A remote's first page is rendered as a transition, in short slices (no long task blocks the page).
      (module) =>
        current && startTransition(() => setSlot((s) => (s.remote === remote && s.state.status !== 'ready' ? { remote, state: { status: 'ready', module } } : s))),
      (error: unknown) => {
        console.error(error);
        if (current) setSlot((s) => (s.remote === remote ? { remote, state: { status: 'failed', error } } : s));
      },
    );
    return () => {
      current = false;
    };
  }, [remote]);

  const retry = useCallback(async () => {
    try {
      const module = await remoteLoader.retry(remote);
      setSlot({ remote, state: { status: 'ready', module } });
    } catch (error) {
      console.error(error);
      setSlot({ remote, state: { status: 'failed', error } });
    }
  }, [remote]);

  // The chrome is the same element whatever the state, so it stays mounted through loading;
  // a public page of a remote (a visitor's) shows none of the signed-in chrome.
  const route = state.status === 'ready' ? matchRoutes(routeObjects(state.module), pathname)?.[0]?.route : undefined;
  const isPublic = route !== undefined && state.status === 'ready' && state.module.routes[Number(route.id)]?.access.kind === 'public';
  return (
    <PortalLayout sidebar={!isPublic}>
      {state.status === 'loading' ? (
        <Loading />
      ) : state.status === 'failed' ? (
        <RemoteUnavailable onRetry={retry} />
      ) : (
        <RemoteRoutes remote={remote.name} module={state.module} onRetry={retry} />
      )}
    </PortalLayout>
  );
}

/** A remote's routes as the router's route objects, each with its index in `module.routes` as id. */
function routeObjects(module: RemoteModule) {
  return module.routes.map((route, i) => ({ id: String(i), path: route.path }));
}

function RemoteRoutes({ remote, module, onRetry }: { remote: string; module: RemoteModule; onRetry: () => Promise<void> }) {
  return useRoutes([
    ...module.routes.map((route) => ({
      path: route.path,
      element: <RemotePage remote={remote} route={route} onRetry={onRetry} />,
    })),
    { path: '*', element: <Navigate to={links.notFound()} replace /> },
  ]);
}

function RemotePage({ remote, route, onRetry }: { remote: string; route: RemoteRoute; onRetry: () => Promise<void> }) {
  const { Component } = route;
  // Keyed by remote: a page that failed does not leave another remote's pages failed.
  const page = (
    <RemoteErrorBoundary key={remote} remote={remote} onRetry={onRetry}>
      <Suspense fallback={<Loading />}>
        <Component />
      </Suspense>
    </RemoteErrorBoundary>
  );
  if (route.access.kind === 'public') return page;
  return <RequireAccess access={route.access}>{page}</RequireAccess>;
}
