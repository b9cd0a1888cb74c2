/**
 * /mailing-lists/:listId (spec sections 2, 6 and 8; moderators): member administration. The
 * list's eligible users (the members of its permission group) and whether each is subscribed,
 * with a button to subscribe or unsubscribe each one, sent at once. A list the caller may not
 * see is not found (404); one they see but do not moderate (403) says they are not authorized.
 */
import { links, type ListMember } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { isNotFound, NotFoundView, useLoaded } from '@portal/shared/components';
import { Alert, Button, Skeleton, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { listMembers, setMemberSubscription } from '../api/mailing-lists';
import { isForbidden, LIST_TEXT, listErrorText, MAILING_LIST_MESSAGES } from '../messages';

function MembersTable({ listId, loaded }: { listId: string; loaded: readonly ListMember[] }) {
  const [rows, setRows] = useState(loaded);
  const [pending, setPending] = useState<readonly string[]>([]);
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string }>();

  const change = async (member: ListMember) => {
    const subscribed = !member.is_subscribed;
    setOutcome(undefined);
    setPending((p) => [...p, member.user_email]);
    try {
      await setMemberSubscription(listId, member.user_email, subscribed);
      setRows((current) => current.map((m) => (m.user_email === member.user_email ? { ...m, is_subscribed: subscribed } : m)));
      setOutcome({ type: 'success', text: (subscribed ? LIST_TEXT.subscribed : LIST_TEXT.unsubscribed)(member.user_email) });
    } catch (error) {
      setOutcome({ type: 'error', text: listErrorText(error) });
    } finally {
      setPending((p) => p.filter((email) => email !== member.user_email));
    }
  };

  const columns: TableColumnsType<ListMember> = [
    { title: 'Name', dataIndex: 'user_full_name', key: 'name' },
    { title: 'Email', dataIndex: 'user_email', key: 'email' },
    { title: 'Subscribed', key: 'subscribed', render: (_: unknown, member) => (member.is_subscribed ? 'Yes' : 'No') },
    {
      title: 'Action',
      key: 'action',
      render: (_: unknown, member) => {
        const label = member.is_subscribed ? 'Unsubscribe' : 'Subscribe';
        return (
          <Button size="small" loading={pending.includes(member.user_email)} onClick={() => void change(member)} aria-label={`${label} ${member.user_email}`}>
            {label}
          </Button>
        );
      },
    },
  ];

  return (
    <>
      {/* Always present, so that a screen reader announces each outcome. */}
      <div role="status" aria-live="polite">
        {outcome?.type === 'success' && <Alert type="success" showIcon role="note" title={outcome.text} style={{ marginBottom: 16 }} />}
      </div>
      {outcome?.type === 'error' && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={outcome.text}
          closable={{ 'aria-label': 'Dismiss' }}
          onClose={() => setOutcome(undefined)}
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<ListMember>
        rowKey="user_email"
        size="small"
        columns={columns}
        dataSource={[...rows]}
        pagination={false}
        locale={{ emptyText: MAILING_LIST_MESSAGES.noEligible }}
      />
    </>
  );
}

export function ListMembersPage() {
  const { listId = '' } = useParams();
  const load = useCallback((signal: AbortSignal) => listMembers(listId, { signal }), [listId]);
  const state = useLoaded(load);
  if (state.status === 'failed' && isNotFound(state.error)) return <NotFoundView />;
  return (
    <>
      <PageTitle>Mailing List Members</PageTitle>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {listId}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Link to={links.mailingLists()}>Back to Mailing Lists</Link>
        {state.status === 'ready' && <Link to={links.mailingListQueue(listId)}>View held messages</Link>}
      </Space>
      {state.status === 'failed' && (
        <Alert type="error" showIcon role="alert" title={isForbidden(state.error) ? LIST_TEXT.notAuthorized : listErrorText(state.error)} />
      )}
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'ready' && <MembersTable key={listId} listId={listId} loaded={state.value} />}
    </>
  );
}
