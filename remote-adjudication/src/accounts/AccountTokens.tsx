/**
 * Account Administration's Access Tokens section (beyond the spec): the account's
 * artifact-repository tokens (name, issued, expiry, scopes; never a secret) and, with
 * LOCK_ACCOUNT, Revoke after a confirmation, whatever the token's lifetime. The server records
 * the revocation in the account's history; `onRevoked` reloads it.
 */
import { type ArtifactToken, isExpired } from '@portal/api';
import { ConfirmModal, useConfirmation, useHasPermission } from '@portal/shared';
import { errorText, formatTokenDate, useLoaded } from '@portal/shared/components';
import { Alert, Button, Skeleton, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { listAccountTokens, revokeAccountToken } from '../api/accountAdmin';

export const NO_TOKENS = 'This account has no tokens.';
export const EXPIRED = 'EXPIRED';
export const revokeTitle = 'Revoke token?';
export const revokeText = (token: ArtifactToken, username: string) =>
  `The token '${token.description}' of ${username} stops working at once. This cannot be undone.`;
export const revokedText = (token: ArtifactToken) => `Token '${token.description}' revoked.`;

export function AccountTokens({ username, onRevoked }: { username: string; onRevoked(): void }) {
  const canRevoke = useHasPermission('LOCK_ACCOUNT');
  const load = useCallback((signal: AbortSignal) => listAccountTokens(username, { signal }), [username]);
  const state = useLoaded(load);
  const [tokens, setTokens] = useState<ArtifactToken[]>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string }>();
  const confirmation = useConfirmation<ArtifactToken>();

  useEffect(() => {
    if (state.status === 'ready') setTokens(state.value.tokens);
  }, [state]);

  const revoke = async (token: ArtifactToken) => {
    if (!(await confirmation.ask(token))) return;
    try {
      await revokeAccountToken(username, token.token_id);
      setTokens((current) => current?.filter((t) => t.token_id !== token.token_id));
      setOutcome({ type: 'success', text: revokedText(token) });
      onRevoked();
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    } finally {
      confirmation.finish();
    }
  };

  const columns: TableColumnsType<ArtifactToken> = [
    { title: 'Name', dataIndex: 'description', key: 'description', render: (name: string) => <Typography.Text>{name}</Typography.Text> },
    { title: 'Issued', dataIndex: 'issued_at', key: 'issued_at', render: (at: number) => formatTokenDate(at * 1000) },
    {
      title: 'Expiry',
      dataIndex: 'expiry',
      key: 'expiry',
      render: (expiry: number) => (
        <Space size={4}>
          {expiry === 0 ? 'Never' : formatTokenDate(expiry * 1000)}
          {isExpired(expiry, Date.now()) && <Tag color="error">{EXPIRED}</Tag>}
        </Space>
      ),
    },
    { title: 'Scopes', dataIndex: 'scope', key: 'scope', render: (scope: string[]) => scope.join(', ') },
    ...(canRevoke
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, token: ArtifactToken) => (
              <Button danger size="small" onClick={() => void revoke(token)} aria-label={`Revoke ${token.description}`}>
                Revoke
              </Button>
            ),
          },
        ]
      : []),
  ];

  if (state.status === 'failed') return <Alert type="error" showIcon role="alert" title={errorText(state.error)} />;
  if (tokens === undefined) return <Skeleton active paragraph={{ rows: 2 }} aria-busy="true" />;
  return (
    <>
      {outcome && <Alert type={outcome.type} showIcon role={outcome.type === 'error' ? 'alert' : 'status'} title={outcome.text} style={{ marginBottom: 12 }} />}
      <Table rowKey="token_id" size="small" columns={columns} dataSource={tokens} pagination={false} locale={{ emptyText: NO_TOKENS }} />
      <ConfirmModal title={revokeTitle} okText="Revoke" {...confirmation.modal}>
        {confirmation.subject && revokeText(confirmation.subject, username)}
      </ConfirmModal>
    </>
  );
}
