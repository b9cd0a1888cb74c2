/**
 * /profile, 'User Profile: {username}' (spec section 2): links to the user's other screens (or a
 * note where a request is pending), the account details panel, the groups table, whether the
 * access to each service the user uses is up to date (when the portal provisions a directory),
 * the sign-ins to services (when the portal has an OpenID client) with a sign-out of each, and
 * signing out everywhere.
 */
import { type Account, links } from '@portal/api';
import { PageTitle, useConfiguration, useHasPermission, useSessionStore } from '@portal/shared';
import { AccountDetails, AccountGroupsTable, OWN_SIGN_IN_WORDS, ServiceAccessPanel, ServiceSignInsPanel } from '@portal/shared/components';
import { Alert, Flex, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';

const loadSignIns = (signal: AbortSignal) => listServiceSignIns({ signal });
import { Link } from 'react-router-dom';
import { endServiceSignIn, listServiceSignIns } from '../api/profile';
import { SignOutEverywhere } from './SignOutEverywhere';
import { useAccount } from './useAccount';

export const PROFILE_LOAD_ERROR = 'Unable to get profile';
export const NO_GROUPS = 'You are not a member of any groups.';
export const EMAIL_CHANGE_PENDING = '[Email change is pending]';
export const AUTH_CHANGE_PENDING = '[Authentication change is pending]';

function ProfileLinks({ account }: { account: Account }) {
  const { cac_support } = useConfiguration();
  const canUpdate = useHasPermission('allow-profilechange');
  const canEditAccounts = useHasPermission('EDIT_ACCOUNT');
  const canChangeEmail = useHasPermission('CHANGE_EMAIL');
  const canChangeAuth = useHasPermission('allow-authchange');

  const items: { key: string; node: ReactNode }[] = [];
  if (canUpdate || canEditAccounts) items.push({ key: 'update', node: <Link to={links.updateProfile()}>Update Profile</Link> });
  items.push({ key: 'lists', node: <Link to={links.mailingLists()}>Mailing Lists</Link> });
  if (account.email_change_pending) items.push({ key: 'email', node: <Typography.Text type="secondary">{EMAIL_CHANGE_PENDING}</Typography.Text> });
  else if (canChangeEmail) items.push({ key: 'email', node: <Link to={links.changeEmail()}>Change Email</Link> });
  if (cac_support) {
    if (account.auth_change_pending) items.push({ key: 'auth', node: <Typography.Text type="secondary">{AUTH_CHANGE_PENDING}</Typography.Text> });
    else if (canChangeAuth) items.push({ key: 'auth', node: <Link to={links.changeAuthType()}>Change Authentication Type</Link> });
  }
  return (
    <nav aria-label="Profile actions" style={{ marginBottom: 24 }}>
      <Flex component="ul" wrap gap="small" style={{ listStyle: 'none', padding: 0, margin: 0 }} role="list">
        {items.map(({ key, node }, index) => (
          <li key={key}>
            {index > 0 && <Typography.Text type="secondary" aria-hidden style={{ marginInlineEnd: 8 }}>|</Typography.Text>}
            {node}
          </li>
        ))}
      </Flex>
    </nav>
  );
}

export function ProfilePage() {
  const username = useSessionStore((s) => s.session?.username);
  const state = useAccount(username);

  return (
    <>
      <PageTitle documentTitle="User Profile">{`User Profile: ${username ?? ''}`}</PageTitle>
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && (
        <Alert type="error" showIcon role="alert" title={PROFILE_LOAD_ERROR} description={state.error instanceof Error ? state.error.message : undefined} />
      )}
      {state.status === 'ready' && (
        <>
          <ProfileLinks account={state.value} />
          <AccountDetails account={state.value} showPersonalData />
          <section aria-labelledby="profile-groups" style={{ marginTop: 24 }}>
            <Typography.Title level={3} id="profile-groups">
              Groups
            </Typography.Title>
            <AccountGroupsTable groups={state.value.groups} emptyText={NO_GROUPS} />
          </section>
          <ServiceAccessPanel username={state.value.username} />
          <ServiceSignInsPanel load={loadSignIns} end={endServiceSignIn} words={OWN_SIGN_IN_WORDS} />
          <SignOutEverywhere />
        </>
      )}
    </>
  );
}
