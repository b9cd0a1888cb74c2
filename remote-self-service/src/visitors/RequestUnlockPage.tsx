/**
 * /request-unlock (spec sections 2 and 4): verification (the code step's 403 counts as verified:
 * a locked account, and a closed one, whose request the server refuses with 401 → the unable
 * view rather than stopping at the code step, so the person learns why), then the reason; the views are form,
 * success, unable and error, chosen by the answer's code.
 */
import { composeValidators, lengthAtMost, LIMITS, links, required, RULE_MESSAGES } from '@portal/api';
import { ApiError, PageTitle } from '@portal/shared';
import { FormShell, TextAreaField } from '@portal/shared/forms';
import { Alert, Result } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { requestUnlock, type Verified } from '../api/visitors';
import { VerificationFlow } from './VerificationFlow';

export const UNLOCK_RECEIVED = 'Your unlock account request has been received. The approval process may take a few days.';
export const UNLOCK_UNABLE = 'Unlock request cannot be submitted at this time.';
const reasonValidator = composeValidators(required(RULE_MESSAGES.unlockReason), lengthAtMost(LIMITS.reason));

type View = { kind: 'form' } | { kind: 'success' } | { kind: 'unable' } | { kind: 'error'; message: string };

/** Spec section 4: 200, 400 and 500 → received; 401 → unable; others → the server's error. */
export function viewOfUnlockAnswer(error: unknown): View {
  if (!(error instanceof ApiError)) return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  if (error.status === 400 || error.status === 500) return { kind: 'success' };
  if (error.status === 401) return { kind: 'unable' };
  return { kind: 'error', message: error.message };
}

export function RequestUnlockPage() {
  return (
    <>
      <PageTitle>Request Unlock</PageTitle>
      <VerificationFlow purpose="to request that your account be unlocked" acceptForbidden>
        {(verified) => <UnlockForm verified={verified} />}
      </VerificationFlow>
    </>
  );
}

function UnlockForm({ verified }: { verified: Verified }) {
  const [view, setView] = useState<View>({ kind: 'form' });

  if (view.kind === 'success') return <Result status="success" title={UNLOCK_RECEIVED} extra={<Link to={links.login()}>Back to Sign-In</Link>} />;
  if (view.kind === 'unable') return <Result status="warning" title={UNLOCK_UNABLE} extra={<Link to={links.login()}>Back to Sign-In</Link>} />;

  const submit = async ({ reason }: { reason: string }) => {
    try {
      await requestUnlock(verified, reason.trim());
      setView({ kind: 'success' });
    } catch (error) {
      setView(viewOfUnlockAnswer(error));
    }
  };

  return (
    <FormShell<{ reason: string }>
      onSubmit={submit}
      aria-label="Unlock request"
      submitLabel="Submit Unlock Request"
      style={{ maxWidth: 720 }}
      footer={view.kind === 'error' && <Alert type="error" showIcon role="alert" title={view.message} style={{ marginTop: 16 }} />}
    >
      <TextAreaField name="reason" label="Reason" maxLength={LIMITS.reason} validate={reasonValidator} />
    </FormShell>
  );
}
