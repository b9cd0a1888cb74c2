import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { AccountGroup } from '@portal/api';

// The table is a chunk of its own (issue 17): it brings antd's tables' part (the table, the pager's
// select, the selection's checkboxes: 84 KB brotli), which the rest of the profile and of the
// account administration screen do not need. It is fetched when the table is first shown, so those
// screens draw their heading and the account's details without waiting for it.
const Table = lazy(() => import(/* webpackChunkName: "account-groups-table" */ './AccountGroupsTableView.js'));

export interface AccountGroupsTableProps {
  readonly groups: readonly AccountGroup[] | undefined;
  readonly emptyText: string;
}

/**
 * An account's groups (spec section 2, the profile and the Account administration screen): the
 * group linked to /group-administration/{group}, the role, the Jira notification level and the
 * special permissions; `emptyText` when there are none. A few lines' placeholder while the table's
 * code loads.
 */
export function AccountGroupsTable(props: AccountGroupsTableProps) {
  return (
    <Suspense
      fallback={
        <div role="status" aria-busy="true" aria-label="Loading the groups">
          <Skeleton active title={false} paragraph={{ rows: 2 }} />
        </div>
      }
    >
      <Table {...props} />
    </Suspense>
  );
}
