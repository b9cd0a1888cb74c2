import { required } from '@portal/api';
import { SecurityChallenge, type Session, signInWithToken, useChallengeSolution } from '@portal/shared';
import { FormShell, TextField } from '@portal/shared/forms';
import { useState } from 'react';
import { asSignInFailure, isChallengeFailure, SignInError, type SignInFailure } from './signInErrors';

interface Values {
  id: string;
  token: string;
}

/** Non-CAC users: username or email, website token, the security challenge. */
export function TokenSignInForm({ cacSupport, onSignedIn }: { cacSupport: boolean; onSignedIn(session: Session): void }) {
  const challenge = useChallengeSolution();
  const [failure, setFailure] = useState<SignInFailure>();

  const submit = async ({ id, token }: Values) => {
    setFailure(undefined);
    const botChallengeResponse = challenge.take();
    if (!botChallengeResponse) return;
    try {
      onSignedIn(await signInWithToken({ id: id.trim(), token: token.trim(), botChallengeResponse }));
    } catch (error) {
      const result = asSignInFailure(error);
      if (isChallengeFailure(result)) challenge.setError(result.message);
      else setFailure(result);
      challenge.renew();
    }
  };

  return (
    <FormShell<Values> onSubmit={submit} aria-label="Sign in with a website token" submitLabel="Sign In" style={{ maxWidth: 420 }}>
      {failure && <SignInError failure={failure} kind="token" cacSupport={cacSupport} />}
      <TextField name="id" label="Username or email" autoComplete="username" maxLength={255} validate={required('Please enter your username or email.')} />
      <TextField name="token" label="Website token" type="password" autoComplete="current-password" maxLength={512} validate={required('Please enter your website token.')} />
      <SecurityChallenge generation={challenge.generation} onSolved={challenge.onSolved} error={challenge.error} />
    </FormShell>
  );
}
