/**
 * /reset-website-token, 'Generate Website Token' (spec sections 2 and 4): after verification,
 * Generate makes a new token, shown once with Copy and Back to Sign-In; Generate is then
 * disabled. The old token stops working at that moment.
 */
import { links } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { Alert, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { resetWebsiteToken, type Verified } from '../api/visitors';
import { VerificationFlow } from './VerificationFlow';

export const TOKEN_WARNING =
  'Store your website token securely, for example in a password manager. Generating a new token invalidates your current one, and the token cannot be retrieved once you leave this page.';
export const TOKEN_FAILED = 'Failed to generate token';

export function ResetWebsiteTokenPage() {
  return (
    <>
      <PageTitle>Generate Website Token</PageTitle>
      <VerificationFlow purpose="to generate a new website token">{(verified) => <GenerateToken verified={verified} />}</VerificationFlow>
    </>
  );
}

function GenerateToken({ verified }: { verified: Verified }) {
  const [token, setToken] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const generate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setToken(await resetWebsiteToken(verified));
    } catch (cause) {
      setError(cause instanceof Error && cause.message ? cause.message : TOKEN_FAILED);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div style={{ maxWidth: 720 }}>
      <Alert type="warning" showIcon title={TOKEN_WARNING} style={{ marginBottom: 16 }} />
      <Button type="primary" onClick={generate} loading={busy} disabled={token !== undefined}>
        Generate
      </Button>
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginTop: 16 }} />}
      {token && (
        <section aria-label="Your new website token" style={{ marginTop: 24 }}>
          <Typography.Paragraph strong>Your new website token (shown only once):</Typography.Paragraph>
          <Typography.Paragraph>
            <code data-testid="new-token" style={{ fontSize: 16, wordBreak: 'break-all' }}>
              {token}
            </code>
          </Typography.Paragraph>
          <Space wrap>
            <Button onClick={copy}>Copy</Button>
            <Link to={links.login()}>Back to Sign-In</Link>
          </Space>
          {copied && (
            <Typography.Paragraph role="status" type="success" style={{ marginTop: 8 }}>
              Copied to the clipboard.
            </Typography.Paragraph>
          )}
        </section>
      )}
    </div>
  );
}
