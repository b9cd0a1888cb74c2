import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { sampleGroup } from '../testing/samples';
import { PermissionGroupsSection } from './PermissionGroupsSection';

jest.setTimeout(20_000);

beforeEach(() => {
  configure();
  signIn('admin', []);
});

function open(group = sampleGroup(), onChanged = jest.fn()) {
  renderPage(<PermissionGroupsSection group={group} onChanged={onChanged} />, { path: '/', entries: ['/'] });
  return onChanged;
}

describe("a group's additional permission groups", () => {
  it("checks the names before sending, then shows a refusal in the 'Could not add permission group.' modal", async () => {
    const server = fakeServer({
      'POST /usergroups/PORTAL/permission-group/PORTAL-deploy': { status: 400, body: { error: 'The group PORTAL-deploy already exists and cannot be created.', code: 400 } },
    });
    open();
    const input = screen.getByLabelText(/New permission groups/);
    fireEvent.change(input, { target: { value: 'OTHER-x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Special permission groups for this group must be prefixed with PORTAL.')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'PORTAL-jiraAdmin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The group PORTAL-jiraAdmin is reserved and cannot be created.')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
    fireEvent.change(input, { target: { value: 'PORTAL-deploy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Could not add permission group.')).toBeInTheDocument();
    expect(within(dialog).getByText('The group PORTAL-deploy already exists and cannot be created.')).toBeInTheDocument();
    expect(server.called('POST /usergroups/PORTAL/permission-group/PORTAL-deploy')).toHaveLength(1);
  });

  it("adds several at once and says 'Permission group added.'; deletes one after its confirmation", async () => {
    const server = fakeServer({
      'POST /usergroups/PORTAL/permission-group/PORTAL-a': { body: sampleGroup() },
      'POST /usergroups/PORTAL/permission-group/PORTAL-b': { body: sampleGroup() },
      'DELETE /usergroups/PORTAL/permission-group/PORTAL-release': { body: sampleGroup({ groups: [] }) },
    });
    const onChanged = open();
    fireEvent.change(screen.getByLabelText(/New permission groups/), { target: { value: 'PORTAL-a, PORTAL-b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Permission group added.')).toBeInTheDocument();
    expect(server.calls.map((c) => c.path)).toEqual(['/usergroups/PORTAL/permission-group/PORTAL-a', '/usergroups/PORTAL/permission-group/PORTAL-b']);
    fireEvent.click(screen.getByRole('button', { name: 'Delete PORTAL-release' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Permission group deleted.')).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(2);
  });

  it('shows six, then all of them on request; no Add or Delete without EDIT_USER_GROUP', () => {
    fakeServer({});
    const groups = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((x) => `PORTAL-${x}`);
    open(sampleGroup({ groups, permissions: ['VIEW_MEMBERSHIP'] }));
    expect(screen.queryByText('PORTAL-g')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show all 7' }));
    expect(screen.getByText('PORTAL-g')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });
});
