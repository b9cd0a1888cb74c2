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

/** A surrogate's link to the member's Change Membership page of each group. */
const membershipColumn = (username: string): TableColumnsType<AccountGroup>[number] => ({
  title: 'Membership',
  key: 'membership',
  render: (_: unknown, group: AccountGroup) => (
    <Link to={links.changeMembership(group.user_group, username)} aria-label={`Change membership of ${username} in ${group.user_group}`}>
      Change membership
    </Link>
  ),
});

/** The table of AccountGroupsTable (./AccountGroupsTable.tsx), loaded when it is first shown. */
export default function AccountGroupsTableView({ groups, emptyText, surrogateFor }: AccountGroupsTableProps) {
  return (
    <Table<AccountGroup>
      rowKey="user_group"
      size="small"
      columns={surrogateFor === undefined ? COLUMNS : [...COLUMNS, membershipColumn(surrogateFor)]}
      dataSource={[...(groups ?? [])]}
      pagination={false}
      locale={{ emptyText }}
    />
  );
}
