/**
 * The verification flow (spec sections 2 and 4): the visitor's email and the security
 * challenge, then the 6-digit code mailed to that address, then the page's content, which
 * receives the verified address and code (its calls carry the code as a Bearer token).
 */
import { composeValidators, email as emailRule, links, required, RULE_MESSAGES, VERIFICATION_CODE } from '@portal/api';
import { ApiError, SecurityChallenge, useChallengeSolution } from '@portal/shared';
import { FormShell, submissionErrors, TextField } from '@portal/shared/forms';
import { Alert, Button, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { sendVerificationCode, verifyCode, type Verified } from '../api/visitors';

export const INVALID_CHALLENGE = 'Invalid Security Challenge Response';
export const CODE_FORMAT = 'The verification code is the 6 digits in the mail.';

const emailValidator = composeValidators(required(RULE_MESSAGES.validEmail), emailRule(RULE_MESSAGES.validEmail));
const codeValidator = composeValidators(required(RULE_MESSAGES.verificationCode), (value) =>
  typeof value === 'string' && !VERIFICATION_CODE.test(value.trim()) ? CODE_FORMAT : undefined,
);

interface Props {
  /** What the visitor is verifying for, e.g. 'to check the status of your account request'. */
  readonly purpose: string;
  /**
   * The unlock flow takes the code step's 403 as verified (spec section 4): a locked account, and
   * a closed one too, whose unlock request the server then answers 401 → the unable view (the spec's answer for it).
   */
  readonly acceptForbidden?: boolean;
  /** Account requests have codes too (the status check); the other flows work for accounts only. */
  readonly forAccountRequests?: boolean;
  readonly children: (verified: Verified) => ReactNode;
}

/** Whose address the flow asks for, as the email step and the code step say it. */
const subjectOf = (forAccountRequests: boolean) =>
  forAccountRequests ? { yours: 'account or account request', any: 'an account or an account request' } : { yours: 'account', any: 'an account' };

type Subject = ReturnType<typeof subjectOf>;

/** Whether an error is the server saying the address's account is locked. */
export function isLockedError(error: unknown): boolean {
  return error instanceof ApiError && /locked/i.test(error.message);
}

export function VerificationFlow({ purpose, acceptForbidden = false, forAccountRequests = false, children }: Props) {
  const [email, setEmail] = useState<string>();
  const [verified, setVerified] = useState<Verified>();
  const subject = subjectOf(forAccountRequests);

  if (verified) return <>{children(verified)}</>;
  if (email === undefined) return <EmailStep purpose={purpose} subject={subject} onSent={setEmail} />;
  return <CodeStep email={email} subject={subject} acceptForbidden={acceptForbidden} onVerified={setVerified} onRestart={() => setEmail(undefined)} />;
}

function EmailStep({ purpose, subject, onSent }: { purpose: string; subject: Subject; onSent(email: string): void }) {
  const challenge = useChallengeSolution();

  const submit = async ({ email }: { email: string }) => {
    const botChallengeResponse = challenge.take();
    if (!botChallengeResponse) return undefined;
    try {
      await sendVerificationCode({ email: email.trim(), botChallengeResponse });
      onSent(email.trim());
      return undefined;
    } catch (error) {
      // A challenge is good for one attempt: a refused one is replaced (spec section 8).
      challenge.renew();
      if (error instanceof ApiError && error.message.includes(INVALID_CHALLENGE)) {
        challenge.setError(error.message);
        return undefined;
      }
      return submissionErrors(error);
    }
  };

  return (
    <FormShell<{ email: string }> onSubmit={submit} aria-label="Email verification" submitLabel="Send Verification Code" style={{ maxWidth: 480 }}>
      <Typography.Paragraph>
        Enter the email address of your {subject.yours} {purpose}. We will send a verification code to it.
      </Typography.Paragraph>
      <TextField name="email" label="Email" type="email" autoComplete="email" maxLength={254} validate={emailValidator} autoFocus />
      <SecurityChallenge generation={challenge.generation} onSolved={challenge.onSolved} error={challenge.error} />
    </FormShell>
  );
}

function CodeStep({
  email,
  subject,
  acceptForbidden,
  onVerified,
  onRestart,
}: {
  email: string;
  subject: Subject;
  acceptForbidden: boolean;
  onVerified(verified: Verified): void;
  onRestart(): void;
}) {
  const [locked, setLocked] = useState(false);

  const submit = async ({ code }: { code: string }) => {
    const verified = { email, code: code.trim() };
    setLocked(false);
    try {
      await verifyCode(verified);
    } catch (error) {
      if (acceptForbidden && error instanceof ApiError && error.status === 403) {
        onVerified(verified);
        return undefined;
      }
      setLocked(isLockedError(error));
      return { code: error instanceof Error ? error.message : 'Unknown server error' };
    }
    onVerified(verified);
    return undefined;
  };

  return (
    <FormShell<{ code: string }>
      onSubmit={submit}
      aria-label="Verification code"
      submitLabel="Verify"
      buttons={(_form, submit) => (
        <Space wrap>
          {submit}
          <Button onClick={onRestart}>Send a new code</Button>
        </Space>
      )}
      style={{ maxWidth: 480 }}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={`If ${email} belongs to ${subject.any}, a verification code has been sent to it.`}
        description="The code is valid for 10 minutes. Check your spam folder if it does not arrive."
      />
      <TextField name="code" label="Verification code" autoComplete="one-time-code" maxLength={6} validate={codeValidator} autoFocus />
      {locked && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={
            <span>
              This account is locked. <Link to={links.requestUnlock()}>Submit an unlock request</Link>
            </span>
          }
        />
      )}
    </FormShell>
  );
}
