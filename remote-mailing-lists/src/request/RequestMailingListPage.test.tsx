import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleGroup } from '../testing/samples';
import { permissionGroupChoices, RequestMailingListPage } from './RequestMailingListPage';

jest.setTimeout(20_000);

beforeEach(() => {
  configure({ email_domain: 'example.test' });
  signIn('jane.doe', []);
});

const open = (groupId = 'PORTAL') =>
  renderPage(<RequestMailingListPage />, { path: '/mailing-lists/new/:groupId', entries: [`/mailing-lists/new/${groupId}`] });
const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
const preview = () => document.getElementById('list-address') as HTMLElement;

describe('/mailing-lists/new/:groupId', () => {
  it('goes to /mailing-lists without SUBMIT_MAILING_LIST_REQUEST in the group', async () => {
    const server = fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup({ permissions: ['VIEW_MEMBERSHIP'] }) } });
    open();
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/mailing-lists$/));
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /usergroups/PORTAL']);
  });

  it('goes to /mailing-lists for a group that is not found', async () => {
    fakeServer({ 'GET /usergroups/NOPE': { status: 404, body: { error: 'User group not found.', code: 404 } } });
    open('NOPE');
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/mailing-lists$/));
  });

  it("shows the server's text when the group cannot be loaded otherwise", async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Internal server error$/);
    expect(screen.getByRole('heading', { level: 2, name: 'Request Mailing List' })).toBeInTheDocument();
  });

  it("shows the final address as the name is typed, and the spec's defaults", async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup() } });
    open();
    const name = await screen.findByLabelText('List name');
    expect(preview()).toHaveTextContent("The list's address: portal-…@example.test");
    expect(name).toHaveAccessibleDescription("The list's address: portal-…@example.test");
    type('List name', ' Dev.Team ');
    expect(preview()).toHaveTextContent(/^The list's address: portal-dev\.team@example\.test$/);
    expect(screen.getByRole('radio', { name: 'Closed: Only subscribers may post; other posts are held for a moderator.' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Opt-out: Every eligible member is subscribed and may leave.' })).toBeChecked();
    expect(screen.getByRole('radiogroup', { name: 'Posting permissions' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Subscription' })).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Request a mailing list' })).getByTitle('PORTAL-team')).toBeInTheDocument();
  });

  it('offers the role groups and the group\'s additional permission groups', () => {
    expect(permissionGroupChoices(sampleGroup({ groups: ['PORTAL-release', 'PORTAL-ops'] }))).toEqual([
      'PORTAL-admin',
      'PORTAL-team',
      'PORTAL-user',
      'PORTAL-release',
      'PORTAL-ops',
    ]);
  });

  it("shows the spec's messages and sends nothing", async () => {
    const server = fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup() } });
    open();
    await screen.findByLabelText('List name');
    submit();
    expect(await screen.findByText('Please enter a list name')).toBeInTheDocument();
    expect(screen.getByText('Please enter a description')).toBeInTheDocument();
    expect(screen.getByText('Please enter a reason')).toBeInTheDocument();
    type('List name', 'bad name!');
    // The message names the address the preview shows (the final one: the group id lower-cased).
    expect(await screen.findByText('portal-bad name!@example.test must be a valid email')).toBeInTheDocument();
    expect(screen.getByText('portal-bad name!@example.test', { selector: 'code' })).toBeInTheDocument();
    expect(server.called('POST /requests/mailinglist')).toEqual([]);
  });

  it("sends the request and goes to /mailing-lists with 'Mailing list request submitted.'", async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /requests/mailinglist': { body: { ok: true, code: 200, list_id: 'portal-dev@example.test' } },
    });
    open();
    await screen.findByLabelText('List name');
    type('List name', 'dev');
    type('Description', 'Portal developers');
    fireEvent.click(screen.getByRole('radio', { name: /^Announce:/ }));
    fireEvent.click(screen.getByRole('radio', { name: /^Opt-in:/ }));
    // The permission group: an additional one.
    fireEvent.mouseDown(screen.getByLabelText('Permission group'));
    fireEvent.click(await screen.findByTitle('PORTAL-release'));
    type('Reason', 'The team needs a list');
    submit();
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/mailing-lists$/));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Mailing list request submitted\.$/);
    expect(server.called('POST /requests/mailinglist')[0]?.body).toEqual({
      user_group: 'PORTAL',
      list_name: 'dev',
      description: 'Portal developers',
      permission_group: 'PORTAL-release',
      posting_permissions: 'announce',
      automatic_subscription: false,
      reason: 'The team needs a list',
    });
  });

  it('sends the defaults when nothing else is chosen', async () => {
    const server = fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /requests/mailinglist': { body: { ok: true, code: 200, list_id: 'portal-dev@example.test' } },
    });
    open();
    await screen.findByLabelText('List name');
    type('List name', 'dev');
    type('Description', 'Portal developers');
    type('Reason', 'The team needs a list');
    submit();
    await waitFor(() => expect(server.called('POST /requests/mailinglist')).toHaveLength(1));
    expect(server.called('POST /requests/mailinglist')[0]?.body).toMatchObject({
      permission_group: 'PORTAL-team',
      posting_permissions: 'closed',
      automatic_subscription: true,
    });
  });

  it("shows the server's field messages under their fields and a conflict (409) below the submit button", async () => {
    fakeServer({
      'GET /usergroups/PORTAL': { body: sampleGroup() },
      'POST /requests/mailinglist': [
        { status: 400, body: { error: "The permission group must be one of PORTAL's groups.", code: 400, fields: { permission_group: "The permission group must be one of PORTAL's groups." } } },
        { status: 409, body: { error: 'The mailing list portal-dev@example.test already exists or is requested.', code: 409 } },
      ],
    });
    open();
    await screen.findByLabelText('List name');
    type('List name', 'dev');
    type('Description', 'Portal developers');
    type('Reason', 'The team needs a list');
    submit();
    expect(await screen.findByText("The permission group must be one of PORTAL's groups.")).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The mailing list portal-dev@example\.test already exists or is requested\.$/);
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('Cancel goes back to /mailing-lists', async () => {
    fakeServer({ 'GET /usergroups/PORTAL': { body: sampleGroup() } });
    open();
    await screen.findByLabelText('List name');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(/^\/mailing-lists$/));
  });
});
