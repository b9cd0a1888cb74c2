import { lazy, Suspense } from 'react';
import { StartupSkeleton } from './StartupSkeleton';

// The shell (antd, the router, the chrome) is a chunk of its own: the first render needs only
// react and react-dom, and paints the same frame that index.html painted.
const Shell = lazy(() => import(/* webpackChunkName: "shell" */ './shell/Shell'));

export function Root() {
  return (
    <Suspense fallback={<StartupSkeleton />}>
      <Shell />
    </Suspense>
  );
}
