/**
 * /manage-accounts/:username, Account Administration (spec sections 2, 4 and 8): the change-email
 * link or its pending note, the account details, a locked or closed notice, the subscriptions,
 * whether the access to each service is up to date (when the portal provisions a directory),
 * the sign-ins to services (LOCK_ACCOUNT, when the portal has an OpenID client) with their ending,
 * the groups, the actions, the account's tokens (when the artifact repository is supported) and
 * the update history with its CSV export. An unknown account shows the not-found view in place.
 */
import { type Account, accountStatus, type AccountUpdate, isServiceSupported, links, SERVICE_INFO, supportedServices } from '@portal/api';
import { ApiError, PageTitle, useConfiguration, useHasPermission } from '@portal/shared';
import {
  AccountDetails,
  AccountGroupsTable,
  accountSignInWords,
  cameFrom,
  errorText,
  formatDateTime,
  isNotFound,
  NotFoundView,
  ServiceAccessPanel,
  ServiceSignInsPanel,
  useLoaded,
} from '@portal/shared/components';
import { accountHistoryUrl, endAccountServiceSignIn, listAccountServiceSignIns } from '../api/accountAdmin';
import { getAccount, getSubscriptions } from '../api/accounts';
import { Alert, Descriptions, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import { Section } from '../Section';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { Comment } from '@portal/shared/components';
import { AccountActions } from './AccountActions';
import { AccountTokens } from './AccountTokens';

export const EMAIL_CHANGE_PENDING = '[Email change is pending]';
export const ACCOUNT_LOCKED = 'ACCOUNT LOCKED';
export const ACCOUNT_CLOSED = 'ACCOUNT CLOSED';
export const NO_GROUPS = 'This user is not a member of any groups.';
export const NO_HISTORY = 'There is no update history for this account.';
export const NO_SERVICES = 'No services are available for subscription.';
export const SUBSCRIBED = 'Subscribed';
export const SUBSCRIBED_THROUGH_A_GROUP = 'Subscribed through a group';
export const NOT_SUBSCRIBED = 'Not subscribed';

/** Spec section 8: "Error getting user's subscriptions: {status} {error}". */
export const subscriptionsError = (error: unknown) =>
  `Error getting user's subscriptions: ${error instanceof ApiError ? error.status : 0} ${errorText(error)}`;

function AccountLinks({ account }: { account: Account }) {
  // EDIT_ACCOUNT shows the link (spec section 6); changing another's email needs
  // SUBMIT_SURROGATE_REQUEST (section 5), which /change-email/{username} and the server ask for.
  const canEditAccount = useHasPermission('EDIT_ACCOUNT');
  const canActForOthers = useHasPermission('SUBMIT_SURROGATE_REQUEST');
  const canEdit = canEditAccount && canActForOthers;
  let node: ReactNode = null;
  if (account.email_change_pending) node = <Typography.Text type="secondary">{EMAIL_CHANGE_PENDING}</Typography.Text>;
  else if (canEdit && !account.closed) node = <Link to={links.changeEmail(account.username)}>Change email</Link>;
  if (!node) return null;
  return (
    <nav aria-label="Account actions" style={{ marginBottom: 16 }}>
      {node}
    </nav>
  );
}

function StatusNotice({ account }: { account: Account }) {
  const status = accountStatus(account);
  if (status === 'Active') return null;
  return (
    <Alert
      type={status === 'Closed' ? 'error' : 'warning'}
      showIcon
      role="status"
      title={status === 'Closed' ? ACCOUNT_CLOSED : ACCOUNT_LOCKED}
      style={{ marginBottom: 16 }}
    />
  );
}

function AccountSubscriptions({ username }: { username: string }) {
  const configuration = useConfiguration();
  const services = useMemo(() => supportedServices(configuration), [configuration]);
  const load = useMemo(
    () => (services.length === 0 ? undefined : (signal: AbortSignal) => getSubscriptions(username, { signal })),
    [username, services.length],
  );
  const state = useLoaded(load);
  let content: ReactNode;
  if (services.length === 0) content = <Typography.Paragraph>{NO_SERVICES}</Typography.Paragraph>;
  else if (state.status === 'failed') content = <Alert type="error" showIcon role="alert" title={subscriptionsError(state.error)} />;
  else if (state.status !== 'ready') content = <Skeleton active paragraph={{ rows: 2 }} aria-busy="true" />;
  else {
    const { direct, nested } = state.value;
    content = (
      <Descriptions
        bordered
        size="small"
        column={1}
        items={services.map((service) => ({
          key: service,
          label: SERVICE_INFO[service].name,
          children: direct.includes(service) ? SUBSCRIBED : nested.includes(service) ? SUBSCRIBED_THROUGH_A_GROUP : NOT_SUBSCRIBED,
        }))}
      />
    );
  }
  return <Section title="Subscriptions">{content}</Section>;
}

const HISTORY_COLUMNS: TableColumnsType<AccountUpdate & { key: number }> = [
  {
    title: 'Comment',
    dataIndex: 'comment',
    key: 'comment',
    // What the change did (when the server says it) before why: 'Locked: Suspicious sign-ins'.
    render: (comment: string, update) => <Comment comment={update.action ? `${update.action}${comment ? `: ${comment}` : ''}` : (comment ?? '')} />,
  },
  { title: 'Date', dataIndex: 'created', key: 'created', render: (value: string) => formatDateTime(value) },
  { title: 'Username', dataIndex: 'username', key: 'username' },
  { title: 'Active?', dataIndex: 'active', key: 'active', render: (active: boolean) => (active ? 'Yes' : 'No') },
];

/** The account's sign-ins to services, each ended with End (the history, reloaded, records it). */
function AccountServiceSignIns({ username, onEnded }: { username: string; onEnded(): void }) {
  const load = useCallback((signal: AbortSignal) => listAccountServiceSignIns(username, { signal }), [username]);
  const end = useCallback((client: string) => endAccountServiceSignIn(username, client), [username]);
  const words = useMemo(() => accountSignInWords(username), [username]);
  return <ServiceSignInsPanel load={load} end={end} words={words} onEnded={onEnded} />;
}

function AccountAdministration({ account, returnTo, reload }: { account: Account; returnTo: string; reload(): void }) {
  const tokensSupported = isServiceSupported(useConfiguration(), 'artifacts');
  // Held site-wide, SUBMIT_SURROGATE_REQUEST reaches every group (the help desk's way to a member's Remove User From Group).
  const surrogate = useHasPermission('SUBMIT_SURROGATE_REQUEST');
  // Who may lock the account may see and end its sign-ins to services.
  const canEndSignIns = useHasPermission('LOCK_ACCOUNT');
  return (
    <>
      <AccountLinks account={account} />
      <StatusNotice account={account} />
      <AccountDetails account={account} showPersonalData />
      <AccountSubscriptions username={account.username} />
      <ServiceAccessPanel username={account.username} />
      {canEndSignIns && <AccountServiceSignIns username={account.username} onEnded={reload} />}
      <Section title="Groups">
        <AccountGroupsTable groups={account.groups} emptyText={NO_GROUPS} {...(surrogate ? { surrogateFor: account.username } : {})} />
      </Section>
      <AccountActions account={account} returnTo={returnTo} />
      {tokensSupported && (
        <Section title="Access Tokens">
          <AccountTokens username={account.username} onRevoked={reload} />
        </Section>
      )}
      <Section title="Update History">
        {/* Newest first, as the server gives them. */}
        <Table
          rowKey="key"
          size="small"
          columns={HISTORY_COLUMNS}
          dataSource={(account.updates ?? []).map((update, key) => ({ ...update, key }))}
          pagination={false}
          locale={{ emptyText: NO_HISTORY }}
        />
        <Typography.Paragraph style={{ marginTop: 12 }}>
          {/* A plain link: the browser sends the session cookie and saves {username}-history.csv. */}
          <a href={accountHistoryUrl(account.username)} download>
            Export history (CSV)
          </a>
        </Typography.Paragraph>
      </Section>
    </>
  );
}

export function AccountAdministrationPage() {
  const { username = '' } = useParams<{ username: string }>();
  const location = useLocation();
  const returnTo = cameFrom(location.state) ?? links.manageAccounts();
  const load = useCallback((signal: AbortSignal) => getAccount(username, { signal }), [username]);
  const [again, setAgain] = useState(0);
  const state = useLoaded(load, again);
  // While it reloads (a token revoked: the history has a new entry), the page stays as it was.
  const previous = state.status === 'loading' && state.previous?.username === username ? state.previous : undefined;
  const account = state.status === 'ready' ? state.value : previous;

  if (state.status === 'failed' && isNotFound(state.error)) return <NotFoundView />;
  return (
    <>
      <PageTitle>Account Administration</PageTitle>
      {!account && state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {account && <AccountAdministration account={account} returnTo={returnTo} reload={() => setAgain((n) => n + 1)} />}
    </>
  );
}
