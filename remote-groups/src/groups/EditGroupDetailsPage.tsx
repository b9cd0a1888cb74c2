/**
 * /edit-usergroup-details/:usergroupId (spec sections 2 and 4; EDIT_USER_GROUP in the group, else
 * /groups): the group form filled in; success goes to the group's administration with 'Changes
 * to group saved.'.
 */
import { links } from '@portal/api';
import { PageTitle, useNavigateWithFeedback } from '@portal/shared';
import { useNavigate, useParams } from 'react-router-dom';
import { updateGroup } from '../api/groups';
import { GROUP_TEXT } from '../messages';
import { groupBody, GroupForm } from './GroupForm';
import { WithGroup } from './useGroup';

export function EditGroupDetailsPage() {
  const { usergroupId = '' } = useParams();
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  return (
    <>
      <PageTitle>{`Edit User Group Details: ${usergroupId}`}</PageTitle>
      <WithGroup id={usergroupId} needs="EDIT_USER_GROUP">
        {(group) => (
          <GroupForm
            group={group}
            submitLabel="Save Changes"
            onCancel={() => navigate(links.groupAdministration(group.id))}
            onSubmit={async (values) => {
              await updateGroup(group.id, groupBody(values, group.id));
              navigateWithFeedback(links.groupAdministration(group.id), GROUP_TEXT.changesSaved);
            }}
          />
        )}
      </WithGroup>
    </>
  );
}
