import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleGroup, sampleMember } from '../testing/samples';
import { AddUserToGroupPage } from './AddUserToGroupPage';
import { ChangeMembershipPage, RequestMembershipPage } from './MembershipPage';

jest.setTimeout(20_000);

const joinGroup = sampleGroup({ role: null, member: false, permissions: [], groups: ['PORTAL-release'] });
const noMember = { body: { rows: [], has_more_results: false, total: 0 } };
const memberOf = (member = sampleMember()) => ({ body: { rows: [member], has_more_results: false, total: 1 } });
const submitButton = () => screen.getByRole('button', { name: 'Submit Membership Request' });

beforeEach(() => {
  configure();
  signIn('jane.doe', []);
});

describe('/request-membership/:id?groups=', () => {
  it('preselects role, notification and additional groups from the query, needs a reason, and sends the join list', async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: joinGroup },
      'POST /memberships/search': noMember,
      'POST /requests/membership/new': { body: { ok: true, code: 200, id: 7, status: 'pending' } },
    });
    renderPage(<RequestMembershipPage />, {
      path: '/request-membership/:usergroupId/:username?',
      entries: ['/request-membership/PORTAL?groups=PORTAL-team,PORTAL-notification-high,PORTAL-release,PORTAL-unknown'],
    });
    expect(await screen.findByLabelText('Team')).toBeChecked();
    expect(screen.getByLabelText('High')).toBeChecked();
    expect(screen.getByLabelText('PORTAL-release')).toBeChecked();
    expect(screen.getByText('Membership changes can take up to 10 minutes to synchronize with website services, once approved by a group admin.')).toBeInTheDocument();
    fireEvent.click(submitButton());
    expect(await screen.findByText('Reason is required.')).toBeInTheDocument();
    expect(server.called('POST /requests/membership/new')).toEqual([]);
    fireEvent.change(screen.getByLabelText('Reason (required)'), { target: { value: 'I work on it' } });
    fireEvent.click(submitButton());
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Request to join PORTAL sent\.$/);
    expect(server.called('POST /requests/membership/new')[0]?.body).toEqual({
      user_group: 'PORTAL',
      username: 'jane.doe',
      join: ['PORTAL-team', 'PORTAL-notification-high', 'PORTAL-release'],
      leave: [],
      reason: 'I work on it',
      updateIntent: 'request',
    });
  });

  it('says when a request of the caller already waits for the group, before they fill the form again', async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: { ...joinGroup, pending_request: true } }, 'POST /memberships/search': noMember });
    renderPage(<RequestMembershipPage />, { path: '/request-membership/:usergroupId/:username?', entries: ['/request-membership/PORTAL'] });
    expect(await screen.findByText("Your membership request for PORTAL is waiting for the group's admins: you may send another once it is decided.")).toBeInTheDocument();
  });

  it("says a DoD group's constraint on the form, before anything is sent", async () => {
    const server = fakeServer({
      'GET /usergroups/SECURE': { body: { ...joinGroup, id: 'SECURE', user_group: 'SECURE', memberConstraint: 'DoD' } },
      'POST /memberships/search': noMember,
    });
    renderPage(<RequestMembershipPage />, { path: '/request-membership/:usergroupId/:username?', entries: ['/request-membership/SECURE'] });
    expect(await screen.findByText('Members of SECURE must sign in with a smart card (DoD PKI).')).toBeInTheDocument();
    expect(submitButton()).toBeInTheDocument();
    expect(server.called('POST /requests/membership/new')).toEqual([]);
  });

  it('offers a group per service only for the services this portal supports, and leaves a held one of another service alone', async () => {
    configure({ supported_services: 'jira,artifacts' });
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup({ role: 'user', permissions: [], services: ['jira', 'repository'] }) },
      'POST /memberships/search': memberOf(sampleMember({ direct: ['PORTAL-user', 'PORTAL-repositoryRead'], services: { jira: null, repository: 'PORTAL-repositoryRead' } })),
      'POST /requests/membership/update': { body: { ok: true, code: 200, id: 12, status: 'pending' } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL'] });
    expect(await screen.findByText('Jira group')).toBeInTheDocument();
    expect(screen.queryByText('Interface Repository group')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Team'));
    fireEvent.click(submitButton());
    await waitFor(() => expect(server.called('POST /requests/membership/update')).toHaveLength(1));
    expect(server.called('POST /requests/membership/update')[0]?.body).toMatchObject({ join: ['PORTAL-team'], leave: ['PORTAL-user'] });
  });

  it('opens the role help from its label', async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: joinGroup }, 'POST /memberships/search': noMember });
    renderPage(<RequestMembershipPage />, { path: '/request-membership/:usergroupId/:username?', entries: ['/request-membership/PORTAL'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Help: Requested role' }));
    expect(await screen.findByText(/View, add and modify, and manage the group’s membership\./)).toBeInTheDocument();
  });
});

