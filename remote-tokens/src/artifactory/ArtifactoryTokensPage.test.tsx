import { formatTokenDate } from '@portal/shared/components';
import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ArtifactoryTokensPage } from './ArtifactoryTokensPage';

jest.setTimeout(30_000);

const PATH = '/tokens/artifactory';
const open = () => renderPage(<ArtifactoryTokensPage />, { path: PATH, entries: [PATH] });
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const DAY = 86_400;

const LIVE = {
  token_id: 't-live',
  description: 'CI upload',
  issued_at: epoch(new Date(2026, 2, 1, 10, 0)),
  expiry: epoch(new Date(2099, 2, 31, 10, 0)),
  revocable: true,
  scope: ['PORTAL-artifactsWrite'],
};
const OLD = { token_id: 't-old', description: 'Old release upload', issued_at: epoch(new Date(2025, 0, 1, 8, 30)), expiry: epoch(new Date(2025, 0, 31, 8, 30)), revocable: false, scope: ['PORTAL-artifactsRead'] };
const GROUPS = [
  { id: 'PORTAL', name: 'Portal Team', levels: ['read', 'write'] },
  { id: 'DEVOPS', name: 'DevOps Community', levels: ['read'] },
];
const CREATED = { ...LIVE, token_id: 't-new', description: 'Nightly', reference_token: 'ptk_SECRETsecretSECRETsecretSECRETsecret12345' };

beforeEach(() => {
  configure({ supported_services: 'artifacts,jira', artifacts_token_max_expiry: 180, artifacts_token_default_expiry: 30, artifacts_token_revocable_expiry: 2, artifacts_profile_url: 'https://artifacts.example.test/ui/user_profile' });
  signIn('user', []);
});

