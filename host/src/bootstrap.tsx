import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bootData, ENVIRONMENT_URL, prefetch } from './prefetch';
import { Root } from './Root';

// The environment manifest: carried by the first HTML (no round trip: the shell takes it from
// there, shell/startup.ts), else asked for now, in parallel with loading the shell.
if (!bootData()?.environment) prefetch(ENVIRONMENT_URL, { cache: 'no-store', headers: { Accept: 'application/json' } });

declare global {
  interface Window {
    /** What was loaded before the first render: exactly what it needed (read by `npm run size`). */
    __PORTAL_FIRST_RENDER__?: string[];
  }
}
window.__PORTAL_FIRST_RENDER__ = performance.getEntriesByType('resource').map((entry) => entry.name);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const root = createRoot(container);
startTransition(() =>
  root.render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
