/**
 * A request queue (spec section 2): the kind's open requests, 30 to a page, oldest first; the
 * page's start is kept in the URL (?start=30) so Back and a reload show the same page.
 */
import { PageTitle } from '@portal/shared';
import { Alert } from 'antd';
import { useCallback, type ComponentType } from 'react';
import { useSearchQuery } from '../components/SearchForm.js';
import { errorText, useLoaded } from '../components/useLoaded.js';
import { listRequests } from './api.js';
import type { KindConfig } from './queue.js';
import { QueueTable } from './QueueTable.js';

/** Spec section 8, the empty queue. */
export const NO_OPEN_REQUESTS = 'There are no requests open at this time.';

export function requestListPage(config: KindConfig): ComponentType {
  function RequestListPage() {
    const { start, goTo } = useSearchQuery();
    const load = useCallback((signal: AbortSignal) => listRequests(config.definition, start, { signal }), [start]);
    const state = useLoaded(load);
    return (
      <>
        <PageTitle>{config.listTitle}</PageTitle>
        {state.status === 'failed' ? (
          <Alert type="error" showIcon role="alert" title={errorText(state.error)} />
        ) : (
          <QueueTable config={config} state={state} start={start} emptyText={NO_OPEN_REQUESTS} onPage={goTo} />
        )}
      </>
    );
  }
  RequestListPage.displayName = `RequestListPage(${config.kind})`;
  return RequestListPage;
}
