/**
 * A request's details (spec section 2): what it says, its updates, and the decision panel when
 * this caller may decide something. An unknown request shows the not-found view in place, without
 * changing the URL (spec section 8); so does an id that is not a whole number (/list-account-requests/abc),
 * which is never sent.
 */
import { PageTitle } from '@portal/shared';
import { errorText, isNotFound, NotFoundView, useLoaded } from '@portal/shared/components';
import { getRequest } from '../api/requests';
import { Alert, Skeleton } from 'antd';
import { useCallback, type ComponentType } from 'react';
import { useParams } from 'react-router-dom';
import { DecisionPanel } from './DecisionPanel';
import type { KindConfig } from './kinds';
import { RequestFields } from './RequestFields';
import { UpdatesTable } from '@portal/shared/components';

export function requestDetailPage(config: KindConfig, title: string = config.detailTitle): ComponentType {
  function RequestDetailPage() {
    const { requestId = '' } = useParams<{ requestId: string }>();
    return /^[1-9][0-9]{0,14}$/.test(requestId) ? <RequestDetail requestId={requestId} /> : <NotFoundView />;
  }
  function RequestDetail({ requestId }: { requestId: string }) {
    const load = useCallback((signal: AbortSignal) => getRequest(config.kind, requestId, { signal }), [requestId]);
    const state = useLoaded(load);

    if (state.status === 'failed' && isNotFound(state.error)) return <NotFoundView />;
    return (
      <>
        <PageTitle>{title}</PageTitle>
        {state.status === 'loading' && <Skeleton active aria-busy="true" />}
        {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
        {state.status === 'ready' && (
          <>
            <RequestFields request={state.value} />
            <UpdatesTable updates={state.value.updates ?? []} />
            {(state.value.decisions ?? []).length > 0 && <DecisionPanel key={state.value.id} config={config} request={state.value} />}
          </>
        )}
      </>
    );
  }
  RequestDetailPage.displayName = `RequestDetailPage(${config.kind})`;
  return RequestDetailPage;
}
