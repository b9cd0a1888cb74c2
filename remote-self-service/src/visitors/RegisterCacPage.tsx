/**
 * /register-cac (spec sections 2 and 4): only with smart-card support (else /login). After
 * verification the browser presents the smart card's certificate with the call; the success
 * text depends on whether registrations are approved automatically.
 */
import { lengthAtMost, LIMITS, links } from '@portal/api';
import { PageTitle, useConfiguration } from '@portal/shared';
import { FormShell, submissionErrors, TextAreaField } from '@portal/shared/forms';
import { Alert, Result } from 'antd';
import { useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { registerCac, type Verified } from '../api/visitors';
import { VerificationFlow } from './VerificationFlow';

export const CAC_REGISTERED = 'Success! You may now use your CAC to log in.';
export const CAC_REQUESTED = 'Request submitted. You will be notified when it is approved.';
export const INSERT_CAC = 'Insert your CAC before you continue: your browser will ask you to choose its certificate.';

export function RegisterCacPage() {
  const { cac_support } = useConfiguration();
  if (!cac_support) return <Navigate to={links.login()} replace />;
  return (
    <>
      <PageTitle>Register CAC</PageTitle>
      <VerificationFlow purpose="to register your CAC">{(verified) => <RegisterForm verified={verified} />}</VerificationFlow>
    </>
  );
}

function RegisterForm({ verified }: { verified: Verified }) {
  const { auto_cert_registration_approval } = useConfiguration();
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <Result
        status="success"
        title={auto_cert_registration_approval ? CAC_REGISTERED : CAC_REQUESTED}
        extra={<Link to={links.login()}>Back to Sign-In</Link>}
      />
    );
  }

  const submit = async ({ reason }: { reason?: string }) => {
    try {
      await registerCac(verified, reason?.trim() || 'Reason optional');
      setDone(true);
      return undefined;
    } catch (error) {
      return submissionErrors(error);
    }
  };

  return (
    <FormShell<{ reason?: string }> onSubmit={submit} aria-label="Register CAC" submitLabel="Register CAC" style={{ maxWidth: 720 }}>
      <Alert type="info" showIcon title={INSERT_CAC} style={{ marginBottom: 16 }} />
      <TextAreaField name="reason" label="Reason (optional)" maxLength={LIMITS.reason} validate={lengthAtMost(LIMITS.reason)} />
    </FormShell>
  );
}
