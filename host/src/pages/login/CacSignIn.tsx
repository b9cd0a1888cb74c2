import { type Session, signInWithCertificate } from '@portal/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { asSignInFailure, SignInError, UNKNOWN_SERVER_ERROR, type SignInFailure } from './signInErrors';

/** CAC users: the browser presents the smart card's certificate to POST /cert/sessions. */
export function CacSignIn({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [failure, setFailure] = useState<SignInFailure>();
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      const session = await signInWithCertificate();
      // An answer without the user's name is no sign-in (spec section 8).
      if (!session.username) setFailure({ message: UNKNOWN_SERVER_ERROR, code: 500 });
      else onSignedIn(session);
    } catch (error) {
      setFailure(asSignInFailure(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      {failure && <SignInError failure={failure} kind="cac" cacSupport />}
      <Typography.Paragraph>Insert your CAC, then sign in with it. Your browser will ask you to choose its certificate.</Typography.Paragraph>
      <Button type="primary" size="large" loading={busy} onClick={signIn}>
        CAC LOGIN
      </Button>
    </div>
  );
}
