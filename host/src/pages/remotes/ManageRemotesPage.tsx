/**
 * Manage Remotes (docs/federation.md): for platform administrators
 * (MANAGE_REMOTES), what each remote of an environment runs, its published versions, pin /
 * roll back / preview behind a confirmation with a reason, and the history with its CSV export.
 * Lazy-loaded: it adds nothing to any other page's first load.
 */
import {
  endRemotePreview,
  getFederation,
  getPinHistory,
  pinHistoryCsv,
  pinRemoteVersion,
  rollbackRemoteVersion,
  startRemotePreview,
  type PinHistoryEntry,
  type RemoteState,
} from '@portal/api';
import { call, linkTo, MODAL_WIDTH, PageTitle } from '@portal/shared';
import { formatDateTimeWithZone, useLoaded } from '@portal/shared/components';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';

type Action = { kind: 'pin' | 'rollback' | 'preview'; remote: RemoteState };

const ACTION_TITLES = {
  pin: (r: RemoteState) => `Pin a version of ${r.name}`,
  rollback: (r: RemoteState) => `Roll back ${r.name} to ${r.rollback_to ?? ''}?`,
  preview: (r: RemoteState) => `Preview a version of ${r.name}`,
} as const;
const ACTION_BUTTONS = { pin: 'Pin', rollback: 'Roll back', preview: 'Preview' } as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'The portal could not do that. Please try again.';
}

/** The confirmation of one change: the version (pin, preview) and the reason (pin, rollback). */
function ActionModal({ action, environment, onClose, onDone }: { action: Action; environment: string; onClose(): void; onDone(text: string, reload: boolean): void }) {
  const { kind, remote } = action;
  const [form] = Form.useForm<{ version?: string; reason?: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const choices = remote.versions.filter((v) => v.version !== remote.version);

  const submit = async () => {
    let values: { version?: string; reason?: string };
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields say what is missing
    }
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'pin') {
        const change = await call(pinRemoteVersion, { body: { environment, remote: remote.name, version: values.version ?? '', reason: (values.reason ?? '').trim() } });
        onDone(`${environment} now runs ${change.remote} ${change.to_version}, from the next page load.`, false);
      } else if (kind === 'rollback') {
        const change = await call(rollbackRemoteVersion, { body: { environment, remote: remote.name, reason: (values.reason ?? '').trim() } });
        onDone(`${environment} rolled ${change.remote} back to ${change.to_version}, from the next page load.`, false);
      } else {
        await call(startRemotePreview, { params: { remote: remote.name }, body: { version: values.version ?? '' } });
        onDone(`Previewing ${remote.name} ${values.version ?? ''}.`, true);
      }
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={ACTION_TITLES[kind](remote)}
      width={MODAL_WIDTH}
      okText={ACTION_BUTTONS[kind]}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        {kind === 'rollback' ? (
          <Typography.Paragraph>
            {environment} runs {remote.name} {remote.version}. A rollback pins {remote.rollback_to}, the version pinned before it, for everyone from their next page load.
          </Typography.Paragraph>
        ) : (
          <Form.Item name="version" label="Version" rules={[{ required: true, message: 'Please choose a version.' }]}>
            <Select
              aria-label="Version"
              options={choices.map((v) => ({
                value: v.version,
                disabled: !v.compatible,
                label: v.compatible ? `${v.version} (contract ${v.contract})` : `${v.version} (needs contract ${v.contract})`,
              }))}
              placeholder={choices.length === 0 ? 'No other version is published' : 'Choose a published version'}
            />
          </Form.Item>
        )}
        {kind === 'preview' ? (
          <Typography.Paragraph>Only your browser runs it, from the next page load; everyone else keeps {remote.version}.</Typography.Paragraph>
        ) : (
          <Form.Item
            name="reason"
            label="Reason"
            rules={[{ required: true, whitespace: true, message: 'Please say why (it is kept in the history).' }, { max: 1000, message: 'At most 1000 characters.' }]}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
        )}
      </Form>
      {error !== undefined && <Alert type="error" role="alert" showIcon title={error} />}
    </Modal>
  );
}

const HISTORY_COLUMNS = [
  { title: 'When', dataIndex: 'changed_at', key: 'when', render: (at: number) => formatDateTimeWithZone(at) },
  { title: 'Remote', dataIndex: 'remote', key: 'remote' },
  { title: 'Action', dataIndex: 'action', key: 'action' },
  { title: 'From', dataIndex: 'from_version', key: 'from', render: (v: string | null) => v ?? '—' },
  { title: 'To', dataIndex: 'to_version', key: 'to' },
  { title: 'By', dataIndex: 'changed_by', key: 'by' },
  { title: 'Why', dataIndex: 'reason', key: 'why' },
];

