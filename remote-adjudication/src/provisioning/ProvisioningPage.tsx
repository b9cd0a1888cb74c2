/**
 * /provisioning, for platform administrators (MANAGE_PROVISIONING): each target the portal keeps
 * in step (the LDAP directory, SCIM services) with its backlog, failing count, oldest pending
 * change and last reconcile; the failures with their reasons and Retry; the latest history with
 * what each reconcile repaired; Reconcile now after a confirmation; the history as CSV.
 */
import type { ProvisioningEvent, ProvisioningFailure, ProvisioningTarget, ReconcileResult } from '@portal/api';
import { ConfirmModal, PageTitle, useConfirmation } from '@portal/shared';
import { errorText, formatDateTime, useLoaded } from '@portal/shared/components';
import { Alert, Button, Flex, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import { Section } from '../Section';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getProvisioning, provisioningHistoryUrl, reconcileProvisioning, retryProvisioning, type ProvisioningOverview } from '../api/provisioning';

export const PROVISIONING_TITLE = 'Provisioning';
export const NO_TARGETS = 'No provisioning target is configured.';
export const NO_FAILURES = 'No failures.';
export const NO_HISTORY = 'Nothing has happened yet.';
export const RECONCILE_TITLE = 'Reconcile now?';
export const RECONCILE_TEXT =
  'Each target is compared with what the portal has decided, and every difference is repaired now: missing entries and members are added, wrong ones changed or removed. With many accounts this takes a while.';
export const retriedText = (count: number) =>
  count === 0 ? 'Nothing was waiting to be retried.' : `${count} failed ${count === 1 ? 'change is' : 'changes are'} being tried again.`;
export const RECONCILED = 'Reconcile finished.';
/**
 * How often the page reads the targets again by itself while it is in view: a backlog drains and
 * failures clear on their own, and an administrator watching the page should see it happen.
 */
export const AUTO_REFRESH_MS = 15_000;
export const notReadAgainText = (reason: string) => `The page could not be read again (${reason}); it shows the last answer and tries again.`;
export const readAtText = (at: number) => `Read at ${new Date(at).toLocaleTimeString('en-US')}; read again every ${AUTO_REFRESH_MS / 1000} seconds.`;

/** What a history entry is, in words. */
const KIND_WORDS: Record<ProvisioningEvent['kind'], string> = { failed: 'Failed', retry: 'Retry asked', reconciled: 'Reconciled' };

const dateOr = (value: number | null, none: string) => (value === null ? none : formatDateTime(value));
/** Text that may run over several lines (a reconcile's repairs), kept as the server wrote it. */
const lines = (text: string) => <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text}</span>;

const TARGET_COLUMNS: TableColumnsType<ProvisioningTarget> = [
  { title: 'Target', dataIndex: 'name', key: 'name', render: (name: string, target) => `${name} (${target.kind})` },
  { title: 'Backlog', dataIndex: 'backlog', key: 'backlog', align: 'right' },
  { title: 'Failing', dataIndex: 'failing', key: 'failing', align: 'right' },
  { title: 'Oldest pending', dataIndex: 'oldest_pending', key: 'oldest_pending', render: (at: number | null) => dateOr(at, 'None') },
  { title: 'Last reconcile', dataIndex: 'last_reconcile_at', key: 'last_reconcile_at', render: (at: number | null) => dateOr(at, 'Never') },
  {
    title: 'Differences found',
    dataIndex: 'last_reconcile_differences',
    key: 'last_reconcile_differences',
    align: 'right',
    render: (count: number | null) => (count === null ? '–' : count),
  },
];

const FAILURE_COLUMNS: TableColumnsType<ProvisioningFailure> = [
  { title: 'Target', dataIndex: 'target', key: 'target' },
  { title: 'Object', dataIndex: 'object', key: 'object' },
  { title: 'Since', dataIndex: 'since', key: 'since', render: (at: number) => formatDateTime(at) },
  { title: 'Attempts', dataIndex: 'attempts', key: 'attempts', align: 'right' },
  { title: 'Next attempt', dataIndex: 'next_attempt_at', key: 'next_attempt_at', render: (at: number) => formatDateTime(at) },
  { title: 'Reason', dataIndex: 'error', key: 'error', render: lines },
];

const HISTORY_COLUMNS: TableColumnsType<ProvisioningEvent> = [
  { title: 'When', dataIndex: 'at', key: 'at', render: (at: number) => formatDateTime(at) },
  { title: 'Target', dataIndex: 'target', key: 'target' },
  { title: 'What', dataIndex: 'kind', key: 'kind', render: (kind: ProvisioningEvent['kind']) => KIND_WORDS[kind] },
  { title: 'Object', dataIndex: 'object', key: 'object', render: (object: string | null) => object ?? '' },
  { title: 'Detail', dataIndex: 'detail', key: 'detail', render: lines },
];

/** One reading of the page, when it was made, and why the latest reading by itself failed (the value is then the one before). */
type Reading = { value: ProvisioningOverview; at: number; error: unknown };

