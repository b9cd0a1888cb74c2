/**
 * One membership request in group administration (spec section 2, "Membership request details"):
 * the group-administration heading, the member (a link to their account with VIEW_ACCOUNT), what
 * they ask to join and leave, the reason, the history, and the decision panel when the caller may
 * decide (ADJUDICATE_MEMBERSHIP_REQUEST in the group, and not their own request).
 */
import { links, type UserGroup } from '@portal/api';
import { membershipRequestKind } from '@portal/api/request-kinds/membership';
import { useHasPermission } from '@portal/shared';
import { capitalize, DecisionPanel, errorText, formatDateTimeWithZone, isNotFound, NotFoundView, ReasonText, UpdatesTable, useLoaded } from '@portal/shared/components';
import { Alert, Descriptions, Skeleton, Typography } from 'antd';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { decideMembership, getMembershipRequest } from '../api/groups';
import { GROUP_TEXT } from '../messages';


export function MembershipRequestView({ group, requestId, onDecided }: { group: UserGroup; requestId: number; onDecided: (feedback: string) => void }) {
  const canViewAccount = useHasPermission('VIEW_ACCOUNT');
  const load = useCallback((signal: AbortSignal) => getMembershipRequest(requestId, { signal }), [requestId]);
  const state = useLoaded(load);
  if (state.status === 'failed') {
    if (isNotFound(state.error)) return <NotFoundView />;
    return <Alert type="error" showIcon role="alert" title={errorText(state.error)} />;
  }
  if (state.status !== 'ready') return <Skeleton active aria-busy="true" />;
  const request = state.value;
  if (request.user_group !== group.id) return <NotFoundView />;
  return (
    <>
      <Typography.Title level={3}>{`Membership Request ${request.id}`}</Typography.Title>
      <Typography.Paragraph>
        <Link to={links.groupAdministration(group.id)}>Back to {group.id}</Link>
      </Typography.Paragraph>
      <section aria-label="Request Details">
        <Descriptions bordered column={1} size="small" style={{ maxWidth: 720 }}>
          <Descriptions.Item label="Username">
            {canViewAccount ? <Link to={links.manageAccounts(request.username)}>{request.username}</Link> : request.username}
          </Descriptions.Item>
          <Descriptions.Item label="Name">{`${request.first_name} ${request.last_name}`}</Descriptions.Item>
          <Descriptions.Item label="Email">{request.email}</Descriptions.Item>
          <Descriptions.Item label="Join">{request.join.join(', ') || 'None'}</Descriptions.Item>
          <Descriptions.Item label="Leave">{request.leave.join(', ') || 'None'}</Descriptions.Item>
          <Descriptions.Item label="Reason">
            <ReasonText reason={request.reason} />
          </Descriptions.Item>
          <Descriptions.Item label="Status">{capitalize(request.status)}</Descriptions.Item>
          <Descriptions.Item label="Created">{formatDateTimeWithZone(request.created)}</Descriptions.Item>
          {request.submitted_by && <Descriptions.Item label="Submitted by">{request.submitted_by}</Descriptions.Item>}
        </Descriptions>
      </section>
      <UpdatesTable updates={request.updates} />
      {request.decisions.length > 0 && (
        <DecisionPanel
          request={request}
          buttons={{ approved: 'Approve', denied: 'Deny' }}
          commentLimit={membershipRequestKind.commentLimit}
          describe={`Membership Request ${request.id}`}
          decide={(decision, comment) => decideMembership(request.id, decision, comment)}
          onDecided={(decision) =>
            onDecided(GROUP_TEXT.membershipDecided(request.username, group.id, decision === 'approved' ? 'approved' : 'denied'))
          }
        />
      )}
      {request.decisions.length > 0 && <Alert type="info" showIcon role="note" title={GROUP_TEXT.syncNotice} style={{ marginTop: 16 }} />}
    </>
  );
}
