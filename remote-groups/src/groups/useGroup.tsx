/**
 * Loading the group a page is about (spec sections 6 and 8): 403, or a group the caller has no
 * permission in (when the page needs one), goes to /groups; 404 shows the not-found view without
 * changing the URL; other failures show the server's text.
 */
import { links, type GroupPermission, type UserGroup } from '@portal/api';
import { ApiError } from '@portal/shared';
import { errorText, isNotFound, NotFoundView, useLoaded } from '@portal/shared/components';
import { Alert, Skeleton } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { getGroup } from '../api/groups';

const isForbidden = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.code === 403);

/**
 * Renders `children` with the group once it is loaded, else what spec section 8 says; `needs`
 * sends a caller without that permission in the group to /groups.
 */
export function WithGroup({
  id,
  needs,
  children,
}: {
  readonly id: string;
  readonly needs?: GroupPermission | 'any';
  readonly children: (group: UserGroup, reload: () => void) => ReactNode;
}) {
  const [again, setAgain] = useState(0);
  const load = useCallback((signal: AbortSignal) => getGroup(id, { signal }), [id]);
  const state = useLoaded(load, again);
  const reload = useCallback(() => setAgain((n) => n + 1), []);
  const shown = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  if (state.status === 'failed') {
    if (isNotFound(state.error)) return <NotFoundView />;
    if (isForbidden(state.error)) return <Navigate to={links.groups()} replace />;
    return <Alert type="error" showIcon role="alert" title={errorText(state.error)} />;
  }
  if (!shown) return <Skeleton active aria-busy="true" />;
  if (needs === 'any' && shown.permissions.length === 0) return <Navigate to={links.groups()} replace />;
  if (needs && needs !== 'any' && !shown.permissions.includes(needs)) return <Navigate to={links.groups()} replace />;
  return <>{children(shown, reload)}</>;
}
