import { lazy, Suspense, useEffect } from 'react';
import { StartupSkeleton } from './StartupSkeleton';

// The shell (antd, the router, the chrome) is a chunk of its own: the first render needs only
// react and react-dom, and paints the same frame that index.html painted.
const Shell = lazy(() => import(/* webpackChunkName: "shell" */ './shell/Shell'));

declare global {
  interface Window {
    /** The resources loaded before the first render (read by `npm run size`). */
    __PORTAL_FIRST_RENDER__?: string[];
  }
}

export function Root() {
  useEffect(() => {
    window.__PORTAL_FIRST_RENDER__ ??= performance.getEntriesByType('resource').map((entry) => entry.name);
  }, []);
  return (
    <Suspense fallback={<StartupSkeleton />}>
      <Shell />
    </Suspense>
  );
}
