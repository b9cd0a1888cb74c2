/**
 * /manage-accounts, Search Accounts (spec sections 2, 4, 5 and 9): one search box, a Search
 * button, a table of 30 a page with Previous and Next above and below, 'No results found.' when
 * empty. The term and the page are kept in the URL (?term=…&start=…) so Back and a reload show the
 * same results; the account page is told where to come back to.
 */
import { links } from '@portal/api';
import { PageTitle, useHasPermission } from '@portal/shared';
import { AccountSearchTable, errorText, SEARCH_LABEL, SearchForm, useLoaded, useSearchQuery } from '@portal/shared/components';
import { searchAccounts } from '../api/accountAdmin';
import { Alert } from 'antd';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';

export { activeText, NO_RESULTS, SEARCH_LABEL } from '@portal/shared/components';

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
  return (
    <>
      <PageTitle>Search Accounts</PageTitle>
      <SearchForm name="Accounts" label={SEARCH_LABEL} term={term} searching={state.status === 'loading'} onSearch={search} />
      {/* Spec section 8: "Account search error in red." */}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {(state.status === 'ready' || state.status === 'loading') && (
        <AccountSearchTable
          state={state}
          start={start}
          onPage={goTo}
          usernameCell={(username) =>
            canView ? (
              <Link to={links.manageAccounts(username)} state={{ from }}>
                {username}
              </Link>
            ) : (
              username
            )
          }
        />
      )}
    </>
  );
}
