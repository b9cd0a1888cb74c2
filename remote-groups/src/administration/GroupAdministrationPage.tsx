/**
 * /group-administration/:usergroupId[/:requestId] (spec sections 2, 6 and 8; any permission in
 * the group, else /groups): the group's details, its members (VIEW_MEMBERSHIP) with the filter and
 * the Action/Change column, its membership requests (LIST_MEMBERSHIP_REQUESTS) and one request
 * with its decision (VIEW and ADJUDICATE_MEMBERSHIP_REQUEST), its additional permission groups,
 * its mailing lists, and Manage All Groups (LIST_USER_GROUP_REQUESTS).
 */
import { links, serviceNames, visibilityText, type UserGroup } from '@portal/api';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';
import { PageTitle, useHasPermission, useNavigateWithFeedback } from '@portal/shared';
import { errorText, NotFoundView, RequestTable, useLoaded } from '@portal/shared/components';
import { Alert, Descriptions, Space, Typography } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { listGroupMailingLists, listMembershipRequests } from '../api/groups';
import { WithGroup } from '../groups/useGroup';
import { GROUP_TEXT } from '../messages';
import { AddUserLink, MembersSection } from './MembersSection';
import { MembershipRequestView } from './MembershipRequestView';
import { PermissionGroupsSection } from './PermissionGroupsSection';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} style={{ marginTop: 32 }}>
      <Typography.Title level={3} id={id}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

function Details({ group }: { group: UserGroup }) {
  return (
    <Descriptions bordered column={1} size="small" style={{ maxWidth: 720 }}>
      <Descriptions.Item label="Group ID">{group.id}</Descriptions.Item>
      <Descriptions.Item label="Name">{group.name}</Descriptions.Item>
      <Descriptions.Item label="Description">{group.description}</Descriptions.Item>
      <Descriptions.Item label="Domain">{group.domain}</Descriptions.Item>
      <Descriptions.Item label="Open access">{group.open_access ? 'Yes' : 'No'}</Descriptions.Item>
      <Descriptions.Item label="Visibility">{visibilityText(group.visibility)}</Descriptions.Item>
      <Descriptions.Item label="Membership constraint">{GROUP_TEXT.constraint[group.memberConstraint]}</Descriptions.Item>
      <Descriptions.Item label="Services">{serviceNames(group.services)}</Descriptions.Item>
      <Descriptions.Item label="Members">{group.member_count}</Descriptions.Item>
    </Descriptions>
  );
}

function MembershipRequests({ group }: { group: UserGroup }) {
  const [start, setStart] = useState(0);
  const load = useCallback((signal: AbortSignal) => listMembershipRequests(group.id, start, { signal }), [group.id, start]);
  const state = useLoaded(load);
  const canView = group.permissions.includes('VIEW_MEMBERSHIP_REQUEST');
  if (state.status === 'failed') return <Alert type="error" showIcon role="alert" title={errorText(state.error)} />;
  return (
    <RequestTable
      state={state}
      start={start}
      emptyText={GROUP_TEXT.noRequests}
      showUsername
      withSeconds
      onPage={setStart}
      {...(canView ? { detailsPath: (row) => links.groupAdministration(group.id, row.id) } : {})}
    />
  );
}

function MailingLists({ group }: { group: UserGroup }) {
  const load = useCallback((signal: AbortSignal) => listGroupMailingLists(group.id, { signal }), [group.id]);
  const state = useLoaded(load);
  if (state.status === 'failed') {
    const text = errorText(state.error) === 'Bad Request' ? GROUP_TEXT.sessionExpired : GROUP_TEXT.mailingListsFailed(group.id);
    return <Alert type="error" showIcon role="alert" title={text} />;
  }
  if (state.status !== 'ready') return null;
  // The group's admins moderate its lists: for them each list opens its member administration.
  const moderates = group.role === 'admin';
  const request = group.permissions.includes('SUBMIT_MAILING_LIST_REQUEST') ? (
    <Typography.Paragraph>
      <Link to={links.newMailingList(group.id)}>Request a mailing list</Link>
    </Typography.Paragraph>
  ) : null;
  if (state.value.length === 0) {
    return (
      <>
        <Typography.Paragraph>{GROUP_TEXT.noMailingLists}</Typography.Paragraph>
        {request}
      </>
    );
  }
  return (
    <>
      <ul>
        {state.value.map((list) => (
          <li key={list.id}>
            {/* Underlined: a link inside a line of text must not be told apart by colour alone. */}
            {moderates ? (
              <Link to={links.mailingList(list.id)} style={{ textDecoration: 'underline' }}>
                {list.id}
              </Link>
            ) : (
              list.id
            )}
            : {list.description}
          </li>
        ))}
      </ul>
      {request}
    </>
  );
}

function Administration({ group, reload, requestId }: { group: UserGroup; reload: () => void; requestId: string | undefined }) {
  const may = (p: UserGroup['permissions'][number]) => group.permissions.includes(p);
  const manageAll = useHasPermission('LIST_USER_GROUP_REQUESTS');
  const navigateWithFeedback = useNavigateWithFeedback();
  if (requestId !== undefined) {
    const id = Number(requestId);
    if (!Number.isInteger(id) || id < 1 || !may('VIEW_MEMBERSHIP_REQUEST')) return <NotFoundView />;
    return (
      <MembershipRequestView
        group={group}
        requestId={id}
        onDecided={(feedback) => navigateWithFeedback(links.groupAdministration(group.id), feedback)}
      />
    );
  }
  return (
    <>
      {group.role === 'admin' && (
        <Alert
          type="info"
          showIcon
          role="note"
          title="You administer this group's members: add users, change or remove their membership, and decide their membership requests."
          style={{ marginBottom: 16 }}
        />
      )}
      <Section title="Group Details">
        <Details group={group} />
        {may('EDIT_USER_GROUP') && (
          <Typography.Paragraph style={{ marginTop: 8 }}>
            <Link to={links.editUserGroupDetails(group.id)}>Edit group details</Link>
          </Typography.Paragraph>
        )}
      </Section>
      {may('VIEW_MEMBERSHIP') ? (
        <Section title="Members">
          <MembersSection group={group} />
        </Section>
      ) : (
        // An adjudicator decides every group's requests and adds users, without seeing its members.
        may('ADJUDICATE_MEMBERSHIP_REQUEST') && (
          <Section title="Members">
            <Typography.Paragraph>{GROUP_TEXT.membersNotShown}</Typography.Paragraph>
            <AddUserLink group={group} />
          </Section>
        )
      )}
      {may('LIST_MEMBERSHIP_REQUESTS') && (
        <Section title="Membership Requests">
          <MembershipRequests group={group} />
        </Section>
      )}
      <Section title="Additional Permission Groups">
        <PermissionGroupsSection group={group} onChanged={reload} />
      </Section>
      {may('VIEW_MEMBERSHIP') && (
        <Section title="Mailing Lists">
          <MailingLists group={group} />
        </Section>
      )}
      {manageAll && (
        <Section title="Manage All Groups">
          <Space orientation="vertical">
            <Link to={userGroupRequestKind.queue.path}>User group requests</Link>
          </Space>
        </Section>
      )}
    </>
  );
}

export function GroupAdministrationPage() {
  const { usergroupId = '', requestId } = useParams();
  return (
    <>
      <PageTitle>{`Group Administration: ${usergroupId}`}</PageTitle>
      <WithGroup id={usergroupId} needs="any">
        {(group, reload) => <Administration group={group} reload={reload} requestId={requestId} />}
      </WithGroup>
    </>
  );
}

