/** /request-user-group (spec sections 2, 4 and 5): the group form; success goes to /groups with 'User group request sent.'. */
import { links } from '@portal/api';
import { PageTitle, useNavigateWithFeedback } from '@portal/shared';
import { Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { requestGroup } from '../api/groups';
import { GROUP_TEXT } from '../messages';
import { groupBody, GroupForm } from './GroupForm';

export function RequestUserGroupPage() {
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  return (
    <>
      <PageTitle>Request User Group</PageTitle>
      <Typography.Paragraph>
        Ask for a new user group. An adjudicator reviews the request; once it is approved you are the group&apos;s admin.
      </Typography.Paragraph>
      <GroupForm
        submitLabel="Submit Request"
        onCancel={() => navigate(links.groups())}
        onSubmit={async (values) => {
          await requestGroup({ user_group: values.id, ...groupBody(values, values.id), groups: values.groupList, reason: (values.reason ?? '').trim() });
          navigateWithFeedback(links.groups(), GROUP_TEXT.userGroupRequestSent);
        }}
      />
    </>
  );
}
