/**
 * A queue's decision panel: @portal/shared/components' DecisionPanel with the kind's buttons,
 * comment limit and feedback; after a decision, the list or back where the adjudicator came from.
 */
import type { RequestDetailOf } from '@portal/api';
import { useNavigateWithFeedback } from '@portal/shared';
import { cameFrom, DecisionPanel as SharedDecisionPanel } from '@portal/shared/components';
import { useLocation } from 'react-router-dom';
import { decideRequest } from '../api/requests';
import type { KindConfig, QueueKind } from './kinds';

export { CONFIRM_APPROVAL } from '@portal/shared/components';

export function DecisionPanel({ config, request }: { config: KindConfig; request: RequestDetailOf<QueueKind> }) {
  const navigateWithFeedback = useNavigateWithFeedback();
  const location = useLocation();
  return (
    <SharedDecisionPanel
      request={request}
      buttons={config.buttons}
      commentLimit={config.commentLimit}
      describe={`${config.detailTitle} ${request.id}`}
      decide={(decision, comment) => decideRequest(config.kind, request.id, decision, comment)}
      onDecided={(decision) => {
        const destination = config.returnTo === 'previous' ? (cameFrom(location.state) ?? config.listPath) : config.listPath;
        navigateWithFeedback(destination, config.feedback(decision, request));
      }}
    />
  );
}
