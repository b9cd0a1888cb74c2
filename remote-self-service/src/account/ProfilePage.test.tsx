import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountGroup } from '@portal/api';
import { NO_SERVICE_SIGN_INS, SERVICE_ACCESS_TITLE, SERVICE_SIGN_INS_TITLE } from '@portal/shared/components';
import { configure, fakeServer, renderPage, sampleAccount, signIn } from '@portal/shared/testing';
import { AUTH_CHANGE_PENDING, EMAIL_CHANGE_PENDING, NO_GROUPS, PROFILE_LOAD_ERROR, ProfilePage } from './ProfilePage';
import { SIGN_OUT_EVERYWHERE } from './SignOutEverywhere';

const open = () => renderPage(<ProfilePage />, { path: '/profile', entries: ['/profile'] });

const groups: AccountGroup[] = [
  { user_group: 'PORTAL', name: 'Portal Team', role: 'user', notification: 'low', special: ['PORTAL-release'] },
  { user_group: 'DEVOPS', name: 'DevOps Community', role: null, notification: 'none', special: [] },
];

beforeEach(() => {
  configure({ cac_support: true });
  signIn('jane.doe', ['allow-profilechange', 'CHANGE_EMAIL', 'allow-authchange', 'VIEW_SUBSCRIPTIONS']);
});

describe('/profile', () => {
  it('says whether the access to each service the user uses is in step with the directory, after the groups', async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ groups }) },
      'GET /service-access/jane.doe': {
        body: {
          provisioned: true,
          services: [
            { service: 'artifacts', state: 'pending', since: new Date(2026, 2, 3, 10, 2).getTime(), next_attempt_at: null, error: null },
            { service: 'jira', state: 'up-to-date', since: null, next_attempt_at: null, error: null },
          ],
        },
      },
    });
    open();
    const section = await screen.findByRole('region', { name: SERVICE_ACCESS_TITLE });
    expect(within(section).getAllByRole('row').map((row) => row.textContent)).toEqual(['ArtifactoryPending since Tue Mar 3 2026 10:02 AM', 'JiraUp to date']);
    expect(screen.getByRole('region', { name: 'Groups' }).compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows no service access when the portal provisions no directory', async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ groups }) },
      'GET /service-access/jane.doe': { body: { provisioned: false, services: [] } },
    });
    open();
    await screen.findByRole('region', { name: 'Groups' });
    await waitFor(() => expect(server.called('GET /service-access/jane.doe')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: SERVICE_ACCESS_TITLE })).not.toBeInTheDocument();
  });

  it('shows the user, the links, the account details and the groups', async () => {
    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ groups }) } });
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'User Profile: jane.doe' })).toBeInTheDocument();
    const links = await screen.findByRole('navigation', { name: 'Profile actions' });
    expect(within(links).getByRole('link', { name: 'Update Profile' })).toHaveAttribute('href', '/update-profile');
    expect(within(links).getByRole('link', { name: 'Mailing Lists' })).toHaveAttribute('href', '/mailing-lists');
    expect(within(links).getByRole('link', { name: 'Change Email' })).toHaveAttribute('href', '/change-email');
    expect(within(links).getByRole('link', { name: 'Change Authentication Type' })).toHaveAttribute('href', '/change-auth-type');

    const details = screen.getByRole('region', { name: 'Account Details' });
    expect(within(details).getByText('jane.doe@example.test')).toBeInTheDocument();
    expect(within(details).getByText('Active')).toBeInTheDocument();
    expect(within(details).getByText('Sam Boss')).toBeInTheDocument(); // own profile: personal data shown

    const table = within(screen.getByRole('region', { name: 'Groups' })).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Group', 'Role', 'Jira Notification', 'Special Permissions']);
    const portal = within(table).getByRole('link', { name: 'Portal Team (PORTAL)' }).closest('tr') as HTMLElement;
    expect(within(table).getByRole('link', { name: 'Portal Team (PORTAL)' })).toHaveAttribute('href', '/group-administration/PORTAL');
    expect(within(portal).getByText('User')).toBeInTheDocument();
    expect(within(portal).getByText('Low')).toBeInTheDocument();
    expect(within(portal).getByText('PORTAL-release')).toBeInTheDocument();
    const devops = within(table).getByRole('link', { name: 'DevOps Community (DEVOPS)' }).closest('tr') as HTMLElement;
    expect(within(devops).getAllByText('None')).toHaveLength(3); // no role, no notification, no special permissions
    expect(server.called('GET /accounts/jane.doe')).toHaveLength(1);
  });

  it('shows a pending note instead of the change links while a request is pending', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ email_change_pending: true, auth_change_pending: true }) } });
    open();
    expect(await screen.findByText(EMAIL_CHANGE_PENDING)).toBeInTheDocument();
    expect(screen.getByText(AUTH_CHANGE_PENDING)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change Email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change Authentication Type' })).not.toBeInTheDocument();
  });

  it('offers the authentication change only with smart-card support, and only the links the user may follow', async () => {
    configure({ cac_support: false });
    signIn('jane.doe', []);
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ auth_change_pending: true }) } });
    open();
    const links = await screen.findByRole('navigation', { name: 'Profile actions' });
    expect(within(links).getAllByRole('link').map((l) => l.textContent)).toEqual(['Mailing Lists']);
    expect(screen.queryByText(AUTH_CHANGE_PENDING)).not.toBeInTheDocument();
    expect(screen.queryByText('Authentication method')).not.toBeInTheDocument();
  });

  it('says so when the user is in no group', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ groups: [] }) } });
    open();
    expect(await screen.findByText(NO_GROUPS)).toBeInTheDocument();
  });

  it("shows 'Unable to get profile' when the account cannot be loaded", async () => {
    fakeServer({ 'GET /accounts/jane.doe': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PROFILE_LOAD_ERROR);
    expect(alert).toHaveTextContent('Internal server error');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('/profile: sign out everywhere', () => {
  it('asks first; cancelled, nothing is sent; confirmed, every session ends and the user is signed out here', async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ groups }) },
      'POST /sessions/end-all': { body: { ok: true, ended: 3 } },
    });
    open();
    const section = await screen.findByRole('region', { name: SIGN_OUT_EVERYWHERE.heading });
    expect(within(section).getByText(SIGN_OUT_EVERYWHERE.text)).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: SIGN_OUT_EVERYWHERE.button }));
    let dialog = await screen.findByRole('dialog', { name: SIGN_OUT_EVERYWHERE.confirm });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: SIGN_OUT_EVERYWHERE.confirm })).not.toBeInTheDocument());
    expect(server.called('POST /sessions/end-all')).toHaveLength(0);

    fireEvent.click(within(section).getByRole('button', { name: SIGN_OUT_EVERYWHERE.button }));
    dialog = await screen.findByRole('dialog', { name: SIGN_OUT_EVERYWHERE.confirm });
    fireEvent.click(within(dialog).getByRole('button', { name: SIGN_OUT_EVERYWHERE.button }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/logout$/);
    expect(server.called('POST /sessions/end-all')).toHaveLength(1);
  });

  it('says why when the server refuses, and the user stays', async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ groups }) },
      'POST /sessions/end-all': { status: 500, body: { error: 'The database is not available.', code: 500 } },
    });
    open();
    const section = await screen.findByRole('region', { name: SIGN_OUT_EVERYWHERE.heading });
    fireEvent.click(within(section).getByRole('button', { name: SIGN_OUT_EVERYWHERE.button }));
    const dialog = await screen.findByRole('dialog', { name: SIGN_OUT_EVERYWHERE.confirm });
    fireEvent.click(within(dialog).getByRole('button', { name: SIGN_OUT_EVERYWHERE.button }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('The database is not available.');
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'User Profile: jane.doe' })).toBeInTheDocument();
  });
});

