/**
 * /manage-accounts, Search Accounts (spec sections 2, 4, 5 and 9): one search box, a Search
 * button, a table of 30 a page with Previous and Next above and below, 'No results found.' when
 * empty. The term and the page are kept in the URL (?term=…&start=…) so Back and a reload show the
 * same results; the account page is told where to come back to.
 */
import { type AccountSearchRow, links } from '@portal/api';
import { PageTitle, useHasPermission } from '@portal/shared';
import { errorText, PagedTable, SearchForm, useLoaded, useSearchQuery } from '@portal/shared/components';
import { searchAccounts } from '../api/accountAdmin';
import { Alert, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';

/** Spec section 8. */
export const NO_RESULTS = 'No results found.';
export const SEARCH_LABEL = 'Search by username, first name, last name or email';

/** The Active column: 'Closed' for a closed account, else whether it is active. */
export const activeText = (row: Pick<AccountSearchRow, 'active' | 'closed'>) => (row.closed ? 'Closed' : row.active ? 'Yes' : 'No');

export function SearchAccountsPage() {
  const { term, start, again, search, goTo } = useSearchQuery();
  const canView = useHasPermission('VIEW_ACCOUNT');
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;
  const load = useMemo(
    () => (term.trim() === '' ? undefined : (signal: AbortSignal) => searchAccounts({ term, start_index: start }, { signal })),
    [term, start],
  );
  const state = useLoaded(load, again);
  const page = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const rows = page?.rows ?? [];
  const loading = state.status === 'loading';

  const columns: TableColumnsType<AccountSearchRow> = [
    { title: 'Last Name', dataIndex: 'last_name', key: 'last_name' },
    { title: 'First Name', dataIndex: 'first_name', key: 'first_name' },
    {
      title: 'Username',
      dataIndex: 'username',
      key: 'username',
      render: (username: string) =>
        canView ? (
          <Link to={links.manageAccounts(username)} state={{ from }}>
            {username}
          </Link>
        ) : (
          username
        ),
    },
    { title: 'Email', dataIndex: 'email', key: 'email' },
    { title: 'Active', key: 'active', render: (_: unknown, row: AccountSearchRow) => activeText(row) },
  ];

  return (
    <>
      <PageTitle>Search Accounts</PageTitle>
      <SearchForm name="Accounts" label={SEARCH_LABEL} term={term} searching={loading} onSearch={search} />
      {/* Spec section 8: "Account search error in red." */}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {(state.status === 'ready' || state.status === 'loading') && (
        <PagedTable<AccountSearchRow>
          rowKey="username"
          rows={rows}
          columns={columns}
          start={start}
          hasMore={page?.has_more_results ?? false}
          loading={loading}
          emptyText={NO_RESULTS}
          onPage={goTo}
        />
      )}
    </>
  );
}