type Outcome = { type: 'success' | 'error'; title: string; details?: readonly string[] };

/** A reconcile's answer, one line per target with the differences it found. */
const reconciledLines = (results: readonly ReconcileResult[]) =>
  results.flatMap((r) => [`${r.target}: ${r.summary}`, ...r.drift.map((d) => `  ${d}`), ...r.unknown.map((u) => `  not the portal's: ${u}`)]);

export function ProvisioningPage() {
  const [again, setAgain] = useState(0);
  /** Whether the reading under way is the page's own (no veil, and a failure keeps the last answer) or asked for. */
  const [automatic, setAutomatic] = useState(false);
  const automaticNow = useRef(false);
  const lastRead = useRef<Reading>(undefined);
  const load = useCallback(async (signal: AbortSignal): Promise<Reading> => {
    try {
      const reading = { value: await getProvisioning({ signal }), at: Date.now(), error: undefined };
      lastRead.current = reading;
      return reading;
    } catch (error) {
      if (automaticNow.current && lastRead.current && !signal.aborted) return { ...lastRead.current, error };
      throw error;
    }
  }, []);
  const state = useLoaded(load, again);
  const reading = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const overview = reading?.value;
  const [outcome, setOutcome] = useState<Outcome>();
  const [retrying, setRetrying] = useState(false);
  const confirmation = useConfirmation();
  const readAgain = (byItself: boolean) => {
    automaticNow.current = byItself;
    setAutomatic(byItself);
    setAgain((n) => n + 1);
  };
  const refresh = () => readAgain(false);
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') readAgain(true);
    }, AUTO_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  // Asked for, a reading veils the tables (their rows stay under antd's loading veil).
  const reloading = state.status === 'loading' && !automatic;

  const retry = async () => {
    setRetrying(true);
    try {
      setOutcome({ type: 'success', title: retriedText(await retryProvisioning()) });
    } catch (error) {
      setOutcome({ type: 'error', title: errorText(error) });
    } finally {
      setRetrying(false);
      refresh();
    }
  };

  const reconcile = async () => {
    if (!(await confirmation.ask(true))) return;
    try {
      setOutcome({ type: 'success', title: RECONCILED, details: reconciledLines(await reconcileProvisioning()) });
    } catch (error) {
      setOutcome({ type: 'error', title: errorText(error) });
    } finally {
      confirmation.finish();
      refresh();
    }
  };

  return (
    <>
      <PageTitle>{PROVISIONING_TITLE}</PageTitle>
      {!overview && state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {reading?.error !== undefined && (
        <Alert type="warning" showIcon role="alert" title={notReadAgainText(errorText(reading.error))} style={{ marginBottom: 16 }} />
      )}
      {outcome && (
        <Alert
          type={outcome.type}
          showIcon
          role={outcome.type === 'error' ? 'alert' : 'status'}
          title={outcome.title}
          description={outcome.details && outcome.details.length > 0 ? lines(outcome.details.join('\n')) : undefined}
          closable={{ 'aria-label': 'Dismiss' }}
          onClose={() => setOutcome(undefined)}
          style={{ marginBottom: 16 }}
        />
      )}
      {overview && (
        <>
          <Flex gap="small" wrap>
            <Button type="primary" onClick={() => void reconcile()} disabled={overview.targets.length === 0 || confirmation.modal.open}>
              Reconcile now
            </Button>
            <Button onClick={refresh} disabled={reloading}>
              Refresh
            </Button>
            {reading && (
              <Typography.Text type="secondary" style={{ alignSelf: 'center' }}>
                {readAtText(reading.at)}
              </Typography.Text>
            )}
          </Flex>
          <Section title="Targets">
            <Table rowKey="name" size="small" columns={TARGET_COLUMNS} dataSource={overview.targets} loading={reloading} pagination={false} locale={{ emptyText: NO_TARGETS }} />
          </Section>
          <Section title="Failures">
            {overview.failures.length > 0 && (
              <Button onClick={() => void retry()} loading={retrying} style={{ marginBottom: 12 }}>
                Retry
              </Button>
            )}
            <Table
              rowKey={(f) => `${f.target} ${f.object}`}
              size="small"
              columns={FAILURE_COLUMNS}
              dataSource={overview.failures}
              loading={reloading}
              pagination={false}
              locale={{ emptyText: NO_FAILURES }}
            />
          </Section>
          <Section title="History">
            <Table rowKey="id" size="small" columns={HISTORY_COLUMNS} dataSource={overview.history} loading={reloading} pagination={false} locale={{ emptyText: NO_HISTORY }} />
            <Typography.Paragraph style={{ marginTop: 12 }}>
              <a href={provisioningHistoryUrl()} download>
                Download history (CSV)
              </a>
            </Typography.Paragraph>
          </Section>
        </>
      )}
      <ConfirmModal title={RECONCILE_TITLE} okText="Reconcile" {...confirmation.modal}>
        {RECONCILE_TEXT}
      </ConfirmModal>
    </>
  );
}
