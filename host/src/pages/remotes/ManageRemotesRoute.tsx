/** /manage-remotes: the host's own page for platform administrators, loaded only when opened. */
import { links } from '@portal/api';
import { lazy, Suspense } from 'react';
import { Loading } from '../../shell/Loading';
import { PortalLayout } from '../../shell/PortalLayout';
import { RequireAccess } from '../../shell/RequireAccess';

export const MANAGE_REMOTES_PATH = links.manageRemotes();

const ManageRemotesPage = lazy(() => import('./ManageRemotesPage'));

export function ManageRemotesRoute() {
  return (
    <PortalLayout sidebar>
      <RequireAccess access={{ kind: 'permission', permission: 'MANAGE_REMOTES' }}>
        <Suspense fallback={<Loading />}>
          <ManageRemotesPage />
        </Suspense>
      </RequireAccess>
    </PortalLayout>
  );
}
