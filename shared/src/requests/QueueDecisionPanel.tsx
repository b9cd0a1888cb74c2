/**
 * A queue's decision panel: the DecisionPanel of @portal/shared/components with the kind's buttons,
 * comment limit and feedback; after a decision, the list or back where the adjudicator came from.
 */
import type { RequestDetailOf } from '@portal/api';
import { useNavigateWithFeedback } from '@portal/shared';
import { useLocation } from 'react-router-dom';
import { cameFrom } from '../components/cameFrom.js';
import { DecisionPanel } from '../components/DecisionPanel.js';
import { decideRequest } from './api.js';
import type { KindConfig, QueueKind } from './queue.js';

export function QueueDecisionPanel({ config, request }: { config: KindConfig; request: RequestDetailOf<QueueKind> }) {
  const navigateWithFeedback = useNavigateWithFeedback();
  const location = useLocation();
  return (
    <DecisionPanel
      request={request}
      buttons={config.buttons}
      commentLimit={config.commentLimit}
      describe={`${config.detailTitle} ${request.id}`}
      decide={(decision, comment) => decideRequest(config.definition, request.id, decision, comment)}
      onDecided={(decision) => {
        const destination = config.returnTo === 'previous' ? (cameFrom(location.state) ?? config.listPath) : config.listPath;
        navigateWithFeedback(destination, config.feedback(decision, request));
      }}
    />
  );
}
