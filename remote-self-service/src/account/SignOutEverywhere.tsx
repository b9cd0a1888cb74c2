/**
 * The profile's 'Sign out everywhere': for a browser left signed in elsewhere,
 * it ends every session of the account, this one too, after a confirmation; then the user signs
 * in again. A failure is said under the button and nothing else changes.
 */
import { links } from '@portal/api';
import { ConfirmModal, useConfirmation } from '@portal/shared';
import { errorText } from '@portal/shared/components';
import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { signOutEverywhere } from '../api/profile';

export const SIGN_OUT_EVERYWHERE = {
  heading: 'Sessions',
  text: 'Signed in on a computer or browser you no longer use? Sign out everywhere ends every session of your account, this one too.',
  button: 'Sign Out Everywhere',
  confirm: 'Sign out everywhere?',
  confirmText: 'Every browser signed in to your account, this one too, will have to sign in again.',
} as const;

export function SignOutEverywhere() {
  const navigate = useNavigate();
  const confirmation = useConfirmation();
  const [failure, setFailure] = useState<string>();

  const run = async () => {
    setFailure(undefined);
    if (!(await confirmation.ask(true))) return;
    try {
      await signOutEverywhere();
      confirmation.finish();
      // This session has ended too: the host's sign-out clears what the browser still holds.
      navigate(links.logout());
    } catch (error) {
      confirmation.finish();
      setFailure(errorText(error));
    }
  };

  return (
    <section aria-labelledby="profile-sessions" style={{ marginTop: 24 }}>
      <Typography.Title level={3} id="profile-sessions">
        {SIGN_OUT_EVERYWHERE.heading}
      </Typography.Title>
      <Typography.Paragraph>{SIGN_OUT_EVERYWHERE.text}</Typography.Paragraph>
      <Button onClick={() => void run()}>{SIGN_OUT_EVERYWHERE.button}</Button>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 16 }} />}
      <ConfirmModal {...confirmation.modal} title={SIGN_OUT_EVERYWHERE.confirm} okText={SIGN_OUT_EVERYWHERE.button}>
        <Typography.Paragraph>{SIGN_OUT_EVERYWHERE.confirmText}</Typography.Paragraph>
      </ConfirmModal>
    </section>
  );
}
