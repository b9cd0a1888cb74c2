/**
 * A group's additional permission groups (spec sections 2, 5 and 8): the list (a show-more flag
 * above 6), and with EDIT_USER_GROUP an Add form (one name or several, comma separated) and a
 * Delete button per group behind a confirmation. Successes say 'Permission group added.' or
 * 'Permission group deleted.'; failures open a modal 'Could not add permission group.' or 'Could
 * not delete permission group.' with the reason.
 */
import { permissionGroupList, SHOW_MORE_ABOVE, type UserGroup } from '@portal/api';
import { ConfirmModal, MODAL_WIDTH, useConfirmation } from '@portal/shared';
import { errorText } from '@portal/shared/components';
import { Alert, Button, Form as AntForm, Input, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { addPermissionGroup, deletePermissionGroup } from '../api/groups';
import { GROUP_TEXT } from '../messages';

export function PermissionGroupsSection({ group, onChanged }: { group: UserGroup; onChanged: () => void }) {
  const mayEdit = group.permissions.includes('EDIT_USER_GROUP');
  const [showAll, setShowAll] = useState(false);
  const [names, setNames] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<{ title: string; reason: string }>();
  const confirmation = useConfirmation<string>();
  const shown = showAll ? group.groups : group.groups.slice(0, SHOW_MORE_ABOVE);

  const add = async () => {
    setNotice(undefined);
    const list = permissionGroupList(group.id, names, group.groups);
    if (list.problem) {
      setProblem(list.problem);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      for (const name of list.names) await addPermissionGroup(group.id, name);
      setNames('');
      setNotice(GROUP_TEXT.permissionGroupAdded);
      onChanged();
    } catch (error) {
      setFailure({ title: GROUP_TEXT.couldNotAdd, reason: errorText(error) });
      onChanged();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (name: string) => {
    setNotice(undefined);
    if (!(await confirmation.ask(name))) return;
    try {
      await deletePermissionGroup(group.id, name);
      confirmation.finish();
      setNotice(GROUP_TEXT.permissionGroupDeleted);
      onChanged();
    } catch (error) {
      confirmation.finish();
      setFailure({ title: GROUP_TEXT.couldNotDelete, reason: errorText(error) });
    }
  };

  return (
    <>
      {notice && <Alert type="success" showIcon role="status" title={notice} closable onClose={() => setNotice(undefined)} style={{ marginBottom: 16 }} />}
      {group.groups.length === 0 ? (
        <Typography.Paragraph>This group has no additional permission groups.</Typography.Paragraph>
      ) : (
        <List
          size="small"
          bordered
          style={{ maxWidth: 560 }}
          dataSource={shown}
          renderItem={(name) => (
            <List.Item
              actions={
                mayEdit
                  ? [
                      <Button key="delete" size="small" danger onClick={() => void remove(name)} aria-label={`Delete ${name}`}>
                        Delete
                      </Button>,
                    ]
                  : []
              }
            >
              {name}
            </List.Item>
          )}
        />
      )}
      {group.groups.length > SHOW_MORE_ABOVE && (
        <Button type="link" onClick={() => setShowAll((v) => !v)} aria-expanded={showAll} style={{ paddingLeft: 0 }}>
          {showAll ? 'Show fewer' : `Show all ${group.groups.length}`}
        </Button>
      )}
      {mayEdit && (
        <form
          aria-label="Add permission groups"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
          style={{ maxWidth: 560, marginTop: 16 }}
        >
          <AntForm layout="vertical" component={false}>
            <AntForm.Item
              label={`New permission groups (comma separated, each starting with ${group.id}-)`}
              htmlFor="permission-group-names"
              validateStatus={problem ? 'error' : undefined}
              help={problem}
            >
              <Space.Compact style={{ width: '100%' }}>
                <Input id="permission-group-names" value={names} onChange={(event) => setNames(event.target.value)} aria-invalid={problem ? true : undefined} />
                <Button type="primary" htmlType="submit" loading={busy}>
                  Add
                </Button>
              </Space.Compact>
            </AntForm.Item>
          </AntForm>
        </form>
      )}
      <ConfirmModal {...confirmation.modal} title="Delete permission group" okText="Delete">
        <Typography.Paragraph>{`Delete ${confirmation.subject ?? ''}? Members who hold it lose it.`}</Typography.Paragraph>
      </ConfirmModal>
      <Modal
        open={failure !== undefined}
        title={failure?.title}
        width={MODAL_WIDTH}
        onCancel={() => setFailure(undefined)}
        footer={<Button onClick={() => setFailure(undefined)}>Close</Button>}
      >
        <Typography.Paragraph>{failure?.reason}</Typography.Paragraph>
      </Modal>
    </>
  );
}
