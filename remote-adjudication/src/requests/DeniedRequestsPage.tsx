/**
 * /list-denied-account-requests (spec section 2, "Denied Account Requests"): a search of denied
 * new account requests; it runs only with a non-empty trimmed term. The term and the page are
 * kept in the URL; the rows are the queues' list, their details the new account's.
 */
import { PageTitle } from '@portal/shared';
import { errorText, SearchForm, useLoaded, useSearchQuery } from '@portal/shared/components';
import { searchDeniedRequests } from '../api/requests';
import { Alert } from 'antd';
import { useMemo } from 'react';
import { DENIED, KINDS } from './kinds';
import { QueueTable } from '@portal/shared/requests';

/** Spec section 8. */
export const NO_DENIED_REQUESTS = 'No denied requests found.';
export const DENIED_SEARCH_LABEL = 'Search by username, first name, last name or email';

export function DeniedRequestsPage() {
  const { term, start, again, search, goTo } = useSearchQuery();
  const load = useMemo(
    () => (term.trim() === '' ? undefined : (signal: AbortSignal) => searchDeniedRequests(term, start, { signal })),
    [term, start],
  );
  const state = useLoaded(load, again);
  return (
    <>
      <PageTitle>{DENIED.title}</PageTitle>
      <SearchForm name="Denied account requests" label={DENIED_SEARCH_LABEL} term={term} searching={state.status === 'loading'} onSearch={search} />
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {(state.status === 'ready' || state.status === 'loading') && (
        <QueueTable
          config={KINDS.new}
          state={state}
          start={start}
          emptyText={NO_DENIED_REQUESTS}
          detailsPath={(row) => `${DENIED.path}/${row.id}`}
          onPage={goTo}
        />
      )}
    </>
  );
}
