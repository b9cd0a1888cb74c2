import type { ReactNode } from 'react';
import { PortalLayout } from '../shell/PortalLayout';

/** The host's own pages (login, logout, not found, not authorized): the chrome without a sidebar. */
export function HostPage({ children }: { children: ReactNode }) {
  return <PortalLayout sidebar={false}>{children}</PortalLayout>;
}