export default function ManageRemotesPage() {
  const [environment, setEnvironment] = useState<string>();
  const [again, setAgain] = useState(0);
  const [action, setAction] = useState<Action>();
  const [done, setDone] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const state = useLoaded(
    useCallback((signal: AbortSignal) => call(getFederation, { query: environment === undefined ? {} : { environment } }, { signal }), [environment]),
    again,
  );
  const shownEnvironment = state.status === 'ready' ? state.value.environment : environment;
  const history = useLoaded(
    useCallback(
      (signal: AbortSignal) => (shownEnvironment === undefined ? Promise.resolve({ environment: '', history: [] as PinHistoryEntry[] }) : call(getPinHistory, { query: { environment: shownEnvironment } }, { signal })),
      [shownEnvironment],
    ),
    again,
  );

  const endPreview = async (remote: string) => {
    try {
      await call(endRemotePreview, { params: { remote } });
      window.location.reload();
    } catch (error) {
      setFailure(messageOf(error));
    }
  };

  const data = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const served = data !== undefined && data.environment === data.served_environment;

  return (
    <>
      <PageTitle>Manage Remotes</PageTitle>
      <Typography.Paragraph>
        What each remote of an environment runs. A pin or a rollback applies to everyone from their next page load; a preview only to your browser.
      </Typography.Paragraph>
      {done !== undefined && <Alert type="success" showIcon role="status" title={done} closable onClose={() => setDone(undefined)} style={{ marginBottom: 16 }} />}
      {failure !== undefined && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} />}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={messageOf(state.error)} style={{ marginBottom: 16 }} />}
      <Space style={{ marginBottom: 16 }} wrap>
        <label htmlFor="environment">Environment</label>
        <Select
          id="environment"
          style={{ minWidth: 200 }}
          value={data?.environment}
          options={(data?.environments ?? []).map((e) => ({ value: e, label: e === data?.served_environment ? `${e} (this server)` : e }))}
          onChange={(value: string) => setEnvironment(value)}
        />
        {data && <Typography.Text type="secondary">Host contract {data.host_contract}</Typography.Text>}
      </Space>
      <Table<RemoteState>
        rowKey="name"
        loading={state.status === 'loading'}
        dataSource={data?.remotes ?? []}
        pagination={false}
        scroll={{ x: '100%' }}
        aria-label="Remotes"
        expandable={{
          expandedRowRender: (remote) => (
            <Table
              rowKey="version"
              size="small"
              pagination={false}
              aria-label={`Published versions of ${remote.name}`}
              dataSource={remote.versions}
              columns={[
                { title: 'Published version', dataIndex: 'version', key: 'version' },
                { title: 'Contract', dataIndex: 'contract', key: 'contract' },
                { title: 'Published at', dataIndex: 'published_at', key: 'at', render: (at: number) => formatDateTimeWithZone(at) },
                { title: 'Published by', dataIndex: 'published_by', key: 'by' },
                { title: 'Runs on this host', dataIndex: 'compatible', key: 'compatible', render: (ok: boolean) => (ok ? 'Yes' : 'No: another contract') },
              ]}
            />
          ),
          rowExpandable: (remote) => remote.versions.length > 0,
        }}
        columns={[
          { title: 'Remote', dataIndex: 'name', key: 'name' },
          {
            title: 'Version',
            key: 'version',
            render: (_: unknown, remote) => (
              <Space size={4} wrap>
                {remote.version}
                {remote.preview !== null && <Tag color="processing">your preview: {remote.preview}</Tag>}
              </Space>
            ),
          },
          { title: 'Contract', dataIndex: 'contract', key: 'contract' },
          { title: 'Pinned at', dataIndex: 'pinned_at', key: 'at', render: (at: number) => formatDateTimeWithZone(at) },
          { title: 'Pinned by', dataIndex: 'pinned_by', key: 'by' },
          { title: 'Reason', dataIndex: 'reason', key: 'reason' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, remote) => (
              <Space wrap>
                <Button onClick={() => setAction({ kind: 'pin', remote })} aria-label={`Pin a version of ${remote.name}`}>
                  Pin a version
                </Button>
                <Button
                  onClick={() => setAction({ kind: 'rollback', remote })}
                  disabled={remote.rollback_to === null}
                  aria-label={`Roll back ${remote.name}`}
                  title={remote.rollback_to === null ? 'No earlier pin to roll back to' : `Back to ${remote.rollback_to}`}
                >
                  Roll back
                </Button>
                {served &&
                  (remote.preview === null ? (
                    <Button onClick={() => setAction({ kind: 'preview', remote })} aria-label={`Preview a version of ${remote.name}`}>
                      Preview
                    </Button>
                  ) : (
                    <Button onClick={() => void endPreview(remote.name)} aria-label={`End the preview of ${remote.name}`}>
                      End preview
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 32, marginBottom: 8 }} align="baseline" wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          History
        </Typography.Title>
        {shownEnvironment !== undefined && <a href={linkTo(pinHistoryCsv, { query: { environment: shownEnvironment } })}>Export CSV</a>}
      </Space>
      <Table<PinHistoryEntry>
        rowKey="id"
        aria-label="History"
        loading={history.status === 'loading'}
        dataSource={history.status === 'ready' ? history.value.history : []}
        columns={HISTORY_COLUMNS}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: '100%' }}
      />
      {action && data && (
        <ActionModal
          action={action}
          environment={data.environment}
          onClose={() => setAction(undefined)}
          onDone={(text, reload) => {
            setAction(undefined);
            if (reload) {
              window.location.reload();
              return;
            }
            setDone(text);
            setAgain((n) => n + 1);
          }}
        />
      )}
    </>
  );
}
