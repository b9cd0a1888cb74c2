/**
 * A request's details (spec section 2): what it says, its updates, and the decision panel when
 * this caller may decide something. An unknown request shows the not-found view in place, without
 * changing the URL (spec section 8); so does an id that is not a whole number (/list-account-requests/abc),
 * which is never sent.
 */
import { PageTitle } from '@portal/shared';
import { Alert, Skeleton } from 'antd';
import { useCallback, type ComponentType } from 'react';
import { useParams } from 'react-router-dom';
import { isNotFound, NotFoundView } from '../components/NotFoundView.js';
import { UpdatesTable } from '../components/UpdatesTable.js';
import { errorText, useLoaded } from '../components/useLoaded.js';
import { getRequest } from './api.js';
import type { KindConfig } from './queue.js';
import { QueueDecisionPanel } from './QueueDecisionPanel.js';
import { RequestFields } from './RequestFields.js';

export function requestDetailPage(config: KindConfig, title: string = config.detailTitle): ComponentType {
  function RequestDetailPage() {
    const { requestId = '' } = useParams<{ requestId: string }>();
    return /^[1-9][0-9]{0,14}$/.test(requestId) ? <RequestDetail requestId={requestId} /> : <NotFoundView />;
  }
  function RequestDetail({ requestId }: { requestId: string }) {
    const load = useCallback((signal: AbortSignal) => getRequest(config.definition, requestId, { signal }), [requestId]);
    const state = useLoaded(load);

    if (state.status === 'failed' && isNotFound(state.error)) return <NotFoundView />;
    return (
      <>
        <PageTitle>{title}</PageTitle>
        {state.status === 'loading' && <Skeleton active aria-busy="true" />}
        {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
        {state.status === 'ready' && (
          <>
            <RequestFields config={config} request={state.value} />
            <UpdatesTable updates={state.value.updates ?? []} />
            {(state.value.decisions ?? []).length > 0 && <QueueDecisionPanel key={state.value.id} config={config} request={state.value} />}
          </>
        )}
      </>
    );
  }
  RequestDetailPage.displayName = `RequestDetailPage(${config.kind})`;
  return RequestDetailPage;
}
