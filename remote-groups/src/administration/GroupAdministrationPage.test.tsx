import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleGroup, sampleMember, sampleMembershipRequest } from '../testing/samples';
import { GroupAdministrationPage } from './GroupAdministrationPage';

// The whole page with its five sections: heavier than one form.
jest.setTimeout(60_000);

const PATH = '/group-administration/:usergroupId/:requestId?';
const members = { body: { rows: [sampleMember(), sampleMember({ username: 'bob', first_name: 'Bob', last_name: 'Ray', role: 'team', direct: ['PORTAL-team'] })], has_more_results: false, total: 2 } };
const requests = { body: { rows: [{ id: 41, kind: 'membership', identifier: 'PORTAL', first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.test', username: 'jane.doe', status: 'pending', created: '2026-11-20T10:11:12Z', updated: '2026-11-20T10:11:12Z' }], has_more_results: false } };
const region = (name: string) => screen.getByRole('region', { name });

beforeEach(() => {
  configure();
  signIn('admin', ['VIEW_ACCOUNT']);
});

function serverFor(group = sampleGroup(), extra: Record<string, unknown> = {}) {
  return fakeServer({
    'GET /usergroups/PORTAL': { body: group },
    'POST /memberships/search': members,
    'GET /requests/membership?user_group=PORTAL&start_index=0': requests,
    'GET /usergroups/PORTAL/mailinglists': { body: { rows: [] } },
    ...(extra as Record<string, { body: unknown }>),
  });
}

describe('/group-administration/:id', () => {
  it("an admin sees the details, members with Change links, requests with seconds, permission groups and the mailing lists' empty state", async () => {
    const server = serverFor();
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await screen.findByRole('link', { name: 'Edit group details' })).toHaveAttribute('href', '/edit-usergroup-details/PORTAL');
    await waitFor(() => expect(within(region('Members')).getAllByRole('link', { name: 'Change' })).toHaveLength(2));
    expect(within(region('Members')).getByRole('link', { name: 'jane.doe' })).toHaveAttribute('href', '/manage-accounts/jane.doe');
    expect(within(region('Members')).getByRole('link', { name: 'Add user to group' })).toHaveAttribute('href', '/add-user-to-group/PORTAL');
    const requestsRegion = region('Membership Requests');
    expect(await within(requestsRegion).findByRole('link', { name: '[details]' })).toHaveAttribute('href', '/group-administration/PORTAL/41');
    expect(within(requestsRegion).getAllByText(/\d+:\d\d:\d\d (AM|PM)/).length).toBeGreaterThan(0);
    expect(await within(region('Mailing Lists')).findByText('There are no mailing lists associated with this group.')).toBeInTheDocument();
    expect(within(region('Mailing Lists')).getByRole('link', { name: 'Request a mailing list' })).toHaveAttribute('href', '/mailing-lists/new/PORTAL');
    expect(within(region('Additional Permission Groups')).getByText('PORTAL-release')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Manage All Groups' })).not.toBeInTheDocument();
    expect(server.called('POST /memberships/search')[0]?.body).toEqual({ user_group: 'PORTAL', filter: '', role: 'all', start_index: 0 });
  });

  it('filters members on the server by role', async () => {
    const server = serverFor();
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    await within(await screen.findByRole('region', { name: 'Members' })).findAllByRole('link', { name: 'Change' });
    fireEvent.mouseDown(within(region('Members')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Admin'));
    await waitFor(() => expect(server.called('POST /memberships/search').at(-1)?.body).toEqual({ user_group: 'PORTAL', filter: '', role: 'admin', start_index: 0 }));
  });

  it('a filter no member matches says so, not that the group has no members', async () => {
    serverFor(sampleGroup({ member_count: 4 }), {
      'POST /memberships/search': (call: { body: { filter?: string } }) =>
        call.body.filter ? { body: { rows: [], has_more_results: false, total: 0 } } : members,
    });
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    await within(await screen.findByRole('region', { name: 'Members' })).findAllByRole('link', { name: 'Change' });
    fireEvent.change(screen.getByLabelText('Filter by name or username'), { target: { value: 'zzz' } });
    expect(await within(region('Members')).findByText('No member matches the filter.')).toBeInTheDocument();
    expect(within(region('Members')).queryByText('No members in group')).not.toBeInTheDocument();
  });

  it('a group without members still says it has none', async () => {
    serverFor(sampleGroup({ member_count: 0 }), { 'POST /memberships/search': { body: { rows: [], has_more_results: false, total: 0 } } });
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await within(await screen.findByRole('region', { name: 'Members' })).findByText('No members in group')).toBeInTheDocument();
  });

  it("stops the member filter at the server's 255 characters (no schema text on screen)", async () => {
    serverFor();
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    await within(await screen.findByRole('region', { name: 'Members' })).findAllByRole('link', { name: 'Change' });
    expect(screen.getByLabelText('Filter by name or username')).toHaveAttribute('maxlength', '255');
  });

  it('a team member sees members without the Change column, and no decision or editing', async () => {
    serverFor(sampleGroup({ role: 'team', permissions: ['VIEW_MEMBERSHIP', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST'] }));
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await within(await screen.findByRole('region', { name: 'Members' })).findByText('jane.doe')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit group details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
  });

  it('an adjudicator, who decides the requests of every group without seeing its members, is offered Add user to group', async () => {
    serverFor(
      sampleGroup({
        role: null,
        member: false,
        permissions: ['LIST_USER_GROUP_REQUESTS', 'VIEW_ACCOUNT', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST', 'ADJUDICATE_MEMBERSHIP_REQUEST'],
      }),
    );
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    const membersRegion = await screen.findByRole('region', { name: 'Members' });
    expect(within(membersRegion).getByRole('link', { name: 'Add user to group' })).toHaveAttribute('href', '/add-user-to-group/PORTAL');
    // The member list itself is its admins' and team's (VIEW_MEMBERSHIP): not asked for.
    expect(within(membersRegion).queryByRole('table')).not.toBeInTheDocument();
    expect(within(membersRegion).getByText("The group's members are listed for its admins and team.")).toBeInTheDocument();
  });

  it('the help desk (a surrogate in every group) reaches each member\'s Change page, where Remove User From Group is; it adds no one', async () => {
    const server = serverFor(
      sampleGroup({ role: 'team', permissions: ['VIEW_MEMBERSHIP', 'VIEW_ACCOUNT', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST', 'SUBMIT_SURROGATE_REQUEST'] }),
    );
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    const changes = await within(await screen.findByRole('region', { name: 'Members' })).findAllByRole('link', { name: 'Change' });
    expect(changes.map((link) => link.getAttribute('href'))).toEqual(['/change-membership/PORTAL/jane.doe', '/change-membership/PORTAL/bob']);
    expect(within(region('Members')).queryByRole('link', { name: 'Add user to group' })).not.toBeInTheDocument();
    expect(server.called('POST /memberships/search')).toHaveLength(1);
  });

  it('a group with no permission for the caller, or a 403, goes to /groups; a 404 shows not found', async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup({ permissions: [] }) } });
    const first = renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
    first.unmount();
    fakeServer({ 'GET /usergroups/PORTAL': { status: 403, body: { error: 'Forbidden', code: 403 } } });
    const second = renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/groups$/));
    second.unmount();
    fakeServer({ 'GET /usergroups/PORTAL': { status: 404, body: { error: 'User group not found.', code: 404 } } });
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await screen.findByText('The requested resource was not found.')).toBeInTheDocument();
  });
});

describe('/group-administration/:id/:requestId', () => {
  it('shows the request and approves it through the confirmation, then returns to the group with feedback', async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'GET /requests/membership/41': { body: sampleMembershipRequest() },
      'POST /requests/membership/41/approved': { body: sampleMembershipRequest({ status: 'approved', decisions: [] }) },
    });
    // The request's own route (the group's page lands elsewhere, so that the test sees where it went).
    renderPage(<GroupAdministrationPage />, { path: '/group-administration/:usergroupId/:requestId', entries: ['/group-administration/PORTAL/41'] });
    expect(await screen.findByRole('heading', { name: 'Membership Request 41' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'jane.doe' })).toHaveAttribute('href', '/manage-accounts/jane.doe');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to approve this request?')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/group-administration\/PORTAL$/));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Membership request of jane\.doe for PORTAL approved\.$/);
    expect(server.called('POST /requests/membership/41/approved')).toHaveLength(1);
  });

  it('a request sent without a reason says that none was given, set apart from what a requester writes', async () => {
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'GET /requests/membership/41': { body: sampleMembershipRequest({ reason: '', updateIntent: 'update', updates: [] }) },
    });
    renderPage(<GroupAdministrationPage />, { path: '/group-administration/:usergroupId/:requestId', entries: ['/group-administration/PORTAL/41'] });
    const details = await screen.findByRole('region', { name: 'Request Details' });
    const reason = within(details).getByText('Reason', { selector: 'th, th *' }).closest('th')!.nextElementSibling as HTMLElement;
    expect(reason).toHaveTextContent(/^No reason given\.$/);
    // Not in the requester's words: the portal's note, drawn as secondary text.
    expect(within(reason).getByText('No reason given.').closest('.ant-typography-secondary')).not.toBeNull();
  });

  it("lists the group's mailing lists: its admins open each one's member administration, a team member sees them without links or a request link", async () => {
    const LIST = { id: 'portal-dev@example.test', description: 'Developers', permission_group: 'PORTAL-team', posting_permissions: 'closed', automatic_subscription: true };
    serverFor(sampleGroup(), { 'GET /usergroups/PORTAL/mailinglists': { body: { rows: [LIST] } } });
    const admin = renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await within(await screen.findByRole('region', { name: 'Mailing Lists' })).findByRole('link', { name: 'portal-dev@example.test' })).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test');
    admin.unmount();
    serverFor(sampleGroup({ role: 'team', permissions: ['VIEW_MEMBERSHIP'] }), { 'GET /usergroups/PORTAL/mailinglists': { body: { rows: [LIST] } } });
    renderPage(<GroupAdministrationPage />, { path: PATH, entries: ['/group-administration/PORTAL'] });
    expect(await within(await screen.findByRole('region', { name: 'Mailing Lists' })).findByText('portal-dev@example.test: Developers')).toBeInTheDocument();
    expect(within(region('Mailing Lists')).queryByRole('link')).not.toBeInTheDocument();
  });
});
