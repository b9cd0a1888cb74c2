import { required, SecurityChallenge, signInWithToken, TextField, type Session } from '@portal/shared';
import { Button, Form as AntForm } from 'antd';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { asSignInFailure, isChallengeFailure, SignInError, type SignInFailure } from './signInErrors';

interface Values {
  id: string;
  token: string;
}

export const CHALLENGE_REQUIRED = 'Please complete the security challenge.';

/** Non-CAC users: username or email, website token, the security challenge. */
export function TokenSignInForm({ cacSupport, onSignedIn }: { cacSupport: boolean; onSignedIn(session: Session): void }) {
  const [payload, setPayload] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const [failure, setFailure] = useState<SignInFailure>();
  const [challengeError, setChallengeError] = useState<string>();

  const submit = async ({ id, token }: Values) => {
    setFailure(undefined);
    if (!payload) {
      setChallengeError(CHALLENGE_REQUIRED);
      return;
    }
    setChallengeError(undefined);
    try {
      onSignedIn(await signInWithToken({ id: id.trim(), token: token.trim(), botChallengeResponse: payload }));
    } catch (error) {
      const result = asSignInFailure(error);
      if (isChallengeFailure(result)) setChallengeError(result.message);
      else setFailure(result);
      // A challenge is good for one attempt: every attempt gets a new one.
      setGeneration((g) => g + 1);
    }
  };

  return (
    <Form<Values> onSubmit={submit}>
      {({ handleSubmit, submitting }) => (
        // react-final-form owns the form; antd's Form only lays the fields out.
        <form onSubmit={handleSubmit} noValidate aria-label="Sign in with a website token" style={{ maxWidth: 420 }}>
          <AntForm layout="vertical" component={false}>
            {failure && <SignInError failure={failure} kind="token" cacSupport={cacSupport} />}
            <TextField name="id" label="Username or email" autoComplete="username" maxLength={255} validate={required('Please enter your username or email.')} />
            <TextField name="token" label="Website token" type="password" autoComplete="current-password" maxLength={512} validate={required('Please enter your website token.')} />
            <SecurityChallenge generation={generation} onSolved={setPayload} error={challengeError} />
            <Button type="primary" htmlType="submit" loading={submitting}>
              Sign In
            </Button>
          </AntForm>
        </form>
      )}
    </Form>
  );
}
