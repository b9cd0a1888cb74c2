/**
 * The results of an account search (spec section 2, "Search Accounts"): last name, first name,
 * username, email and the active flag, 30 a page with Previous and Next above and below, 'No
 * results found.' when empty. Search Accounts links the username to the account; Add User To
 * Group links it to the add form.
 */
import { accountStatus, type AccountSearchPage, type AccountSearchRow, type AccountStatus } from '@portal/api';
import type { TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { PagedTable } from './Pager.js';
import type { Loaded } from './useLoaded.js';

/** Spec section 8. */
export const NO_RESULTS = 'No results found.';
export const SEARCH_LABEL = 'Search by username, first name, last name or email';

const ACTIVE_TEXT: Record<AccountStatus, string> = { Active: 'Yes', Closed: 'Closed', Locked: 'No' };

/** The Active column, from the one display status (`accountStatus`): 'Closed', else whether it is active. */
export const activeText = (row: Pick<AccountSearchRow, 'active' | 'closed'>) => ACTIVE_TEXT[accountStatus(row)];

export interface AccountSearchTableProps {
  readonly state: Loaded<AccountSearchPage>;
  readonly start: number;
  onPage(start: number): void;
  /** The username cell (a link where the reader may go on); default: the username. */
  readonly usernameCell?: (username: string) => ReactNode;
}

export function AccountSearchTable({ state, start, onPage, usernameCell = (username) => username }: AccountSearchTableProps) {
  const page = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const columns: TableColumnsType<AccountSearchRow> = [
    { title: 'Last Name', dataIndex: 'last_name', key: 'last_name' },
    { title: 'First Name', dataIndex: 'first_name', key: 'first_name' },
    { title: 'Username', dataIndex: 'username', key: 'username', render: (username: string) => usernameCell(username) },
    { title: 'Email', dataIndex: 'email', key: 'email' },
    { title: 'Active', key: 'active', render: (_: unknown, row: AccountSearchRow) => activeText(row) },
  ];
  return (
    <PagedTable<AccountSearchRow>
      rowKey="username"
      rows={page?.rows ?? []}
      columns={columns}
      start={start}
      hasMore={page?.has_more_results ?? false}
      loading={state.status === 'loading'}
      emptyText={NO_RESULTS}
      onPage={onPage}
    />
  );
}
