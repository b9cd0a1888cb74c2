/**
 * /tokens/artifactory (spec sections 2, 4, 5 and 8): only with the artifact repository among the
 * supported services (else /profile). The list of the caller's tokens with a link to the
 * repository's profile page; Create Token opens the form; a created token is shown once with
 * Copy; Continue returns to the list, loaded again.
 */
import { isServiceSupported, links, TOKEN_MESSAGES, type ArtifactToken, type CreatedToken, type TokenGroup } from '@portal/api';
import { PageTitle, useConfiguration } from '@portal/shared';
import { errorText, useLoaded } from '@portal/shared/components';
import { Alert, Button, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { listTokenGroups, listTokens, revokeToken } from '../api/tokens';
import { listingError, TOKEN_TEXT } from '../messages';
import { CopyToken } from './CopyToken';
import { CreateTokenForm } from './CreateTokenForm';
import { TokenTable } from './TokenTable';

type View = { name: 'list' } | { name: 'create' } | { name: 'copy'; token: CreatedToken };

function TokenList({ onCreate }: { onCreate(): void }) {
  const { artifacts_profile_url: profileUrl } = useConfiguration();
  const load = useCallback((signal: AbortSignal) => listTokens({ signal }), []);
  const state = useLoaded(load);
  const [tokens, setTokens] = useState<ArtifactToken[]>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string }>();
  useEffect(() => {
    if (state.status === 'ready') setTokens(state.value);
  }, [state]);

  const revoke = async (token: ArtifactToken) => {
    try {
      await revokeToken(token.token_id);
      setTokens((current) => current?.filter((t) => t.token_id !== token.token_id));
      setOutcome({ type: 'success', text: TOKEN_TEXT.revoked(token.description) });
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };

  return (
    <>
      <Typography.Paragraph>{TOKEN_TEXT.intro}</Typography.Paragraph>
      {/^https?:\/\//.test(profileUrl) && (
        <Typography.Paragraph>
          <a href={profileUrl}>{TOKEN_TEXT.profileLink}</a>
        </Typography.Paragraph>
      )}
      {state.status === 'failed' ? (
        <Alert type="error" showIcon role="alert" title={listingError(state.error)} />
      ) : tokens === undefined ? (
        <Skeleton active aria-busy="true" />
      ) : (
        <>
          <Button type="primary" onClick={onCreate} style={{ marginBottom: 16 }}>
            {TOKEN_TEXT.createButton}
          </Button>
          {outcome && (
            <Alert type={outcome.type} showIcon role={outcome.type === 'error' ? 'alert' : 'status'} title={outcome.text} style={{ marginBottom: 16 }} />
          )}
          <TokenTable tokens={tokens} revoke={revoke} />
        </>
      )}
    </>
  );
}

function CreateView({ onCreated, onCancel }: { onCreated(token: CreatedToken): void; onCancel(): void }) {
  const load = useCallback((signal: AbortSignal) => listTokenGroups({ signal }), []);
  const state = useLoaded<TokenGroup[]>(load);
  return (
    <section aria-labelledby="create-token-heading">
      <Typography.Title level={3} id="create-token-heading">
        Create a token
      </Typography.Title>
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={listingError(state.error)} />}
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'ready' &&
        (state.value.length === 0 ? (
          <>
            <Typography.Paragraph>{TOKEN_MESSAGES.noGroups}</Typography.Paragraph>
            <Button onClick={onCancel}>Back to the tokens</Button>
          </>
        ) : (
          <CreateTokenForm groups={state.value} onCreated={onCreated} onCancel={onCancel} />
        ))}
    </section>
  );
}

export function ArtifactoryTokensPage() {
  const config = useConfiguration();
  const [view, setView] = useState<View>({ name: 'list' });
  if (!isServiceSupported(config, 'artifacts')) return <Navigate to={links.profile()} replace />;
  return (
    <>
      <PageTitle>Artifactory Access Tokens</PageTitle>
      {view.name === 'list' && <TokenList onCreate={() => setView({ name: 'create' })} />}
      {view.name === 'create' && <CreateView onCreated={(token) => setView({ name: 'copy', token })} onCancel={() => setView({ name: 'list' })} />}
      {view.name === 'copy' && <CopyToken token={view.token} onContinue={() => setView({ name: 'list' })} />}
    </>
  );
}