describe('/change-membership/:id', () => {
  it('sends only what changed (notification to none leaves the old one) with the optional reason', async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup({ role: 'user', permissions: [] }) },
      'POST /memberships/search': memberOf(sampleMember({ direct: ['PORTAL-user', 'PORTAL-notification-low'], notification: 'low' })),
      'POST /requests/membership/update': { body: { ok: true, code: 200, id: 8, status: 'approved' } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL'] });
    expect(await screen.findByLabelText('Reason (optional)')).toBeInTheDocument();
    const notification = screen.getByRole('radiogroup', { name: /Jira notification/ });
    fireEvent.click(within(notification).getByLabelText('None'));
    fireEvent.click(submitButton());
    await waitFor(() => expect(screen.getByTestId('feedback')).toHaveTextContent(/^Membership of PORTAL changed\.$/));
    expect(server.called('POST /requests/membership/update')[0]?.body).toMatchObject({ join: [], leave: ['PORTAL-notification-low'], updateIntent: 'update' });
  });

  it("Leave Group asks first, then leaves every group held with 'Request to leave group.'", async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup({ role: 'user', permissions: [] }) },
      'POST /memberships/search': memberOf(sampleMember({ direct: ['PORTAL-user'], nested: ['PORTAL-release'] })),
      'POST /requests/membership/update': { body: { ok: true, code: 200, id: 9, status: 'approved' } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Leave Group' }));
    const dialog = await screen.findByRole('dialog');
    expect(server.called('POST /requests/membership/update')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave Group' }));
    await waitFor(() => expect(screen.getByTestId('feedback')).toHaveTextContent(/^You left the PORTAL user group\.$/));
    expect(server.called('POST /requests/membership/update')[0]?.body).toEqual({
      user_group: 'PORTAL',
      username: 'jane.doe',
      join: [],
      leave: ['PORTAL-user', 'PORTAL-release'],
      reason: 'Request to leave group.',
      updateIntent: 'leave',
    });
  });

  it("a surrogate sees 'Remove User From Group'; without SUBMIT_SURROGATE_REQUEST in the group they go to /groups", async () => {
    fakeServer({
      'GET /usergroups/PORTAL': [{ body: sampleGroup() }, { body: sampleGroup({ permissions: ['VIEW_MEMBERSHIP'] }) }],
      'POST /memberships/search': memberOf(sampleMember({ username: 'bob' })),
    });
    const first = renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL/bob'] });
    expect(await screen.findByRole('button', { name: 'Remove User From Group' })).toBeInTheDocument();
    first.unmount();
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL/bob'] });
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
  });

  it("a surrogate who is not the group's admin asks to remove: the feedback says it was sent", async () => {
    signIn('desk', ['SUBMIT_SURROGATE_REQUEST']);
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup({ role: null, member: false, permissions: ['SUBMIT_SURROGATE_REQUEST'] }) },
      'POST /memberships/search': memberOf(sampleMember({ username: 'bob' })),
      'POST /requests/membership/update': { body: { ok: true, code: 200, id: 11, status: 'pending' } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL/bob'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove User From Group' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove User From Group' }));
    await waitFor(() => expect(screen.getByTestId('feedback')).toHaveTextContent(/^Membership change for PORTAL sent\.$/));
  });

  it('shows a membership that cannot be loaded with its message capitalized (spec section 8)', async () => {
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /memberships/search': { status: 500, body: { error: 'the database is not answering', code: 500 } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL'] });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The database is not answering$/);
  });

  it("shows the server's refusal below the button", async () => {
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup({ role: 'admin', permissions: [] }) },
      'POST /memberships/search': memberOf(sampleMember({ direct: ['PORTAL-admin'], role: 'admin' })),
      'POST /requests/membership/update': { status: 409, body: { error: 'PORTAL must keep at least one admin: make another member an admin first.', code: 409 } },
    });
    renderPage(<ChangeMembershipPage />, { path: '/change-membership/:usergroupId/:username?', entries: ['/change-membership/PORTAL'] });
    fireEvent.click(await screen.findByLabelText('User'));
    fireEvent.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('PORTAL must keep at least one admin: make another member an admin first.');
  });
});

describe('/add-user-to-group/:id[/:username]', () => {
  it("searches accounts with the title 'Add User To Group {id}', then adds with role user and notification none", async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /usergroups/PORTAL/candidates': { body: { rows: [{ username: 'bob', first_name: 'Bob', last_name: 'Ray', email: 'bob@example.test', active: true, closed: false }], has_more_results: false } },
      'POST /memberships/search': noMember,
      'POST /requests/membership/new': { body: { ok: true, code: 200, id: 10, status: 'approved' } },
    });
    renderPage(<AddUserToGroupPage />, { path: '/add-user-to-group/:usergroupId/:username?', entries: ['/add-user-to-group/PORTAL/bob'] });
    expect(screen.getByRole('heading', { name: 'Add User To Group PORTAL' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/group-administration\/PORTAL$/));
    expect(server.called('POST /requests/membership/new')[0]?.body).toEqual({ user_group: 'PORTAL', username: 'bob', join: ['PORTAL-user'], leave: [], reason: '', updateIntent: 'join' });
  });

  it('a closed account shows the message in place of the form', async () => {
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /usergroups/PORTAL/candidates': { body: { rows: [{ username: 'gone', first_name: 'G', last_name: 'One', email: 'g@example.test', active: false, closed: true }], has_more_results: false } },
      'POST /memberships/search': noMember,
    });
    renderPage(<AddUserToGroupPage />, { path: '/add-user-to-group/:usergroupId/:username?', entries: ['/add-user-to-group/PORTAL/gone'] });
    expect(await screen.findByText('The account for username gone is closed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
  });
});
