/**
 * Beyond the spec: for a moderator, every message held on the lists they moderate
 * (GET /moderation/held), oldest first, each linking to its list's queue where it is decided.
 */
import { links, type HeldMessage } from '@portal/api';
import { formatDateTime, useLoaded } from '@portal/shared/components';
import { Alert, Table, type TableColumnsType } from 'antd';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { listAllHeldMessages } from '../api/mailing-lists';
import { LIST_TEXT, listErrorText, MAILING_LIST_MESSAGES } from '../messages';
import { Section } from './Section';

const columns: TableColumnsType<HeldMessage> = [
  {
    title: 'List',
    key: 'list',
    render: (_: unknown, message) => (
      <Link to={links.mailingListQueue(message.list_id)} aria-label={`${message.list_id}: held messages`}>
        {message.list_id}
      </Link>
    ),
  },
  { title: 'Sender', dataIndex: 'sender', key: 'sender' },
  { title: 'Subject', dataIndex: 'subject', key: 'subject' },
  { title: 'Held since', key: 'date', render: (_: unknown, message) => formatDateTime(message.hold_date) },
];

export function AllHeldMessages() {
  const load = useCallback((signal: AbortSignal) => listAllHeldMessages({ signal }), []);
  const state = useLoaded(load);
  return (
    <Section id="all-held" title={LIST_TEXT.allHeld}>
      {state.status === 'failed' ? (
        <Alert type="error" showIcon role="alert" title={listErrorText(state.error)} />
      ) : (
        <Table<HeldMessage>
          rowKey="request_id"
          size="small"
          columns={columns}
          dataSource={state.status === 'ready' ? [...state.value] : []}
          loading={state.status === 'loading'}
          pagination={false}
          locale={{ emptyText: state.status === 'ready' ? MAILING_LIST_MESSAGES.noHeld : ' ' }}
        />
      )}
    </Section>
  );
}
