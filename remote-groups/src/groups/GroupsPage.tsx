/**
 * /groups (spec sections 2 and 8): the caller's groups (their role, a link to administer those
 * they have a permission in, to change their membership) and the groups they may join (open
 * access marked, a link to request membership), each with its empty state, and the link to
 * request a new user group.
 */
import { links, type UserGroupSummary } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { capitalize, errorText, useLoaded } from '@portal/shared/components';
import { Alert, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { listGroups } from '../api/groupList';
import { GROUP_TEXT } from '../messages';


function GroupName({ group }: { group: UserGroupSummary }) {
  return (
    <Space size={4} wrap>
      <span>{group.name}</span>
      {group.open_access && <Tag>Open access</Tag>}
      {group.visibility !== 'site-approved' && <Tag>Hidden</Tag>}
      {group.memberConstraint === 'DoD' && <Tag color="blue">DoD PKI</Tag>}
    </Space>
  );
}

/** A membership request for the caller waits for the group's admins (the server says so: a second would be refused). */
function PendingRequest() {
  return <Tag color="warning">{GROUP_TEXT.requestPending}</Tag>;
}

export function GroupsPage() {
  const load = useCallback((signal: AbortSignal) => listGroups({ signal }), []);
  const state = useLoaded(load);
  const groups = state.status === 'ready' ? state.value : [];
  const mine = groups.filter((g) => g.member);
  const others = groups.filter((g) => !g.member);

  // A group the caller holds any permission in opens its administration page, whether they belong
  // to it or not (an adjudicator decides the requests of groups they are not in).
  const groupColumn: TableColumnsType<UserGroupSummary>[number] = {
    title: 'Group',
    key: 'id',
    render: (_: unknown, g) => (g.permissions.length > 0 ? <Link to={links.groupAdministration(g.id)}>{g.id}</Link> : g.id),
  };
  const mineColumns: TableColumnsType<UserGroupSummary> = [
    groupColumn,
    { title: 'Name', key: 'name', render: (_: unknown, g) => <GroupName group={g} /> },
    { title: 'Role', key: 'role', render: (_: unknown, g) => (g.role ? capitalize(g.role) : 'None') },
    {
      title: 'Membership',
      key: 'change',
      render: (_: unknown, g) => (
        <Space size={4} wrap>
          <Link to={links.changeMembership(g.id)}>Change membership</Link>
          {g.pending_request && <PendingRequest />}
        </Space>
      ),
    },
  ];
  const otherColumns: TableColumnsType<UserGroupSummary> = [
    groupColumn,
    { title: 'Name', key: 'name', render: (_: unknown, g) => <GroupName group={g} /> },
    { title: 'Description', dataIndex: 'description', key: 'description' },
    {
      title: 'Membership',
      key: 'join',
      render: (_: unknown, g) => (g.pending_request ? <PendingRequest /> : <Link to={links.requestMembership(g.id)}>Request membership</Link>),
    },
  ];

  return (
    <>
      <PageTitle>Groups</PageTitle>
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Link to={links.requestUserGroup()}>Request a new user group</Link>
        {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
        <section aria-labelledby="my-groups">
          <Typography.Title level={3} id="my-groups">
            My groups
          </Typography.Title>
          <Table<UserGroupSummary>
            rowKey="id"
            size="small"
            columns={mineColumns}
            dataSource={mine}
            loading={state.status === 'loading'}
            pagination={false}
            locale={{ emptyText: GROUP_TEXT.notAMember }}
          />
        </section>
        <section aria-labelledby="other-groups">
          <Typography.Title level={3} id="other-groups">
            Groups you may join
          </Typography.Title>
          <Table<UserGroupSummary>
            rowKey="id"
            size="small"
            columns={otherColumns}
            dataSource={others}
            loading={state.status === 'loading'}
            pagination={false}
            locale={{ emptyText: GROUP_TEXT.memberOfAll }}
          />
        </section>
      </Space>
    </>
  );
}
