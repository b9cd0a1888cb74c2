/**
 * /mailing-lists (spec sections 2, 4 and 8): the lists of the caller's groups, each with its
 * subscription and digest switches sent at once (subscribing sets the digest off and reloads the
 * lists to learn moderator status), and for moderators the Actions column (View held messages
 * with the count held, Manage members). Beyond the spec: the groups where the caller may request
 * a list, and for a moderator every message held on the lists they moderate.
 */
import { links, type MailingList } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { useLoaded } from '@portal/shared/components';
import { Alert, Checkbox, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { listGroups, listMailingLists, setSubscription } from '../api/mailing-lists';
import { LIST_TEXT, listErrorText, MAILING_LIST_MESSAGES } from '../messages';
import { AllHeldMessages } from './AllHeldMessages';
import { Section } from './Section';

interface Choice {
  readonly subscribed: boolean;
  readonly digest: boolean;
}

const withChoice = (list: MailingList, choice: Choice): MailingList => ({ ...list, is_subscribed: choice.subscribed, is_regular_subscription: !choice.digest });

/** The groups where the caller may ask for a new list (SUBMIT_MAILING_LIST_REQUEST); nothing when none or when they cannot be loaded. */
function RequestLinks() {
  const load = useCallback((signal: AbortSignal) => listGroups({ signal }), []);
  const state = useLoaded(load);
  const groups = state.status === 'ready' ? state.value.filter((g) => g.permissions.includes('SUBMIT_MAILING_LIST_REQUEST')) : [];
  if (groups.length === 0) return null;
  return (
    <Section id="request-list" title={LIST_TEXT.requestList}>
      <ul>
        {groups.map((group) => (
          <li key={group.id}>
            <Link to={links.newMailingList(group.id)}>{`${LIST_TEXT.requestList} for ${group.id}`}</Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function MailingListsPage() {
  const [again, setAgain] = useState(0);
  const load = useCallback((signal: AbortSignal) => listMailingLists({ signal }), []);
  const state = useLoaded(load, again);
  // The rows as shown: the server's, with each change shown at once and its answer once it comes.
  const [rows, setRows] = useState<readonly MailingList[]>();
  const [pending, setPending] = useState<readonly string[]>([]);
  const [changeError, setChangeError] = useState<string>();

  useEffect(() => {
    if (state.status === 'ready') setRows(state.value);
  }, [state]);

  const replace = (id: string, row: MailingList) => setRows((current) => current?.map((r) => (r.id === id ? row : r)));

  const change = async (list: MailingList, choice: Choice) => {
    // Spec section 4: subscribing sets the digest off (immediate).
    const subscribing = choice.subscribed && !list.is_subscribed;
    const sent = subscribing ? { subscribed: true, digest: false } : choice;
    setChangeError(undefined);
    setPending((p) => [...p, list.id]);
    replace(list.id, withChoice(list, sent));
    try {
      replace(list.id, await setSubscription(list.id, sent));
      // ... and reloads the lists to learn moderator status.
      if (subscribing) setAgain((n) => n + 1);
    } catch (error) {
      replace(list.id, list);
      setChangeError(listErrorText(error));
    } finally {
      setPending((p) => p.filter((id) => id !== list.id));
    }
  };

  const moderates = (rows ?? []).some((l) => l.is_moderator);

  const columns: TableColumnsType<MailingList> = [
    { title: 'Mailing list', dataIndex: 'id', key: 'id' },
    { title: 'Description', dataIndex: 'description', key: 'description' },
    {
      title: 'Subscribed',
      key: 'subscribed',
      render: (_: unknown, list) => {
        // A moderator outside the list's permission group sees it, and is told why they cannot
        // subscribe before trying (the server refuses them).
        const reasonId = `not-eligible-${list.id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
        return (
          <Space orientation="vertical" size={0}>
            <Checkbox
              checked={list.is_subscribed}
              disabled={!list.is_eligible || pending.includes(list.id)}
              aria-label={`Subscribed to ${list.id}`}
              {...(list.is_eligible ? {} : { 'aria-describedby': reasonId })}
              onChange={(event) => void change(list, { subscribed: event.target.checked, digest: !list.is_regular_subscription })}
            />
            {!list.is_eligible && (
              <Typography.Text type="secondary" id={reasonId}>
                {LIST_TEXT.notEligible(list.permission_group)}
              </Typography.Text>
            )}
          </Space>
        );
      },
    },
    {
      title: 'Digest',
      key: 'digest',
      render: (_: unknown, list) => (
        <Switch
          size="small"
          checked={list.is_subscribed && !list.is_regular_subscription}
          disabled={!list.is_subscribed || pending.includes(list.id)}
          aria-label={`Daily digest for ${list.id}`}
          onChange={(checked) => void change(list, { subscribed: true, digest: checked })}
        />
      ),
    },
    ...(moderates
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, list: MailingList) =>
              list.is_moderator ? (
                <Space orientation="vertical" size={0}>
                  <Link to={links.mailingListQueue(list.id)} aria-label={`${LIST_TEXT.heldLink(list.held_count)}: ${list.id}`}>
                    {LIST_TEXT.heldLink(list.held_count)}
                  </Link>
                  <Link to={links.mailingList(list.id)} aria-label={`${LIST_TEXT.manageMembers}: ${list.id}`}>
                    {LIST_TEXT.manageMembers}
                  </Link>
                </Space>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <>
      <PageTitle>Mailing Lists</PageTitle>
      <Typography.Paragraph>
        The mailing lists of your groups. A change to a subscription is saved at once; with the digest on, you receive one mail a day
        instead of each message.
      </Typography.Paragraph>
      {changeError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={changeError}
          closable={{ 'aria-label': 'Dismiss' }}
          onClose={() => setChangeError(undefined)}
          style={{ marginBottom: 16 }}
        />
      )}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={listErrorText(state.error)} style={{ marginBottom: 16 }} />}
      {state.status !== 'failed' && (
        <Table<MailingList>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={rows ? [...rows] : []}
          loading={rows === undefined}
          pagination={false}
          locale={{ emptyText: rows === undefined ? ' ' : MAILING_LIST_MESSAGES.noLists }}
        />
      )}
      <RequestLinks />
      {moderates && <AllHeldMessages />}
    </>
  );
}
