/**
 * The caller's tokens (spec section 4): name, issued, expiry ('YYYY-MM-DD HH:mm'), EXPIRED once
 * past, and Revoke where the token is revocable (its lifetime reached the threshold), after a
 * confirmation. An expired token that is revocable may still be revoked: it disappears from the list.
 */
import { isExpired, TOKEN_MESSAGES, type ArtifactToken } from '@portal/api';
import { ConfirmModal, useConfirmation } from '@portal/shared';
import { formatTokenDate } from '@portal/shared/components';
import { Button, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { TOKEN_TEXT } from '../messages';

export interface TokenTableProps {
  readonly tokens: readonly ArtifactToken[];
  /** Revokes at the server; rejects with the error to show. */
  revoke(token: ArtifactToken): Promise<void>;
}

export function TokenTable({ tokens, revoke }: TokenTableProps) {
  const confirmation = useConfirmation<ArtifactToken>();
  const ask = async (token: ArtifactToken) => {
    if (!(await confirmation.ask(token))) return;
    try {
      await revoke(token);
    } finally {
      confirmation.finish();
    }
  };
  const columns: TableColumnsType<ArtifactToken> = [
    { title: 'Name', dataIndex: 'description', key: 'description', render: (name: string) => <Typography.Text style={{ wordBreak: 'break-word' }}>{name}</Typography.Text> },
    { title: 'Issued', dataIndex: 'issued_at', key: 'issued_at', render: (at: number) => formatTokenDate(at * 1000) },
    {
      title: 'Expiry',
      dataIndex: 'expiry',
      key: 'expiry',
      render: (expiry: number) => (
        <Space size={4} wrap>
          {expiry === 0 ? TOKEN_TEXT.never : formatTokenDate(expiry * 1000)}
          {isExpired(expiry, Date.now()) && <Tag color="error">{TOKEN_TEXT.expired}</Tag>}
        </Space>
      ),
    },
    { title: 'Scopes', dataIndex: 'scope', key: 'scope', render: (scope: string[]) => scope.join(', ') },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, token) =>
        token.revocable ? (
          <Button danger size="small" onClick={() => void ask(token)} aria-label={`Revoke ${token.description}`}>
            Revoke
          </Button>
        ) : (
          <Typography.Text type="secondary">{TOKEN_TEXT.notRevocable}</Typography.Text>
        ),
    },
  ];
  return (
    <>
      <Table rowKey="token_id" size="small" columns={columns} dataSource={[...tokens]} pagination={false} locale={{ emptyText: TOKEN_MESSAGES.noTokens }} scroll={{ x: true }} />
      <ConfirmModal title={TOKEN_TEXT.revokeTitle} okText="Revoke" {...confirmation.modal}>
        {confirmation.subject && TOKEN_TEXT.revoke(confirmation.subject.description)}
      </ConfirmModal>
    </>
  );
}