describe('/tokens/artifactory', () => {
  it('goes to /profile when the artifact repository is not supported', async () => {
    configure({ supported_services: 'jira' });
    const server = fakeServer({});
    open();
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/profile$/);
    expect(server.calls).toEqual([]);
  });

  it('lists the tokens: dates as YYYY-MM-DD HH:mm, EXPIRED when past, Revoke only where revocable, and the profile link', async () => {
    fakeServer({ 'GET /tokens': { body: { tokens: [LIVE, OLD] } } });
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Artifactory Access Tokens' })).toBeInTheDocument();
    const live = (await screen.findByText('CI upload')).closest('tr')!;
    expect(within(live).getByText('2026-03-01 10:00')).toBeInTheDocument();
    expect(within(live).getByText('2099-03-31 10:00')).toBeInTheDocument();
    expect(within(live).queryByText('EXPIRED')).not.toBeInTheDocument();
    expect(within(live).getByRole('button', { name: 'Revoke CI upload' })).toBeInTheDocument();
    const old = screen.getByText('Old release upload').closest('tr')!;
    expect(within(old).getByText('EXPIRED')).toBeInTheDocument();
    expect(within(old).queryByRole('button')).not.toBeInTheDocument();
    expect(within(old).getByText('Cannot be revoked')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your artifact repository profile' })).toHaveAttribute('href', 'https://artifacts.example.test/ui/user_profile');
  });

  it("says when there are no tokens; a 400 says an Artifactory account is needed; other failures show the server's words", async () => {
    fakeServer({ 'GET /tokens': { body: { tokens: [] } } });
    const first = open();
    expect(await screen.findByText('You have no existing tokens.')).toBeInTheDocument();
    first.unmount();
    fakeServer({ 'GET /tokens': { status: 400, body: { error: 'You need an Artifactory account to create access tokens. Please create a Jira case in the WEB project for assistance.', code: 400 } } });
    const second = open();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You need an Artifactory account to create access tokens. Please create a Jira case in the WEB project for assistance.',
    );
    expect(screen.queryByRole('button', { name: 'Create Token' })).not.toBeInTheDocument();
    second.unmount();
    fakeServer({ 'GET /tokens': { status: 503, body: { error: 'The artifact repository did not answer: HTTP 500 while listing tokens.', code: 503 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent('The artifact repository did not answer: HTTP 500 while listing tokens.');
  });

  it('revokes after a confirmation, removing the row; a refusal is shown and the row stays', async () => {
    const server = fakeServer({
      'GET /tokens': { body: { tokens: [LIVE, { ...LIVE, token_id: 't-2', description: 'Second' }] } },
      'DELETE /tokens/t-live': { body: { ok: true } },
      'DELETE /tokens/t-2': { status: 409, body: { error: 'This token cannot be revoked: it was issued for less than 2 hours. It stops working when it expires.', code: 409 } },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke CI upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token?' });
    expect(dialog).toHaveTextContent("The token 'CI upload' stops working at once.");
    expect(server.called('DELETE /tokens/t-live')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText("Token 'CI upload' revoked.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('CI upload')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Second' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revoke token?' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This token cannot be revoked: it was issued for less than 2 hours.');
    expect(screen.getByText('Second')).toBeInTheDocument();
  });

  it('has no form without groups to create a token for', async () => {
    fakeServer({ 'GET /tokens': { body: { tokens: [] } }, 'GET /tokens/groups': { body: { rows: [] } } });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('There are no groups for which you may create a token.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
  });

  const openForm = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Create Token' }));
    const form = await screen.findByRole('form', { name: 'Create a token' });
    return { form, create: within(form).getByRole('button', { name: 'Create' }), amount: within(form).getByLabelText('Expires in') };
  };
  const fillNightly = (form: HTMLElement) => {
    const name = within(form).getByLabelText('Token name');
    fireEvent.change(name, { target: { value: 'Nightly' } });
    fireEvent.blur(name);
    fireEvent.click(within(form).getByRole('checkbox', { name: 'PORTAL (Portal Team)' }));
    fireEvent.click(within(within(form).getByRole('radiogroup', { name: 'Access in PORTAL' })).getByRole('radio', { name: 'Write' }));
  };

  it('Create waits for a valid form: Write only where the group may write, the expiry previewed (with the hour for hours), bad amounts refused with the reason', async () => {
    fakeServer({ 'GET /tokens': { body: { tokens: [] } }, 'GET /tokens/groups': { body: { rows: GROUPS } } });
    open();
    const { form, create, amount } = await openForm();
    expect(create).toBeDisabled();
    // Write is offered in PORTAL (write rights), read only in DEVOPS; admin nowhere.
    expect(within(form).getByRole('radiogroup', { name: 'Access in PORTAL' })).toHaveTextContent(/Read.*Write/);
    expect(within(form).getByRole('radiogroup', { name: 'Access in DEVOPS' })).not.toHaveTextContent('Write');
    expect(within(form).queryByText('Admin')).not.toBeInTheDocument();

    fillNightly(form);
    // 30 days, the configured default: the date alone.
    const inDays = new Date(Date.now() + 30 * DAY * 1000);
    expect(within(form).getByText(`The token expires on ${formatTokenDate(inDays, false)}.`)).toBeInTheDocument();
    expect(create).toBeEnabled();

    // Bad amounts disable Create and say why.
    // Digits only (spec section 5): a space around them is not.
    for (const bad of ['0', '181', '1.5', 'ten', '', ' 5', '5 ', '+5', '5e1']) {
      fireEvent.change(amount, { target: { value: bad } });
      fireEvent.blur(amount);
      expect(await within(form).findByText('Please enter a whole number between 1 and 180.')).toBeInTheDocument();
      expect(within(form).queryByText(/^The token expires on/)).not.toBeInTheDocument();
      expect(create).toBeDisabled();
    }
    // One hour: the date and the hour, and the warning that it cannot be revoked (threshold 2 hours).
    fireEvent.change(amount, { target: { value: '1' } });
    fireEvent.click(within(within(form).getByRole('radiogroup', { name: 'Unit' })).getByRole('radio', { name: 'Hours' }));
    const inAnHour = new Date(Date.now() + 3600 * 1000);
    expect(within(form).getByText(`The token expires on ${formatTokenDate(inAnHour)}.`)).toBeInTheDocument();
    expect(within(form).getByText('Tokens with an expiry shorter than 2 hours cannot be revoked.')).toBeInTheDocument();
    expect(create).toBeEnabled();
    fireEvent.change(amount, { target: { value: '48' } });
    expect(within(form).queryByText(/cannot be revoked/)).not.toBeInTheDocument();
  });

  it('creates a token: the request carries the name, the groups and the expiry in seconds; the token is shown once, Copy, Continue lists it', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const server = fakeServer({
      'GET /tokens': [{ body: { tokens: [] } }, { body: { tokens: [CREATED] } }],
      'GET /tokens/groups': { body: { rows: GROUPS } },
      'POST /tokens': { body: CREATED },
    });
    open();
    const { form, create, amount } = await openForm();
    fillNightly(form);
    fireEvent.change(amount, { target: { value: '48' } });
    fireEvent.click(within(within(form).getByRole('radiogroup', { name: 'Unit' })).getByRole('radio', { name: 'Hours' }));

    fireEvent.click(create);
    expect(await screen.findByRole('heading', { name: "Token 'Nightly' created." })).toBeInTheDocument();
    expect(server.called('POST /tokens')[0]?.body).toEqual({ description: 'Nightly', groups: ['PORTAL-artifactsWrite'], expiry: 48 * 3600 });
    expect(screen.getByLabelText('Your new token')).toHaveValue('ptk_SECRETsecretSECRETsecretSECRETsecret12345');
    expect(screen.getByText(/It is shown only once/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('ptk_SECRETsecretSECRETsecretSECRETsecret12345');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Nightly')).toBeInTheDocument();
    expect(screen.queryByText(/ptk_SECRET/)).not.toBeInTheDocument();
    expect(server.called('GET /tokens')).toHaveLength(2);
  });

  it('says a name is required once the field is left empty, and that one over 1024 characters is too long; Create stays disabled', async () => {
    fakeServer({ 'GET /tokens': { body: { tokens: [] } }, 'GET /tokens/groups': { body: { rows: GROUPS } } });
    open();
    const { form, create } = await openForm();
    const name = within(form).getByLabelText('Token name');
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await within(form).findByText('Token name is required.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(create).toBeDisabled();
    fireEvent.change(name, { target: { value: 'x'.repeat(1025) } });
    expect(await within(form).findByText('Token name must be shorter than 1024 characters.')).toBeInTheDocument();
    expect(create).toBeDisabled();
    // Section 9's maximum is 1024 (its message says 'shorter than'): 1024 itself is taken.
    fireEvent.change(name, { target: { value: 'x'.repeat(1024) } });
    await waitFor(() => expect(within(form).queryByText('Token name must be shorter than 1024 characters.')).not.toBeInTheDocument());
    fireEvent.click(within(form).getByRole('checkbox', { name: 'PORTAL (Portal Team)' }));
    await waitFor(() => expect(create).toBeEnabled());
  });

  it("says a group must be chosen once one was unticked, and shows the server's refusal under the groups", async () => {
    fakeServer({
      'GET /tokens': { body: { tokens: [] } },
      'GET /tokens/groups': { body: { rows: [GROUPS[1]] } },
      'POST /tokens': { status: 400, body: { error: 'You may not create a token with DEVOPS-artifactsRead.', code: 400, fields: { groups: 'You may not create a token with DEVOPS-artifactsRead.' } } },
    });
    open();
    const { form, create } = await openForm();
    // The only group starts ticked.
    const only = within(form).getByRole('checkbox', { name: 'DEVOPS (DevOps Community)' });
    expect(only).toBeChecked();
    fireEvent.click(only);
    expect(await within(form).findByText('Please select at least one group.')).toBeInTheDocument();
    fireEvent.click(only);
    fireEvent.change(within(form).getByLabelText('Token name'), { target: { value: 'Deploy' } });
    fireEvent.click(create);
    expect(await within(form).findByText('You may not create a token with DEVOPS-artifactsRead.')).toBeInTheDocument();
    await waitFor(() => expect(create).toBeEnabled());
  });
});
