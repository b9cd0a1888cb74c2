import type { ServiceSignIn } from '@portal/api';
import { Button, Table, Typography, type TableColumnsType } from 'antd';
import { formatDateTime } from './dates.js';
import { boundServiceName, NO_SERVICE_SIGN_INS, type ServiceSignInsTableProps } from './ServiceSignIns.js';

/** The table of ServiceSignInsPanel (./ServiceSignIns.tsx), loaded when it is first shown. */
export default function ServiceSignInsTableView({ signIns, words, onEnd }: ServiceSignInsTableProps) {
  const columns: TableColumnsType<ServiceSignIn> = [
    {
      title: 'Service',
      dataIndex: 'client',
      key: 'client',
      render: (client: string, signIn) => (
        <>
          <Typography.Text>{client}</Typography.Text>
          {signIn.service !== null && <Typography.Text type="secondary">{` (for ${boundServiceName(signIn.service)})`}</Typography.Text>}
        </>
      ),
    },
    { title: 'Signed in', dataIndex: 'signed_in_at', key: 'signed_in_at', render: (at: string) => formatDateTime(at) },
    { title: 'Expires', dataIndex: 'expires_at', key: 'expires_at', render: (at: string | null) => (at === null ? 'Never' : formatDateTime(at)) },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, signIn) => (
        <Button danger size="small" onClick={() => onEnd(signIn)} aria-label={words.buttonLabel(signIn)}>
          {words.button(signIn)}
        </Button>
      ),
    },
  ];
  return <Table rowKey="client" size="small" columns={columns} dataSource={[...signIns]} pagination={false} locale={{ emptyText: NO_SERVICE_SIGN_INS }} />;
}
