import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { AccountGroup } from '@portal/api';
import { TableLoadBoundary } from './TableLoadBoundary.js';

// The table is a chunk of its own, so that /profile's heading does not wait for it: it brings antd's tables' part (the table, the pager's
// select, the selection's checkboxes: 84 KB brotli), which the rest of the profile and of the
// account administration screen do not need. It is fetched when the table is first shown, so those
// screens draw their heading and the account's details without waiting for it.
const Table = lazy(() => import(/* webpackChunkName: "account-groups-table" */ './AccountGroupsTableView.js'));

/** What the groups' place says when the table's code could not be loaded (the rest of the page stays). */
export const GROUPS_LOAD_ERROR = 'The groups could not be shown. Reload the page to try again.';

export interface AccountGroupsTableProps {
  readonly groups: readonly AccountGroup[] | undefined;
  readonly emptyText: string;
  /**
   * The account's username, for a surrogate (SUBMIT_SURROGATE_REQUEST, held in every group): a
   * Membership column links each group's Change Membership page for that account, where Remove
   * User From Group is.
   */
  readonly surrogateFor?: string;
}


/**
 * An account's groups (spec section 2, the profile and the Account administration screen): the
 * group linked to /group-administration/{group}, the role, the Jira notification level and the
 * special permissions (and, for a surrogate, the change of each membership); `emptyText` when
 * there are none. A few lines' placeholder while the table's code loads.
 */
export function AccountGroupsTable(props: AccountGroupsTableProps) {
  return (
    <TableLoadBoundary message={GROUPS_LOAD_ERROR}>
      <Suspense
        fallback={
          <div role="status" aria-busy="true" aria-label="Loading the groups">
            <Skeleton active title={false} paragraph={{ rows: 2 }} />
          </div>
        }
      >
        <Table {...props} />
      </Suspense>
    </TableLoadBoundary>
  );
}
