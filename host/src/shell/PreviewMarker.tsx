/**
 * Shown while this browser runs a platform administrator's preview of a remote version instead
 * of the environment's pin (docs/federation.md): which, and the way back.
 */
import { endRemotePreview } from '@portal/api';
import { call } from '@portal/shared';
import { Alert, Button } from 'antd';
import { useMemo, useState } from 'react';
import { useEnvironmentStore } from './startup';

export function PreviewMarker() {
  const environment = useEnvironmentStore((s) => s.environment);
  const previews = useMemo(() => environment?.remotes.filter((r) => r.preview === true) ?? [], [environment]);
  const [error, setError] = useState<string>();
  if (previews.length === 0) return null;
  const end = async () => {
    try {
      for (const remote of previews) await call(endRemotePreview, { params: { remote: remote.name } });
      window.location.reload();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The preview could not be ended.');
    }
  };
  return (
    <Alert
      type="warning"
      showIcon
      role="status"
      style={{ marginBottom: 16 }}
      title={`Preview: ${previews.map((r) => `${r.name} ${r.version ?? ''}`.trim()).join(', ')} (only in your browser)`}
      description={error}
      action={
        <Button size="small" onClick={() => void end()}>
          End preview
        </Button>
      }
    />
  );
}
