/**
 * The list of groups /groups shows (spec section 7, "Groups and memberships"). A module of its
 * own: the table's page, the remote's first, then brings only this call's definition, not those of
 * every group page (groups.ts), which its other pages load with their own code.
 */
import { listUserGroups, type UserGroupSummary } from '@portal/api';
import { call } from '@portal/shared';

export async function listGroups(options: { readonly signal?: AbortSignal } = {}): Promise<readonly UserGroupSummary[]> {
  return (await call(listUserGroups, {}, options)).rows;
}
