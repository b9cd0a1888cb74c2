import { links } from '@portal/api';
import { MESSAGES, PageTitle, signOut, useSessionStore } from '@portal/shared';
import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { HostPage } from './HostPage';

/** /logout: ends the session on the server, then says so. */
export function LogoutPage() {
  const [state, setState] = useState<'pending' | 'done' | 'failed'>('pending');
  useEffect(() => {
    let current = true;
    signOut()
      .then(() => current && setState('done'))
      .catch((error: unknown) => {
        console.error(error);
        if (current) setState('failed');
      })
      .finally(() => useSessionStore.getState().signedOut());
    return () => {
      current = false;
    };
  }, []);
  return (
    <HostPage>
      {state === 'pending' ? (
        <Spin />
      ) : (
        <>
          <PageTitle>{MESSAGES.loggedOut}</PageTitle>
          {state === 'failed' && <Alert type="warning" showIcon title={MESSAGES.communicationError} style={{ marginBottom: 16 }} />}
          <Link to={links.login()}>Back to login</Link>
        </>
      )}
    </HostPage>
  );
}
