import { lazy, Suspense } from 'react';
import { nextTask } from './nextTask';
import { StartupSkeleton } from './StartupSkeleton';

// The shell (antd, the router, the chrome) is a chunk of its own: the first render needs only
// react and react-dom, and paints the same frame that index.html painted. Its libraries are
// started in a task of their own (shell/libraries.ts), then the shell: shorter tasks, not one
// long one, while the first page starts (a long task is blocking time on a phone).
const Shell = lazy(async () => {
  await nextTask();
  await import(/* webpackMode: "eager" */ './shell/libraries');
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
