import { Table, type TableColumnsType } from 'antd';
import { Link } from 'react-router-dom';
import { links, type AccountGroup } from '@portal/api';
import { capitalize } from './text.js';
import type { AccountGroupsTableProps } from './AccountGroupsTable.js';

const COLUMNS: TableColumnsType<AccountGroup> = [
  {
    title: 'Group',
    dataIndex: 'user_group',
    key: 'group',
    render: (_: unknown, group: AccountGroup) => (
      <Link to={links.groupAdministration(group.user_group)}>
        {group.name && group.name !== group.user_group ? `${group.name} (${group.user_group})` : group.user_group}
      </Link>
    ),
  },
  { title: 'Role', dataIndex: 'role', key: 'role', render: (role: string | null) => (role ? capitalize(role) : 'None') },
  { title: 'Jira Notification', dataIndex: 'notification', key: 'notification', render: (level: string | undefined) => capitalize(level || 'none') },
  {
    title: 'Special Permissions',
    dataIndex: 'special',
    key: 'special',
    render: (special: readonly string[] | undefined) => (special && special.length > 0 ? special.join(', ') : 'None'),
  },
];

/** The table of AccountGroupsTable (./AccountGroupsTable.tsx), loaded when it is first shown. */
export default function AccountGroupsTableView({ groups, emptyText }: AccountGroupsTableProps) {
  return (
    <Table<AccountGroup>
      rowKey="user_group"
      size="small"
      columns={COLUMNS}
      dataSource={[...(groups ?? [])]}
      pagination={false}
      locale={{ emptyText }}
    />
  );
}
