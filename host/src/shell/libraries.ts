/**
 * What the shell's libraries are started by, a task ahead of the shell itself (Root.tsx; shorter tasks,
 * less blocking time): importing these evaluates the router, and @portal/shared with antd's first part
 * (shared singletons of the host's first file). Named, not whole: a build without federation
 * (scripts/monolith) keeps only what they need. Imported, then exported: the apps reach the
 * router only by named imports (shared/src/router-set.test.ts).
 */
import { BrowserRouter } from 'react-router-dom';
import { useSessionStore } from '@portal/shared';

export { BrowserRouter, useSessionStore };
