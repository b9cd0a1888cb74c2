/**
 * /add-user-to-group/:usergroupId[/:username] (spec sections 2 and 5; ADJUDICATE_MEMBERSHIP_REQUEST
 * in the group, else /groups). Without a username: the account search titled 'Add User To Group
 * {id}'. With one: the membership form (default role user, notification none), Add User, and on
 * success the group's administration. A closed account shows 'The account for username {username}
 * is closed.' in place of the form.
 */
import { GROUP_MESSAGES, links, type UserGroup } from '@portal/api';
import { PageTitle, useNavigateWithFeedback } from '@portal/shared';
import { AccountSearchTable, errorText, SEARCH_LABEL, SearchForm, useLoaded, useSearchQuery } from '@portal/shared/components';
import { Alert, Skeleton } from 'antd';
import { useCallback, useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { membershipOf, searchCandidates } from '../api/groups';
import { WithGroup } from '../groups/useGroup';
import { GROUP_TEXT } from '../messages';
import { MembershipForm } from './MembershipForm';

function CandidateSearch({ group }: { group: UserGroup }) {
  const { term, start, again, search, goTo } = useSearchQuery();
  const load = useMemo(
    () => (term.trim() === '' ? undefined : (signal: AbortSignal) => searchCandidates(group.id, term, start, { signal })),
    [group.id, term, start],
  );
  const state = useLoaded(load, again);
  return (
    <>
      <SearchForm name="Accounts" label={SEARCH_LABEL} term={term} searching={state.status === 'loading'} onSearch={search} />
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={errorText(state.error)} />}
      {(state.status === 'ready' || state.status === 'loading') && (
        <AccountSearchTable state={state} start={start} onPage={goTo} usernameCell={(username) => <Link to={links.addUserToGroup(group.id, username)}>{username}</Link>} />
      )}
    </>
  );
}

function AddUser({ group, username }: { group: UserGroup; username: string }) {
  const navigateWithFeedback = useNavigateWithFeedback();
  const loadAccount = useCallback((signal: AbortSignal) => searchCandidates(group.id, username, 0, { signal }), [group.id, username]);
  const account = useLoaded(loadAccount);
  const loadMembership = useCallback((signal: AbortSignal) => membershipOf(group.id, username, { signal }), [group.id, username]);
  const membership = useLoaded(loadMembership);
  if (account.status === 'failed') return <Alert type="error" showIcon role="alert" title={errorText(account.error)} />;
  if (membership.status === 'failed') return <Alert type="error" showIcon role="alert" title={errorText(membership.error)} />;
  if (account.status !== 'ready' || membership.status !== 'ready') return <Skeleton active aria-busy="true" />;
  const row = account.value.rows.find((r) => r.username.toLowerCase() === username.toLowerCase());
  if (!row) return <Alert type="error" showIcon role="alert" title={`There is no account with the username ${username}.`} />;
  if (row.closed) return <Alert type="error" showIcon role="alert" title={GROUP_MESSAGES.accountClosed(row.username)} />;
  if (membership.value && membership.value.direct.length > 0) {
    return (
      <Alert
        type="info"
        showIcon
        role="status"
        title={`${row.username} is already a member of ${group.id}.`}
        description={<Link to={links.changeMembership(group.id, row.username)}>Change their membership</Link>}
      />
    );
  }
  return (
    <MembershipForm
      group={group}
      username={row.username}
      membership={undefined}
      intent="join"
      submitLabel="Add User"
      onDone={() => navigateWithFeedback(links.groupAdministration(group.id), GROUP_TEXT.added(row.username, group.id))}
    />
  );
}

export function AddUserToGroupPage() {
  const { usergroupId = '', username } = useParams();
  return (
    <>
      <PageTitle>{`Add User To Group ${usergroupId}`}</PageTitle>
      <WithGroup id={usergroupId} needs="ADJUDICATE_MEMBERSHIP_REQUEST">
        {(group) => (username ? <AddUser group={group} username={username} /> : <CandidateSearch group={group} />)}
      </WithGroup>
    </>
  );
}
