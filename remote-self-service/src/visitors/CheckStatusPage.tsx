/**
 * /check-account-request-status (spec sections 2 and 4): after verification the applicant sees
 * the request's status and the adjudicator's comment; when the adjudicator asked for more
 * information the applicant answers here, and the request goes back to the queue.
 */
import { composeValidators, lengthAtMost, LIMITS, links, required, RULE_MESSAGES } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { FormShell, submissionErrors, TextAreaField } from '@portal/shared/forms';
import { errorText, useLoaded } from '@portal/shared/components';
import { Alert, Descriptions, Result, Spin } from 'antd';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { getRequestStatus, respondToRequest, type Verified } from '../api/visitors';
import { VerificationFlow } from './VerificationFlow';

export const RESPONSE_RECEIVED = 'Your response has been received. Your request is back in the queue for review.';
const responseValidator = composeValidators(required(RULE_MESSAGES.responseRequired), lengthAtMost(LIMITS.comment));

const STATUS_TEXT: Record<string, string> = {
  pending: 'Pending review',
  incomplete: 'More information needed',
  approved: 'Approved',
  denied: 'Denied',
};

export function CheckStatusPage() {
  return (
    <>
      <PageTitle>Check Account Request Status</PageTitle>
      <VerificationFlow purpose="to check the status of your account request" forAccountRequests>
        {(verified) => <StatusView verified={verified} />}
      </VerificationFlow>
    </>
  );
}

function StatusView({ verified }: { verified: Verified }) {
  const load = useCallback((signal: AbortSignal) => getRequestStatus(verified, { signal }), [verified]);
  const state = useLoaded(load);
  const [responded, setResponded] = useState(false);

  if (state.status === 'failed') {
    return (
      <>
        <Alert type="error" showIcon role="alert" title={errorText(state.error)} />
        <Link to={links.login()} style={{ display: 'inline-block', marginTop: 16 }}>
          Back to Sign-In
        </Link>
      </>
    );
  }
  if (state.status !== 'ready') return <Spin description="Loading the request…" />;
  const status = state.value;
  if (responded) {
    return <Result status="success" title={RESPONSE_RECEIVED} extra={<Link to={links.login()}>Back to Sign-In</Link>} />;
  }

  const submit = async ({ comment }: { comment: string }) => {
    try {
      await respondToRequest(verified, { username: status.username, comment: comment.trim() });
      setResponded(true);
      return undefined;
    } catch (cause) {
      return submissionErrors(cause);
    }
  };

  return (
    <>
      <Descriptions bordered column={1} size="small" style={{ maxWidth: 720, marginBottom: 24 }}>
        <Descriptions.Item label="Username">{status.username}</Descriptions.Item>
        <Descriptions.Item label="Status">{STATUS_TEXT[status.status] ?? status.status}</Descriptions.Item>
        <Descriptions.Item label="Comment">{status.comment || 'None'}</Descriptions.Item>
      </Descriptions>
      {status.awaiting_response && (
        <FormShell<{ comment: string }> onSubmit={submit} aria-label="Response to the adjudicator" submitLabel="Submit Response" style={{ maxWidth: 720 }}>
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title="More information is needed to review your request. Please answer the comment above."
          />
          <TextAreaField name="comment" label="Your response" maxLength={LIMITS.comment} validate={responseValidator} rows={5} />
        </FormShell>
      )}
      {/* Every result has a way back, whatever the status. */}
      <Link to={links.login()} style={{ display: 'inline-block', marginTop: 16 }}>
        Back to Sign-In
      </Link>
    </>
  );
}