describe('/profile: sign-ins to services', () => {
  const WIKI = { client: 'team-wiki', service: null, signed_in_at: new Date(2026, 2, 3, 10, 2).toISOString(), expires_at: new Date(2026, 2, 3, 22, 2).toISOString() };
  const JIRA = { client: 'jira', service: 'jira', signed_in_at: new Date(2026, 2, 3, 9, 0).toISOString(), expires_at: null };

  it("lists the user's sign-ins after Service Access; 'Sign out of {name}' asks first, then signs out, says so and shows the list the server answers", async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ groups }) },
      'GET /service-access/jane.doe': { body: { provisioned: true, services: [{ service: 'jira', state: 'up-to-date', since: null, next_attempt_at: null, error: null }] } },
      'GET /service-sign-ins': { body: { available: true, sign_ins: [JIRA, WIKI] } },
      'DELETE /service-sign-ins/jira': { body: { ended: 1, sign_ins: [WIKI] } },
    });
    open();
    const section = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    const table = await within(section).findByRole('table');
    expect(within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['jira (for Jira)', 'Tue Mar 3 2026 9:00 AM', 'Never', 'Sign out of jira'],
      ['team-wiki', 'Tue Mar 3 2026 10:02 AM', 'Tue Mar 3 2026 10:02 PM', 'Sign out of team-wiki'],
    ]);
    const access = await screen.findByRole('region', { name: SERVICE_ACCESS_TITLE });
    expect(access.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(section.compareDocumentPosition(screen.getByRole('region', { name: SIGN_OUT_EVERYWHERE.heading })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'Sign out of jira' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of jira?' });
    expect(dialog).toHaveTextContent('Your session on the portal goes on.');
    expect(server.called('DELETE /service-sign-ins/jira')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Out' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('Signed out of jira.');
    expect(server.called('DELETE /service-sign-ins/jira')).toHaveLength(1);
    await waitFor(() => expect(within(section).queryByRole('button', { name: 'Sign out of jira' })).not.toBeInTheDocument());
    expect(within(section).getByRole('button', { name: 'Sign out of team-wiki' })).toBeInTheDocument();
    // The profile itself is not loaded again.
    expect(server.called('GET /accounts/jane.doe')).toHaveLength(1);
  });

  it('says when there are none; shows nothing when the portal has no OpenID client; a failed list is said in the section', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ groups }) }, 'GET /service-sign-ins': { body: { available: true, sign_ins: [] } } });
    const first = open();
    const section = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    expect(await within(section).findByText(NO_SERVICE_SIGN_INS)).toBeInTheDocument();
    first.unmount();

    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ groups }) }, 'GET /service-sign-ins': { body: { available: false, sign_ins: [] } } });
    const second = open();
    await screen.findByRole('region', { name: 'Groups' });
    await waitFor(() => expect(server.called('GET /service-sign-ins')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
    expect(screen.queryByRole('region', { name: SERVICE_SIGN_INS_TITLE })).not.toBeInTheDocument();
    second.unmount();

    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ groups }) }, 'GET /service-sign-ins': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open();
    const failed = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    expect(within(failed).getByRole('alert')).toHaveTextContent('Could not list the sign-ins to services: Internal server error');
  });
});
