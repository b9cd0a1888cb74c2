/** A request's history (spec sections 2 and 3): status, username, created, comment, oldest first. */
import { type RequestUpdate } from '@portal/api';
import { formatDateTime } from './dates.js';
import { Table, Typography, type TableColumnsType } from 'antd';
import { useId } from 'react';
import { capitalize } from './text.js';

/** Spec section 9: "Comments containing '[Warning]' are highlighted." */
export const WARNING_MARK = '[Warning]';

export const NO_UPDATES = 'No updates yet.';

export function Comment({ comment }: { comment: string }) {
  if (!comment.includes(WARNING_MARK)) return <span style={{ whiteSpace: 'pre-wrap' }}>{comment}</span>;
  // The warning colour of the theme (readable in the dark theme too), and strong for those who do not see colour.
  return (
    <Typography.Text type="warning" strong style={{ whiteSpace: 'pre-wrap' }}>
      {comment}
    </Typography.Text>
  );
}

const COLUMNS: TableColumnsType<RequestUpdate & { key: number }> = [
  { title: 'Status', dataIndex: 'status', key: 'status', render: (status: string) => capitalize(status) },
  { title: 'Username', dataIndex: 'username', key: 'username' },
  { title: 'Created', dataIndex: 'created', key: 'created', render: (value: string) => formatDateTime(value) },
  { title: 'Comment', dataIndex: 'comment', key: 'comment', render: (comment: string) => <Comment comment={comment ?? ''} /> },
];

export function UpdatesTable({ updates }: { updates: readonly RequestUpdate[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={3} id={headingId}>
        Updates
      </Typography.Title>
      <Table
        rowKey="key"
        size="small"
        columns={COLUMNS}
        dataSource={updates.map((update, key) => ({ ...update, key }))}
        pagination={false}
        locale={{ emptyText: NO_UPDATES }}
      />
    </section>
  );
}
