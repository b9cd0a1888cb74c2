/**
 * /mailing-lists/:listId/queue (spec sections 2, 4, 7 and 8; moderators): the list's held
 * messages, one card each with its action (defer by default), the box that discards every
 * deferred message too, and Submit (disabled while processing), which sends the actions chosen
 * (deferred ones omitted) and reloads the queue. A list the caller may not see is not found
 * (404); one they see but do not moderate (403) says they are not authorized, as the members page
 * does; any other failure to load says 'We could not retrieve this mailing list's held
 * messages.' ('Bad Request': the session expired).
 */
import { links, type HeldAction, type HeldMessage } from '@portal/api';
import { PageTitle } from '@portal/shared';
import { errorText, isNotFound, NotFoundView, useLoaded } from '@portal/shared/components';
import { Alert, Button, Checkbox, Skeleton, Space, Typography } from 'antd';
import { type FormEvent, useCallback, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { listHeldMessages, moderate } from '../api/mailing-lists';
import { isForbidden, LIST_TEXT, listErrorText, MAILING_LIST_MESSAGES } from '../messages';
import { HeldMessageCard } from './HeldMessageCard';

type Outcome = { readonly type: 'success' | 'info' | 'error'; readonly text: string };

function Queue({ listId, messages, reloading, onDone }: { listId: string; messages: readonly HeldMessage[]; reloading: boolean; onDone: () => void }) {
  const [actions, setActions] = useState<Readonly<Record<number, HeldAction>>>({});
  const [discardDeferred, setDiscardDeferred] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const busy = processing || reloading;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const choices = messages.map((message) => ({ message, action: actions[message.request_id] ?? 'defer' }));
    if (!discardDeferred && choices.every((c) => c.action === 'defer')) {
      setOutcome({ type: 'info', text: LIST_TEXT.nothingToSubmit });
      return;
    }
    setOutcome(undefined);
    setProcessing(true);
    try {
      const answer = await moderate(listId, choices, discardDeferred);
      setActions({});
      setDiscardDeferred(false);
      setOutcome({ type: 'success', text: LIST_TEXT.moderated(answer.accepted, answer.discarded) });
      onDone();
    } catch (error) {
      setOutcome({ type: 'error', text: listErrorText(error) });
    } finally {
      setProcessing(false);
    }
  };

  return (
    <>
      <div role="status" aria-live="polite">
        {outcome && outcome.type !== 'error' && <Alert type={outcome.type} showIcon role="note" title={outcome.text} style={{ marginBottom: 16 }} />}
      </div>
      {messages.length === 0 ? (
        <Typography.Paragraph>{MAILING_LIST_MESSAGES.noHeld}</Typography.Paragraph>
      ) : (
        <form aria-label="Held messages" onSubmit={(event) => void submit(event)} noValidate>
          {/* One column no wider than the page: a grid item is as wide as its content by default. */}
          <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 16 }}>
            {messages.map((message) => (
              <li key={message.request_id}>
                <HeldMessageCard
                  message={message}
                  action={actions[message.request_id] ?? 'defer'}
                  disabled={busy}
                  onAction={(action) => setActions((a) => ({ ...a, [message.request_id]: action }))}
                />
              </li>
            ))}
          </ul>
          <Space orientation="vertical" style={{ marginTop: 16 }}>
            <Checkbox checked={discardDeferred} disabled={busy} onChange={(event) => setDiscardDeferred(event.target.checked)}>
              {LIST_TEXT.discardDeferred}
            </Checkbox>
            <Button type="primary" htmlType="submit" loading={processing} disabled={busy}>
              Submit
            </Button>
          </Space>
        </form>
      )}
      {outcome?.type === 'error' && <Alert type="error" showIcon role="alert" title={outcome.text} style={{ marginTop: 16 }} />}
    </>
  );
}

export function HeldMessagesPage() {
  const { listId = '' } = useParams();
  const [again, setAgain] = useState(0);
  const load = useCallback((signal: AbortSignal) => listHeldMessages(listId, { signal }), [listId]);
  const state = useLoaded(load, again);
  const reload = useCallback(() => setAgain((n) => n + 1), []);
  if (state.status === 'failed' && isNotFound(state.error)) return <NotFoundView />;
  const shown = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  return (
    <>
      <PageTitle>Held Messages</PageTitle>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {listId}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Link to={links.mailingLists()}>Back to Mailing Lists</Link>
        {/* Its moderators' other page: once the queue has shown that the caller is one. */}
        {shown && <Link to={links.mailingList(listId)}>{LIST_TEXT.manageMembers}</Link>}
      </Space>
      {state.status === 'failed' && (
        <Alert
          type="error"
          showIcon
          role="alert"
          // A list the caller sees but does not moderate is a refusal, said as the members page says it.
          title={
            isForbidden(state.error)
              ? LIST_TEXT.notAuthorized
              : errorText(state.error) === 'Bad Request'
                ? MAILING_LIST_MESSAGES.sessionExpired
                : MAILING_LIST_MESSAGES.heldFailed
          }
        />
      )}
      {state.status !== 'failed' && !shown && <Skeleton active aria-busy="true" />}
      {state.status !== 'failed' && shown && <Queue key={listId} listId={listId} messages={shown} reloading={state.status === 'loading'} onDone={reload} />}
    </>
  );
}
