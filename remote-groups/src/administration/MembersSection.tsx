/**
 * A group's members (spec sections 2 and 5): a filter on last name, first name or username and
 * one on role, both applied by the server, 30 a page; usernames link to the account with
 * VIEW_ACCOUNT; the Action/Change column with SUBMIT_SURROGATE_REQUEST, Add User with
 * ADJUDICATE_MEMBERSHIP_REQUEST.
 */
import { links, PAGE_SIZE, type Membership, type UserGroup } from '@portal/api';
import { useHasPermission } from '@portal/shared';
import { capitalize, errorText, PagedTable, useLoaded } from '@portal/shared/components';
import { Alert, Form as AntForm, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { searchMembers } from '../api/groups';
import { GROUP_TEXT } from '../messages';

type RoleFilter = 'all' | 'admin' | 'team' | 'user';

/** Add User To Group (ADJUDICATE_MEMBERSHIP_REQUEST in the group, as its page needs). */
export function AddUserLink({ group }: { group: UserGroup }) {
  return group.permissions.includes('ADJUDICATE_MEMBERSHIP_REQUEST') ? <Link to={links.addUserToGroup(group.id)}>Add user to group</Link> : null;
}

export function MembersSection({ group }: { group: UserGroup }) {
  const canViewAccount = useHasPermission('VIEW_ACCOUNT');
  // A member's Change page (with Remove User From Group) is a surrogate's: SUBMIT_SURROGATE_REQUEST
  // in the group, as the page and the server need (a group admin holds it; so does the help desk).
  const canChange = group.permissions.includes('SUBMIT_SURROGATE_REQUEST');
  const [typed, setTyped] = useState('');
  const [filter, setFilter] = useState('');
  const [role, setRole] = useState<RoleFilter>('all');
  const [start, setStart] = useState(0);
  // The filter applies once typing pauses, from the first page.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilter(typed.trim());
      setStart(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const load = useCallback((signal: AbortSignal) => searchMembers(group.id, { filter, role, start }, { signal }), [group.id, filter, role, start]);
  const state = useLoaded(load);
  const page = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;

  const columns: TableColumnsType<Membership> = [
    {
      title: 'Username',
      dataIndex: 'username',
      key: 'username',
      render: (username: string) => (canViewAccount ? <Link to={links.manageAccounts(username)}>{username}</Link> : username),
    },
    { title: 'Last Name', dataIndex: 'last_name', key: 'last_name' },
    { title: 'First Name', dataIndex: 'first_name', key: 'first_name' },
    { title: 'Role', key: 'role', render: (_: unknown, m) => (m.role ? capitalize(m.role) : 'None') },
    { title: 'Jira Notification', key: 'notification', render: (_: unknown, m) => capitalize(m.notification) },
    {
      title: 'Special Permissions',
      key: 'special',
      render: (_: unknown, m) => [...m.special, ...Object.values(m.services).filter((g): g is string => !!g)].join(', ') || 'None',
    },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, m) => (
        <Space size={4} wrap>
          {m.status}
          {m.nested.length > 0 && <Tag title={m.nested.join(', ')}>Nested</Tag>}
        </Space>
      ),
    },
  ];
  if (canChange) {
    columns.push({
      title: 'Action',
      key: 'action',
      render: (_: unknown, m) => <Link to={links.changeMembership(group.id, m.username)}>Change</Link>,
    });
  }

  return (
    <>
      <Space wrap align="end" style={{ marginBottom: 16 }}>
        <AntForm layout="vertical" component={false}>
          <AntForm.Item label="Filter by name or username" htmlFor="member-filter" style={{ marginBottom: 0 }}>
            <Input id="member-filter" value={typed} onChange={(event) => setTyped(event.target.value)} maxLength={255} allowClear style={{ width: 260 }} />
          </AntForm.Item>
        </AntForm>
        <AntForm layout="vertical" component={false}>
          <AntForm.Item label={<span id="member-role-label">Role</span>} style={{ marginBottom: 0 }}>
            <Select<RoleFilter>
              aria-labelledby="member-role-label"
              value={role}
              onChange={(value) => {
                setRole(value);
                setStart(0);
              }}
              options={[
                { value: 'all', label: 'All' },
                { value: 'admin', label: 'Admin' },
                { value: 'team', label: 'Team' },
                { value: 'user', label: 'User' },
              ]}
              style={{ width: 140 }}
            />
          </AntForm.Item>
        </AntForm>
        <AddUserLink group={group} />
      </Space>
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      <PagedTable<Membership>
        rowKey="username"
        rows={page?.rows ?? []}
        columns={columns}
        start={start}
        hasMore={page?.has_more_results ?? false}
        loading={state.status === 'loading'}
        emptyText={filter !== '' || role !== 'all' ? GROUP_TEXT.noMatchingMembers : GROUP_TEXT.noMembers}
        onPage={setStart}
      />
      {page && page.total > PAGE_SIZE && <div aria-live="polite">{`${page.total} members match.`}</div>}
    </>
  );
}
