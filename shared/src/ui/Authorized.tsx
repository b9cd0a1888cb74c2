import type { ReactNode } from 'react';
import type { Permission } from '@portal/api';
import { useHasPermission } from '../stores/session.js';

/** Shows its children only to a user holding the permission. The server refuses the rest anyway. */
export function Authorized({ permission, children, fallback = null }: { permission: Permission; children: ReactNode; fallback?: ReactNode }) {
  return <>{useHasPermission(permission) ? children : fallback}</>;
}
