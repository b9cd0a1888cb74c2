import { MESSAGES } from '@portal/shared';
import { Button, Result } from 'antd';
import { useState } from 'react';

/** Shown in place of a remote that cannot be loaded; the chrome and the other remotes go on. */
export function RemoteUnavailable({ onRetry }: { onRetry: () => Promise<unknown> | void }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <Result
      status="warning"
      title={<span role="alert">{MESSAGES.remoteUnavailable}</span>}
      subTitle="The rest of the portal still works. Try again in a moment."
      extra={
        <Button
          type="primary"
          loading={retrying}
          onClick={async () => {
            setRetrying(true);
            try {
              await onRetry();
            } catch {
              // the panel stays; the failure is already logged
            } finally {
              setRetrying(false);
            }
          }}
        >
          Retry
        </Button>
      }
    />
  );
}
