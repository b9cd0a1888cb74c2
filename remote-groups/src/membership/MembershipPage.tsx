/**
 * /request-membership/:usergroupId[/:username] and /change-membership/:usergroupId[/:username]
 * (spec sections 2, 4, 5 and 8): without a username the signed-in user acts on their own
 * membership; with one, a surrogate acts (SUBMIT_SURROGATE_REQUEST in the group, else /groups).
 * The form, and 'Leave Group' ('Remove User From Group' for a surrogate) behind a confirmation
 * that leaves every group held with the reason 'Request to leave group.'.
 */
import { GROUP_MESSAGES, links, type Membership, type MembershipRequestAnswer, type UserGroup } from '@portal/api';
import { ConfirmModal, PageTitle, useConfirmation, useNavigateWithFeedback, useSessionStore } from '@portal/shared';
import { capitalize, errorText, useLoaded } from '@portal/shared/components';
import { Alert, Button, Skeleton, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { membershipOf, submitMembership } from '../api/groups';
import { WithGroup } from '../groups/useGroup';
import { GROUP_TEXT } from '../messages';
import { MembershipForm } from './MembershipForm';

type Mode = 'request' | 'change';

function LeaveGroup({ group, username, surrogate, membership }: { group: UserGroup; username: string; surrogate: boolean; membership: Membership }) {
  const confirmation = useConfirmation();
  const navigateWithFeedback = useNavigateWithFeedback();
  const [failure, setFailure] = useState<string>();
  const label = surrogate ? 'Remove User From Group' : 'Leave Group';
  const leave = async () => {
    setFailure(undefined);
    if (!(await confirmation.ask(true))) return;
    try {
      const answer = await submitMembership({
        user_group: group.id,
        username,
        join: [],
        leave: [...membership.direct, ...membership.nested],
        reason: GROUP_MESSAGES.leaveReason,
        updateIntent: 'leave',
      });
      confirmation.finish();
      // A surrogate who is not the group's admin asks; the group's admins decide.
      if (surrogate) navigateWithFeedback(links.groupAdministration(group.id), answer.status === 'pending' ? GROUP_TEXT.changeSent(group.id) : GROUP_TEXT.removed(username, group.id));
      else navigateWithFeedback(links.groups(), GROUP_TEXT.left(group.id));
    } catch (error) {
      confirmation.finish();
      setFailure(errorText(error));
    }
  };
  return (
    <section aria-label={label} style={{ marginTop: 32 }}>
      <Button danger onClick={() => void leave()}>
        {label}
      </Button>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 16 }} />}
      <ConfirmModal {...confirmation.modal} title={label} okText={label}>
        <Typography.Paragraph>
          {surrogate ? `Remove ${username} from every group of ${group.id}?` : `Leave every group of ${group.id}? You will need to ask again to rejoin.`}
        </Typography.Paragraph>
      </ConfirmModal>
    </section>
  );
}

function MembershipView({ group, username, surrogate, mode }: { group: UserGroup; username: string; surrogate: boolean; mode: Mode }) {
  const [searchParams] = useSearchParams();
  const navigateWithFeedback = useNavigateWithFeedback();
  const load = useCallback((signal: AbortSignal) => membershipOf(group.id, username, { signal }), [group.id, username]);
  const state = useLoaded(load);
  // Spec section 8: 'Membership load errors show the capitalized message.'
  if (state.status === 'failed') return <Alert type="error" showIcon role="alert" title={capitalize(errorText(state.error))} />;
  if (state.status !== 'ready') return <Skeleton active aria-busy="true" />;
  const membership = state.value;
  const isMember = membership !== undefined && membership.direct.length + membership.nested.length > 0;
  const intent = isMember ? 'update' : 'request';

  const done = (answer: MembershipRequestAnswer) => {
    const destination = surrogate ? links.groupAdministration(group.id) : links.groups();
    if (intent === 'request') navigateWithFeedback(destination, answer.status === 'pending' ? GROUP_TEXT.joinSent(group.id) : GROUP_TEXT.membershipSaved(group.id));
    else navigateWithFeedback(destination, answer.status === 'pending' ? GROUP_TEXT.changeSent(group.id) : GROUP_TEXT.membershipSaved(group.id));
  };

  return (
    <>
      {/* The group's answer says whether the caller's own request waits there (not a surrogate's target's). */}
      {!surrogate && group.pending_request && (
        <Alert type="info" showIcon role="status" title={GROUP_TEXT.requestPendingNote(group.id)} style={{ marginBottom: 16 }} />
      )}
      {mode === 'change' && !isMember && (
        <Alert type="info" showIcon role="status" title={`${surrogate ? username : 'You'} ${surrogate ? 'is' : 'are'} not a member of ${group.id} yet: this asks to join.`} style={{ marginBottom: 16 }} />
      )}
      {group.open_access && intent === 'request' && (
        <Typography.Paragraph>This group is open access: joining as a user needs no approval.</Typography.Paragraph>
      )}
      <MembershipForm
        group={group}
        username={username}
        membership={membership}
        intent={intent}
        preselect={searchParams.get('groups')}
        submitLabel="Submit Membership Request"
        onDone={done}
      />
      {isMember && membership.direct.length > 0 && <LeaveGroup group={group} username={username} surrogate={surrogate} membership={membership} />}
    </>
  );
}

export function membershipPage(mode: Mode) {
  return function MembershipPage() {
    const { usergroupId = '', username: param } = useParams();
    const own = useSessionStore((s) => s.session?.username) ?? '';
    const surrogate = param !== undefined && param.toLowerCase() !== own.toLowerCase();
    const username = surrogate ? param : own;
    const title = mode === 'request' ? 'Request Membership' : 'Change Membership';
    return (
      <>
        <PageTitle>{`${title}: ${usergroupId}`}</PageTitle>
        <WithGroup id={usergroupId} needs={surrogate ? 'SUBMIT_SURROGATE_REQUEST' : undefined}>
          {(group) => (
            <>
              <Typography.Paragraph>
                {group.name}: {group.description}
              </Typography.Paragraph>
              <MembershipView group={group} username={username} surrogate={surrogate} mode={mode} />
            </>
          )}
        </WithGroup>
      </>
    );
  };
}

export const RequestMembershipPage = membershipPage('request');
export const ChangeMembershipPage = membershipPage('change');
