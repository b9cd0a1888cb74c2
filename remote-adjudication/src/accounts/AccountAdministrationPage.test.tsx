import { type Permission, RULE_MESSAGES } from '@portal/api';
import { NO_SERVICE_SIGN_INS, SERVICE_ACCESS_TITLE, SERVICE_SIGN_INS_TITLE } from '@portal/shared/components';
import { MESSAGES } from '@portal/shared';
import { configure, fakeServer, renderPage, sampleAccount, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { InitialEntry } from 'react-router-dom';
import { ACCOUNT_CLOSED_NOTE, ACTION_FEEDBACK, CLOSE_CONFIRM_TITLE, closeConfirmText } from './AccountActions';
import {
  ACCOUNT_CLOSED,
  ACCOUNT_LOCKED,
  AccountAdministrationPage,
  EMAIL_CHANGE_PENDING,
  NO_GROUPS,
  NOT_SUBSCRIBED,
  SUBSCRIBED,
  SUBSCRIBED_THROUGH_A_GROUP,
} from './AccountAdministrationPage';

jest.setTimeout(20_000);

const ALL: Permission[] = ['VIEW_ACCOUNT', 'EDIT_ACCOUNT', 'LOCK_ACCOUNT', 'UNLOCK_ACCOUNT', 'SUBMIT_SURROGATE_REQUEST'];
const FROM_SEARCH = '/manage-accounts?term=jane&start=0';

/** Opens jane.doe's page as reached from the search results (the search said where it was). */
const open = (entries: InitialEntry[] = [FROM_SEARCH, { pathname: '/manage-accounts/jane.doe', state: { from: FROM_SEARCH } }]) =>
  renderPage(<AccountAdministrationPage />, { path: '/manage-accounts/:username', entries });

const answers = (account = sampleAccount()) => ({
  'GET /accounts/jane.doe': { body: account },
  'GET /subscriptions/jane.doe': { body: { direct: ['jira'], nested: ['confluence'] } },
  'GET /accounts/jane.doe/tokens': { body: { tokens: [] } },
  // No directory is provisioned: no Service Access section.
  'GET /service-access/jane.doe': { body: { provisioned: false, services: [] } },
  // No OpenID client registered: no Sign-ins to Services section.
  'GET /accounts/jane.doe/service-sign-ins': { body: { available: false, sign_ins: [] } },
});

/** Opens a collapsible action box by its header; answers the box (a region named after its action). */
async function openBox(name: string): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name, expanded: false }));
  return screen.findByRole('region', { name });
}
const reason = (form: HTMLElement, text: string) => fireEvent.change(within(form).getByLabelText(/^Reason/), { target: { value: text } });

beforeEach(() => {
  configure({ supported_services: 'jira,artifacts,confluence', email_domain: 'example.test' });
  signIn('helpdesk', ALL);
});

