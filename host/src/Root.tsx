import { lazy, Suspense } from 'react';
import { nextTask } from './nextTask';
import { StartupSkeleton } from './StartupSkeleton';

// The shell (antd, the router, the chrome) is a chunk of its own: the first render needs only
// react and react-dom, and paints the same frame that index.html painted. Its libraries are
// started one task each (the router; @portal/shared with antd's first part), then the shell:
// several short tasks, not one long one, while the first page starts (issue 17, blocking time).
const Shell = lazy(async () => {
  await nextTask();
  await import('react-router-dom');
  await nextTask();
  await import('@portal/shared');
  await nextTask();
  return import(/* webpackChunkName: "shell" */ './shell/Shell');
});

export function Root() {
  return (
    <Suspense fallback={<StartupSkeleton />}>
      <Shell />
    </Suspense>
  );
}
