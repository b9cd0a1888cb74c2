import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { sampleGroup } from '../testing/samples';
import { EditGroupDetailsPage } from './EditGroupDetailsPage';
import { interlock } from './GroupForm';
import { RequestUserGroupPage } from './RequestUserGroupPage';

jest.setTimeout(20_000);

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  configure({ cac_support: true, supported_services: 'jira,bitbucket' });
  signIn('jane.doe', []);
});

describe('the group form interlock (spec section 4)', () => {
  it('open with None: constraint disabled; not open with DoD: access disabled; otherwise both', () => {
    expect(interlock(true, 'None')).toEqual({ accessDisabled: false, constraintDisabled: true });
    expect(interlock(false, 'None')).toEqual({ accessDisabled: false, constraintDisabled: false });
    expect(interlock(false, 'DoD')).toEqual({ accessDisabled: true, constraintDisabled: false });
    expect(interlock(true, 'DoD')).toEqual({ accessDisabled: false, constraintDisabled: false });
  });
});

describe('/request-user-group', () => {
  it("shows the spec's messages for a bad identifier, a missing name, description and reason, and sends nothing", async () => {
    const server = fakeServer({});
    renderPage(<RequestUserGroupPage />, { path: '/request-user-group', entries: ['/request-user-group'] });
    type('Group ID', 'G');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('ID must be at least 2 characters long.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a group name.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a description.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a reason for this request.')).toBeInTheDocument();
    type('Group ID', 'GAMMA');
    type(/Additional permission groups/, 'GAMMA-x, OTHER-y');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Special permission groups for this group must be prefixed with GAMMA.')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });

  it('sends the request and goes to /groups with the feedback; no visibility choice without HIDDEN_GROUP', async () => {
    const server = fakeServer({ 'POST /requests/usergroup': { body: { ok: true, code: 200 } } });
    renderPage(<RequestUserGroupPage />, { path: '/request-user-group', entries: ['/request-user-group'] });
    expect(screen.queryByLabelText(/Hidden/)).not.toBeInTheDocument();
    type('Group ID', 'GAMMA');
    type('Group name', 'Gamma team');
    type('Description', 'Builds gamma');
    type('Reason', 'New project');
    type(/Additional permission groups/, 'GAMMA-release, GAMMA-deploy');
    fireEvent.click(screen.getByLabelText('Jira'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^User group request sent\.$/);
    expect(server.called('POST /requests/usergroup')[0]?.body).toEqual({
      user_group: 'GAMMA',
      name: 'Gamma team',
      description: 'Builds gamma',
      open_access: false,
      memberConstraint: 'None',
      visibility: 'site-approved',
      services: ['jira'],
      groups: ['GAMMA-release', 'GAMMA-deploy'],
      reason: 'New project',
    });
  });

  it("shows the server's message under its field", async () => {
    fakeServer({ 'POST /requests/usergroup': { status: 400, body: { error: 'The group GAMMA already exists.', code: 400, fields: { user_group: 'The group GAMMA already exists.' } } } });
    renderPage(<RequestUserGroupPage />, { path: '/request-user-group', entries: ['/request-user-group'] });
    type('Group ID', 'GAMMA');
    type('Group name', 'Gamma team');
    type('Description', 'Builds gamma');
    type('Reason', 'New project');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('The group GAMMA already exists.')).toBeInTheDocument();
  });
});

describe('/edit-usergroup-details/:id', () => {
  it('locks the services already used, warns when DoD is chosen, saves and returns to the group with the feedback', async () => {
    signIn('jane.doe', ['HIDDEN_GROUP']);
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /usergroups/PORTAL': { body: sampleGroup({ name: 'Renamed' }) },
    });
    renderPage(<EditGroupDetailsPage />, { path: '/edit-usergroup-details/:usergroupId', entries: ['/edit-usergroup-details/PORTAL'] });
    expect(await screen.findByLabelText('Jira')).toBeDisabled();
    expect(screen.getByLabelText('Bitbucket')).not.toBeDisabled();
    fireEvent.click(screen.getByLabelText('DoD'));
    expect(screen.getByText('Choosing DoD removes the members who do not sign in with a smart card (DoD PKI) from this group.')).toBeInTheDocument();
    type('Group name', 'Renamed');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/group-administration\/PORTAL$/));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Changes to group saved\.$/);
    expect(server.called('POST /usergroups/PORTAL')[0]?.body).toEqual({
      name: 'Renamed',
      description: 'Builds the portal.',
      open_access: false,
      memberConstraint: 'DoD',
      visibility: 'site-approved',
      services: ['jira'],
    });
  });

  it('sends a caller without EDIT_USER_GROUP in the group to /groups; an unknown group shows not found', async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup({ permissions: ['VIEW_MEMBERSHIP'] }) }, 'GET /usergroups/NOPE': { status: 404, body: { error: 'User group not found.', code: 404 } } });
    const first = renderPage(<EditGroupDetailsPage />, { path: '/edit-usergroup-details/:usergroupId', entries: ['/edit-usergroup-details/PORTAL'] });
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
    first.unmount();
    renderPage(<EditGroupDetailsPage />, { path: '/edit-usergroup-details/:usergroupId', entries: ['/edit-usergroup-details/NOPE'] });
    expect(await screen.findByText('The requested resource was not found.')).toBeInTheDocument();
  });
});
