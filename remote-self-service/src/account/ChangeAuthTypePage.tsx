/**
 * /change-auth-type, 'Request Authentication Type Change' (spec sections 2 and 5), only with
 * smart-card support (else /profile). An account that signs in with a CAC asks for a website
 * token, naming a government sponsor; a website-token account asks for CAC sign-in, the browser
 * presenting the card's certificate with the call. Success: /profile with 'Change
 * authentication type request sent.'.
 */
import { type Account, composeValidators, lengthAtMost, LIMITS, links, required, RULE_MESSAGES, sponsorEmailRules, withSponsor } from '@portal/api';
import { PageTitle, useConfiguration, useNavigateWithFeedback, useSessionStore } from '@portal/shared';
import { FormShell, submissionErrors, TextAreaField, TextField } from '@portal/shared/forms';
import { requestCertificateAuthentication, requestTokenAuthentication } from '../api/account';
import { Alert, Skeleton, Typography } from 'antd';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useAccount } from './useAccount';
import { PROFILE_LOAD_ERROR } from './ProfilePage';

export const TITLE = 'Request Authentication Type Change';
export const AUTH_CHANGE_REQUESTED = 'Change authentication type request sent.';
export const AUTH_CHANGE_ALREADY_PENDING = 'An authentication change request is already pending for this account.';
export const INSERT_CAC = 'Insert your CAC before you submit: your browser will ask you to choose its certificate, which is sent with the request.';

interface Values {
  sponsor_email?: string;
  reason?: string;
}

const FIELDS = ['sponsor_email', 'reason'];

const requiredReason = composeValidators(required(RULE_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason));
const optionalReason = lengthAtMost(LIMITS.reason);

/** Does the account sign in with a smart card? */
export const usesCertificate = (account: Pick<Account, 'authentication'>) => account.authentication?.includes('certificate') ?? false;

function AuthChangeForm({ account }: { account: Account }) {
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  const toToken = usesCertificate(account);

  const submit = async ({ sponsor_email, reason }: Values) => {
    try {
      if (toToken) await requestTokenAuthentication(withSponsor((reason ?? '').trim(), sponsor_email ?? ''));
      else await requestCertificateAuthentication(reason ?? '');
      navigateWithFeedback(links.profile(), AUTH_CHANGE_REQUESTED);
      return undefined;
    } catch (error) {
      return submissionErrors(error, FIELDS);
    }
  };

  return (
    <FormShell<Values>
      onSubmit={submit}
      aria-label={toToken ? 'Change from CAC to website token' : 'Change from website token to CAC'}
      submitLabel="Submit Request"
      cancel={{ onClick: () => navigate(links.profile()) }}
      style={{ maxWidth: 560 }}
    >
      <Typography.Title level={3} style={{ fontSize: 18 }}>
        {toToken ? 'From CAC to website token' : 'From website token to CAC'}
      </Typography.Title>
      {toToken ? (
        <>
          <Typography.Paragraph>
            Your account signs in with a CAC. To sign in with a username and website token instead, name the US Government sponsor who supports
            the change and give your reason.
          </Typography.Paragraph>
          <TextField name="sponsor_email" label="Government sponsor email" type="email" maxLength={254} validate={sponsorEmailRules} />
          <TextAreaField name="reason" label="Reason" maxLength={LIMITS.reason} rows={3} validate={requiredReason} />
        </>
      ) : (
        <>
          <Typography.Paragraph>Your account signs in with a website token. Ask to sign in with your CAC instead.</Typography.Paragraph>
          <Alert type="warning" showIcon role="note" title={INSERT_CAC} style={{ marginBottom: 16 }} />
          <TextAreaField name="reason" label="Reason (optional)" maxLength={LIMITS.reason} rows={3} validate={optionalReason} />
        </>
      )}
    </FormShell>
  );
}

function ChangeAuthType() {
  const username = useSessionStore((s) => s.session?.username);
  const state = useAccount(username);
  return (
    <>
      <PageTitle>{TITLE}</PageTitle>
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && (
        <Alert type="error" showIcon role="alert" title={PROFILE_LOAD_ERROR} description={state.error instanceof Error ? state.error.message : undefined} />
      )}
      {state.status === 'ready' &&
        (state.value.auth_change_pending ? (
          <Alert type="info" showIcon role="status" title={AUTH_CHANGE_ALREADY_PENDING} description={<Link to={links.profile()}>Back to your profile</Link>} />
        ) : (
          <AuthChangeForm account={state.value} />
        ))}
    </>
  );
}

export function ChangeAuthTypePage() {
  const { cac_support } = useConfiguration();
  if (!cac_support) return <Navigate to={links.profile()} replace />;
  return <ChangeAuthType />;
}
