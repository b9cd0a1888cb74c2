import { links } from '@portal/api';
import { remoteForPath, type RemoteModule, type RemoteRoute } from '@portal/shared';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, useLocation, useRoutes } from 'react-router-dom';
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
  return <RemoteSlot key={remote.name} remote={remote} />;
}

type SlotState =
  | { status: 'loading' }
  | { status: 'ready'; module: RemoteModule }
  | { status: 'failed'; error: unknown };

function RemoteSlot({ remote }: { remote: PortalRemote }) {
  const [state, setState] = useState<SlotState>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    remoteLoader.load(remote).then(
      (module) => current && setState({ status: 'ready', module }),
      (error: unknown) => {
        console.error(error);
        if (current) setState({ status: 'failed', error });
      },
    );
    return () => {
      current = false;
    };
  }, [remote]);

  const retry = useCallback(async () => {
    try {
      const module = await remoteLoader.retry(remote);
      setState({ status: 'ready', module });
    } catch (error) {
      console.error(error);
      setState({ status: 'failed', error });
    }
  }, [remote]);

  if (state.status === 'loading') {
    return (
      <PortalLayout sidebar>
        <Loading />
      </PortalLayout>
    );
  }
  if (state.status === 'failed') {
    return (
      <PortalLayout sidebar>
        <RemoteUnavailable onRetry={retry} />
      </PortalLayout>
    );
  }
  return <RemoteRoutes remote={remote.name} module={state.module} onRetry={retry} />;
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
  const page = (
    <RemoteErrorBoundary remote={remote} onRetry={onRetry}>
      <Suspense fallback={<Loading />}>
        <Component />
      </Suspense>
    </RemoteErrorBoundary>
  );
  if (route.access.kind === 'public') return <PortalLayout sidebar={false}>{page}</PortalLayout>;
  return (
    <PortalLayout sidebar>
      <RequireAccess access={route.access}>{page}</RequireAccess>
    </PortalLayout>
  );
}