describe('/manage-accounts/:username', () => {
  it("offers the change of a membership only to a surrogate (SUBMIT_SURROGATE_REQUEST): the groups table's own columns otherwise", async () => {
    signIn('adjudicator', ['VIEW_ACCOUNT', 'EDIT_ACCOUNT']);
    fakeServer(answers(sampleAccount({ groups: [{ user_group: 'PORTAL', name: 'Portal Team', role: 'team', notification: 'high', special: [] }] })));
    open();
    const groups = await within(await screen.findByRole('region', { name: 'Groups' })).findByRole('table');
    expect(within(groups).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Group', 'Role', 'Jira Notification', 'Special Permissions']);
    expect(within(groups).queryByRole('link', { name: /^Change membership/ })).not.toBeInTheDocument();
  });

  it('shows the account, its subscriptions, groups and history', async () => {
    const server = fakeServer(
      answers(
        sampleAccount({
          groups: [{ user_group: 'PORTAL', name: 'Portal Team', role: 'team', notification: 'high', special: ['PORTAL-release'] }],
          updates: [
            { action: '', comment: '[Warning] Unlocked after a phone call.', created: '2026-03-04T09:30:00', username: 'helpdesk', active: true },
            { action: 'Locked', comment: 'Suspicious sign-ins.', created: '2026-03-04T08:00:00', username: 'helpdesk', active: false },
            { action: '', comment: 'Account created.', created: '2026-03-03T16:05:00', username: 'adjudicator', active: false },
          ],
        }),
      ),
    );
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Account Administration' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Change email' })).toHaveAttribute('href', '/change-email/jane.doe');

    const details = screen.getByRole('region', { name: 'Account Details' });
    expect(within(details).getByText('Sam Boss')).toBeInTheDocument(); // personal data shown
    expect(screen.queryByText(ACCOUNT_LOCKED)).not.toBeInTheDocument();

    const subscriptions = screen.getByRole('region', { name: 'Subscriptions' });
    await within(subscriptions).findByText('Jira');
    const subscriptionRows = within(subscriptions)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(subscriptionRows).toEqual([`Jira${SUBSCRIBED}`, `Artifactory${NOT_SUBSCRIBED}`, `Confluence${SUBSCRIBED_THROUGH_A_GROUP}`]);

    const groups = within(screen.getByRole('region', { name: 'Groups' })).getByRole('table');
    expect(within(groups).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Group', 'Role', 'Jira Notification', 'Special Permissions', 'Membership']);
    expect(within(groups).getByRole('link', { name: 'Portal Team (PORTAL)' })).toHaveAttribute('href', '/group-administration/PORTAL');
    expect(within(groups).getAllByRole('row')[1]?.textContent).toBe('Portal Team (PORTAL)TeamHighPORTAL-releaseChange membership');
    // A surrogate (SUBMIT_SURROGATE_REQUEST, the help desk's) reaches the member's Change page, where Remove User From Group is.
    expect(within(groups).getByRole('link', { name: 'Change membership of jane.doe in PORTAL' })).toHaveAttribute('href', '/change-membership/PORTAL/jane.doe');

    const history = screen.getByRole('region', { name: 'Update History' });
    const table = within(history).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Comment', 'Date', 'Username', 'Active?']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['[Warning] Unlocked after a phone call.', 'Wed Mar 4 2026 9:30 AM', 'helpdesk', 'Yes'],
      ['Locked: Suspicious sign-ins.', 'Wed Mar 4 2026 8:00 AM', 'helpdesk', 'No'],
      ['Account created.', 'Tue Mar 3 2026 4:05 PM', 'adjudicator', 'No'],
    ]);
    expect(within(table).getByText('[Warning] Unlocked after a phone call.').closest('.ant-typography')).toHaveClass('ant-typography-warning');
    const csv = within(history).getByRole('link', { name: 'Export history (CSV)' });
    expect(csv).toHaveAttribute('href', '/accounts/rest/accounts/jane.doe/history.csv');
    expect(csv).toHaveAttribute('download');

    expect(screen.getByRole('button', { name: 'Lock Account', expanded: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close Account', expanded: false })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlock Account' })).not.toBeInTheDocument();
    expect(server.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /accounts/jane.doe',
      'GET /accounts/jane.doe/service-sign-ins',
      'GET /accounts/jane.doe/tokens',
      'GET /service-access/jane.doe',
      'GET /subscriptions/jane.doe',
    ]);
    expect(screen.queryByRole('region', { name: SERVICE_ACCESS_TITLE })).not.toBeInTheDocument();
  });

  it('says, after the subscriptions, whether the access to each service the account uses is in step with the directory', async () => {
    fakeServer({
      ...answers(),
      'GET /service-access/jane.doe': {
        body: {
          provisioned: true,
          services: [
            { service: 'confluence', state: 'failed', since: new Date(2026, 2, 3, 10, 2).getTime(), next_attempt_at: new Date(2026, 2, 3, 10, 7).getTime(), error: 'the directory did not answer' },
            { service: 'jira', state: 'up-to-date', since: null, next_attempt_at: null, error: null },
          ],
        },
      },
    });
    open();
    const section = await screen.findByRole('region', { name: SERVICE_ACCESS_TITLE });
    expect(within(section).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'ConfluenceFailed: the directory did not answer; retrying at Tue Mar 3 2026 10:07 AM',
      'JiraUp to date',
    ]);
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby') && document.getElementById(r.getAttribute('aria-labelledby')!)?.textContent);
    expect(regions.indexOf(SERVICE_ACCESS_TITLE)).toBe(regions.indexOf('Subscriptions') + 1);
  });

  it('offers the change-email link only with EDIT_ACCOUNT and SUBMIT_SURROGATE_REQUEST, and says when a change is pending', async () => {
    for (const permissions of [['VIEW_ACCOUNT'], ['VIEW_ACCOUNT', 'EDIT_ACCOUNT'], ['VIEW_ACCOUNT', 'SUBMIT_SURROGATE_REQUEST']] as const) {
      signIn('helpdesk', permissions);
      fakeServer(answers());
      const page = open();
      await screen.findByRole('region', { name: 'Account Details' });
      expect(screen.queryByRole('link', { name: 'Change email' })).not.toBeInTheDocument();
      page.unmount();
    }

    signIn('helpdesk', ALL);
    fakeServer(answers(sampleAccount({ email_change_pending: true })));
    open();
    expect(await screen.findByText(EMAIL_CHANGE_PENDING)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change email' })).not.toBeInTheDocument();
  });

  it('says when the user is in no group', async () => {
    fakeServer(answers());
    open();
    expect(await screen.findByText(NO_GROUPS)).toBeInTheDocument();
  });

  it('shows no actions without the permissions, and no lock box without LOCK_ACCOUNT', async () => {
    signIn('helpdesk', ['VIEW_ACCOUNT', 'UNLOCK_ACCOUNT']);
    fakeServer(answers());
    open();
    await screen.findByRole('region', { name: 'Account Details' });
    expect(screen.queryByRole('button', { name: 'Lock Account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close Account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('locks with a reason and goes back to the search with the feedback', async () => {
    const server = fakeServer({ ...answers(), 'POST /accounts/jane.doe/lock': { body: sampleAccount({ active: false }) } });
    open();
    const form = await openBox('Lock Account');
    expect(within(form).getByText('0 / 150')).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: 'Lock Account' }));
    expect(await within(form).findByText(RULE_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    reason(form, '  Suspicious sign-ins.  ');
    fireEvent.click(within(form).getByRole('button', { name: 'Lock Account' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/manage-accounts\?term=jane&start=0$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^The account for jane\.doe has been locked\.$/);
    expect(server.called('POST /accounts/jane.doe/lock').map((c) => c.body)).toEqual([{ comment: 'Suspicious sign-ins.' }]);
  });

  it('shows a refused action under its button and keeps the reason', async () => {
    fakeServer({
      ...answers(),
      'POST /accounts/jane.doe/lock': { status: 403, body: { error: 'You cannot lock or close your own account.', code: 403 } },
    });
    open();
    const form = await openBox('Lock Account');
    reason(form, 'Testing.');
    fireEvent.click(within(form).getByRole('button', { name: 'Lock Account' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('You cannot lock or close your own account.');
    expect(within(form).getByLabelText('Reason')).toHaveValue('Testing.');
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('unlocks a locked account without a reason, and goes to the search page when nothing says where to go back to', async () => {
    const server = fakeServer({ ...answers(sampleAccount({ active: false })), 'POST /accounts/jane.doe/unlock': { body: sampleAccount() } });
    open(['/manage-accounts/jane.doe']);
    expect(await screen.findByText(ACCOUNT_LOCKED)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Lock Account' })).not.toBeInTheDocument();
    const form = await openBox('Unlock Account');
    expect(within(form).getByLabelText('Reason (optional)')).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: 'Unlock Account' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/manage-accounts$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(ACTION_FEEDBACK.unlocked('jane.doe'));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^The account for jane\.doe has been unlocked\.$/);
    expect(server.called('POST /accounts/jane.doe/unlock').map((c) => c.body)).toEqual([{ comment: '' }]);
  });

  it("closes after 'Are you sure?'; Cancel sends nothing", async () => {
    const server = fakeServer({ ...answers(), 'POST /requests/close': { body: sampleAccount({ active: false, closed: true }) } });
    open();
    const form = await openBox('Close Account');
    fireEvent.click(within(form).getByRole('button', { name: 'Close Account' }));
    expect(await within(form).findByText(RULE_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    reason(form, 'Left the company.');
    fireEvent.click(within(form).getByRole('button', { name: 'Close Account' }));
    let dialog = await screen.findByRole('dialog', { name: CLOSE_CONFIRM_TITLE });
    expect(dialog).toHaveTextContent(closeConfirmText('jane.doe'));
    expect(dialog).toHaveTextContent('Are you sure you wish to close account <jane.doe>?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.called('POST /requests/close')).toHaveLength(0);

    await waitFor(() => expect(within(form).getByRole('button', { name: 'Close Account' })).toBeEnabled());
    fireEvent.click(within(form).getByRole('button', { name: 'Close Account' }));
    dialog = await screen.findByRole('dialog', { name: CLOSE_CONFIRM_TITLE });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close Account' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/manage-accounts\?term=jane&start=0$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^The account for jane\.doe has been closed\.$/);
    expect(server.called('POST /requests/close').map((c) => c.body)).toEqual([{ username: 'jane.doe', reason: 'Left the company.' }]);
  });

  it('shows no actions for a closed account', async () => {
    fakeServer(answers(sampleAccount({ active: false, closed: true })));
    open();
    expect(await screen.findByText(ACCOUNT_CLOSED)).toBeInTheDocument();
    const actions = screen.getByRole('region', { name: 'Actions' });
    expect(actions).toHaveTextContent(new RegExp(`^Actions${ACCOUNT_CLOSED_NOTE.replace('.', '\\.')}$`));
    expect(within(actions).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByText(ACCOUNT_LOCKED)).not.toBeInTheDocument();
  });

  it("says why the subscriptions could not be loaded", async () => {
    fakeServer({ ...answers(), 'GET /subscriptions/jane.doe': { status: 403, body: { error: 'Forbidden', code: 403 } } });
    open();
    const subscriptions = await screen.findByRole('region', { name: 'Subscriptions' });
    expect(await within(subscriptions).findByRole('alert')).toHaveTextContent("Error getting user's subscriptions: 403 Forbidden");
  });

  it('shows the not-found view for an unknown account, at the same URL', async () => {
    fakeServer({ 'GET /accounts/nobody': { status: 404, body: { error: 'Account not found.', code: 404 } } });
    renderPage(<AccountAdministrationPage />, { path: '/manage-accounts/:username', entries: ['/manage-accounts/nobody'] });
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Not Found' })).toBeInTheDocument();
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });
});

describe('the Access Tokens section', () => {
  const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
  const TOKENS = [
    { token_id: 't-1', description: 'CI upload', issued_at: epoch('2026-03-01T10:00:00'), expiry: epoch('2099-03-31T10:00:00'), revocable: false, scope: ['PORTAL-artifactsWrite'] },
    { token_id: 't-2', description: 'Old release', issued_at: epoch('2025-01-01T08:30:00'), expiry: epoch('2025-01-31T08:30:00'), revocable: true, scope: ['PORTAL-artifactsRead', 'DEVOPS-artifactsRead'] },
  ];

  it('lists the tokens without secrets, EXPIRED where past; Revoke asks first, removes the row and reloads the history', async () => {
    const server = fakeServer({
      ...answers(),
      'GET /accounts/jane.doe/tokens': { body: { tokens: TOKENS } },
      'DELETE /accounts/jane.doe/tokens/t-1': { body: { ok: true } },
    });
    open();
    const section = await screen.findByRole('region', { name: 'Access Tokens' });
    const row = (await within(section).findByText('CI upload')).closest('tr')!;
    expect(within(row).getByText('2026-03-01 10:00')).toBeInTheDocument();
    expect(within(row).getByText('PORTAL-artifactsWrite')).toBeInTheDocument();
    expect(within(row).queryByText('EXPIRED')).not.toBeInTheDocument();
    const old = within(section).getByText('Old release').closest('tr')!;
    expect(within(old).getByText('EXPIRED')).toBeInTheDocument();
    expect(within(old).getByText('PORTAL-artifactsRead, DEVOPS-artifactsRead')).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Revoke CI upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token?' });
    expect(dialog).toHaveTextContent("The token 'CI upload' of jane.doe stops working at once. This cannot be undone.");
    expect(server.called('DELETE /accounts/jane.doe/tokens/t-1')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(section).findByText("Token 'CI upload' revoked.")).toBeInTheDocument();
    expect(server.called('DELETE /accounts/jane.doe/tokens/t-1')).toHaveLength(1);
    await waitFor(() => expect(within(section).queryByText('CI upload')).not.toBeInTheDocument());
    await waitFor(() => expect(server.called('GET /accounts/jane.doe')).toHaveLength(2));
    expect(within(section).getByText('Old release')).toBeInTheDocument();
  });

  it("shows the server's message when the revocation fails, and keeps the row", async () => {
    fakeServer({
      ...answers(),
      'GET /accounts/jane.doe/tokens': { body: { tokens: TOKENS } },
      'DELETE /accounts/jane.doe/tokens/t-2': { status: 404, body: { error: 'Token not found.', code: 404 } },
    });
    open();
    const section = await screen.findByRole('region', { name: 'Access Tokens' });
    fireEvent.click(await within(section).findByRole('button', { name: 'Revoke Old release' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revoke token?' })).getByRole('button', { name: 'Revoke' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('Token not found.');
    expect(within(section).getByText('Old release')).toBeInTheDocument();
  });

  it('offers no Revoke without LOCK_ACCOUNT, says when there are none, and is absent without the artifact repository', async () => {
    signIn('auditor', ['VIEW_ACCOUNT']);
    fakeServer({ ...answers(), 'GET /accounts/jane.doe/tokens': { body: { tokens: TOKENS } } });
    const first = open();
    const section = await screen.findByRole('region', { name: 'Access Tokens' });
    expect(await within(section).findByText('CI upload')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    first.unmount();

    fakeServer(answers());
    const second = open();
    expect(await screen.findByText('This account has no tokens.')).toBeInTheDocument();
    second.unmount();

    configure({ supported_services: 'jira' });
    const server = fakeServer(answers());
    open();
    expect(await screen.findByRole('region', { name: 'Update History' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Access Tokens' })).not.toBeInTheDocument();
    expect(server.called('GET /accounts/jane.doe/tokens')).toHaveLength(0);
  });
});

describe('the Sign-ins to Services section', () => {
  const WIKI = { client: 'team-wiki', service: null, signed_in_at: new Date(2026, 2, 3, 10, 2).toISOString(), expires_at: new Date(2026, 2, 3, 22, 2).toISOString() };
  const JIRA = { client: 'jira', service: 'jira', signed_in_at: new Date(2026, 2, 3, 9, 0).toISOString(), expires_at: new Date(2026, 2, 3, 21, 0).toISOString() };

  it("lists the account's sign-ins after Service Access; End asks first, then ends it, says so, shows the list the server answers and reloads the history", async () => {
    const server = fakeServer({
      ...answers(),
      'GET /accounts/jane.doe/service-sign-ins': { body: { available: true, sign_ins: [JIRA, WIKI] } },
      'DELETE /accounts/jane.doe/service-sign-ins/team-wiki': { body: { ended: 1, sign_ins: [JIRA] } },
    });
    open();
    const section = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    const table = await within(section).findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Service', 'Signed in', 'Expires', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['jira (for Jira)', 'Tue Mar 3 2026 9:00 AM', 'Tue Mar 3 2026 9:00 PM', 'End'],
      ['team-wiki', 'Tue Mar 3 2026 10:02 AM', 'Tue Mar 3 2026 10:02 PM', 'End'],
    ]);
    // Placed after Subscriptions (and where Service Access would be), before the groups.
    expect(screen.getByRole('region', { name: 'Subscriptions' }).compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(section.compareDocumentPosition(screen.getByRole('region', { name: 'Groups' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'End the sign-in to team-wiki' }));
    const dialog = await screen.findByRole('dialog', { name: 'End sign-in to service?' });
    expect(dialog).toHaveTextContent('jane.doe is signed out of team-wiki at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.called('DELETE /accounts/jane.doe/service-sign-ins/team-wiki')).toHaveLength(0);

    fireEvent.click(within(table).getByRole('button', { name: 'End the sign-in to team-wiki' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'End sign-in to service?' })).getByRole('button', { name: 'End' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('The sign-in of jane.doe to team-wiki ended.');
    expect(server.called('DELETE /accounts/jane.doe/service-sign-ins/team-wiki')).toHaveLength(1);
    await waitFor(() => expect(within(section).queryByText('team-wiki')).not.toBeInTheDocument());
    expect(within(section).getByText('jira')).toBeInTheDocument();
    await waitFor(() => expect(server.called('GET /accounts/jane.doe')).toHaveLength(2));
  });

  it("says when there are none, and shows the server's message when the ending fails, keeping the row", async () => {
    fakeServer({ ...answers(), 'GET /accounts/jane.doe/service-sign-ins': { body: { available: true, sign_ins: [] } } });
    const first = open();
    const empty = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    expect(await within(empty).findByText(NO_SERVICE_SIGN_INS)).toBeInTheDocument();
    first.unmount();

    fakeServer({
      ...answers(),
      'GET /accounts/jane.doe/service-sign-ins': { body: { available: true, sign_ins: [WIKI] } },
      'DELETE /accounts/jane.doe/service-sign-ins/team-wiki': { status: 404, body: { error: 'No service called “team-wiki” signs in through the portal.', code: 404 } },
    });
    open();
    const section = await screen.findByRole('region', { name: SERVICE_SIGN_INS_TITLE });
    fireEvent.click(await within(section).findByRole('button', { name: 'End the sign-in to team-wiki' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'End sign-in to service?' })).getByRole('button', { name: 'End' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('No service called “team-wiki” signs in through the portal.');
    expect(within(section).getByText('team-wiki')).toBeInTheDocument();
  });

  it('is absent when the portal has no OpenID client, and not asked for without LOCK_ACCOUNT', async () => {
    const server = fakeServer(answers());
    const first = open();
    expect(await screen.findByRole('region', { name: 'Update History' })).toBeInTheDocument();
    await waitFor(() => expect(server.called('GET /accounts/jane.doe/service-sign-ins')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
    expect(screen.queryByRole('region', { name: SERVICE_SIGN_INS_TITLE })).not.toBeInTheDocument();
    first.unmount();

    signIn('auditor', ['VIEW_ACCOUNT']);
    const other = fakeServer(answers());
    open();
    expect(await screen.findByRole('region', { name: 'Update History' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: SERVICE_SIGN_INS_TITLE })).not.toBeInTheDocument();
    expect(other.called('GET /accounts/jane.doe/service-sign-ins')).toHaveLength(0);
  });
});
