import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, sampleAccount, signIn } from '@portal/shared/testing';
import { EMAIL_CHANGE_PENDING } from './ProfilePage';
import { PROFILE_UPDATED, UpdateProfilePage } from './UpdateProfilePage';

// antd forms render slowly in jsdom, and the 2-core machines are often busy.
jest.setTimeout(20_000);

const open = () => renderPage(<UpdateProfilePage />, { path: '/update-profile', entries: ['/profile', '/update-profile'] });
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));

beforeEach(() => {
  configure();
  signIn('jane.doe', ['allow-profilechange', 'CHANGE_EMAIL']);
});

describe('/update-profile', () => {
  it('fills the form from the account; name, username and email are read-only', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    expect(await screen.findByLabelText('Business phone')).toHaveValue('555-123-4567');
    expect(screen.getByLabelText('Name')).toHaveValue('Jane Doe');
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue('jane.doe@example.test');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByRole('link', { name: 'Change Email' })).toHaveAttribute('href', '/change-email');
    expect(screen.getByLabelText('Supervisor email')).toHaveValue('sam.boss@example.test');
    expect(screen.getByLabelText('Reason for account')).toHaveValue('Builds the portal.');
  });

  it('offers the change-email link only with the change-email permission, and notes a pending change', async () => {
    signIn('jane.doe', ['allow-profilechange']);
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    const { unmount } = open();
    await screen.findByLabelText('Business phone');
    expect(screen.queryByRole('link', { name: 'Change Email' })).not.toBeInTheDocument();
    unmount();

    signIn('jane.doe', ['allow-profilechange', 'CHANGE_EMAIL']);
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ email_change_pending: true }) } });
    open();
    expect(await screen.findByText(EMAIL_CHANGE_PENDING)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change Email' })).not.toBeInTheDocument();
  });

  it('checks every field only after a submit, and sends nothing while one is wrong', async () => {
    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    const phone = await screen.findByLabelText('Business phone');
    await userEvent.clear(phone);
    await userEvent.clear(screen.getByLabelText('City'));
    await userEvent.clear(screen.getByLabelText('Supervisor email'));
    await userEvent.type(screen.getByLabelText('Supervisor email'), 'not-an-email');
    await userEvent.clear(screen.getByLabelText('Reason for account'));
    expect(screen.queryByText('Please enter a phone number')).not.toBeInTheDocument();

    await submit();
    expect(await screen.findByText('Please enter a phone number')).toBeInTheDocument();
    expect(screen.getByText('Please enter a city')).toBeInTheDocument();
    expect(screen.getByText('Email address is invalid')).toBeInTheDocument();
    expect(screen.getByText('Please enter a reason')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(server.called('POST /accounts/jane.doe')).toHaveLength(0);
  });

  it("shows the server's field message under its field", async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      'POST /accounts/jane.doe': {
        status: 400,
        body: { error: 'Please use your work email address.', code: 400, fields: { supervisor_email: 'Please use your work email address.' } },
      },
    });
    open();
    await screen.findByLabelText('Business phone');
    await submit();
    const field = screen.getByLabelText('Supervisor email');
    expect(await screen.findByText('Please use your work email address.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows any other failure below the submit button', async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      'POST /accounts/jane.doe': { status: 403, body: { error: 'Forbidden', code: 403 } },
    });
    open();
    await screen.findByLabelText('Business phone');
    await submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Forbidden');
    // Below the button: it follows the button in the document.
    expect(screen.getByRole('button', { name: 'Update Profile' }).compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("sends the profile and goes to /profile with 'Profile updated successfully.'", async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      'POST /accounts/jane.doe': ({ body }) => ({ body: { ...sampleAccount(), ...(body as object) } }),
    });
    open();
    const city = await screen.findByLabelText('City');
    await userEvent.clear(city);
    await userEvent.type(city, '  Arlington ');
    await submit();
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect(screen.getByTestId('feedback')).toHaveTextContent(PROFILE_UPDATED);
    expect(server.called('POST /accounts/jane.doe')[0]?.body).toEqual({
      phone: '555-123-4567',
      address: { street: '1 Main St', city: 'Arlington', state: 'VA', zip: '22150', country: 'USA' },
      company: 'ACME',
      project: 'Portal',
      supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@example.test', phone: '555-765-4321' },
      reason: 'Builds the portal.',
    });
  });

  it('the reason for the account is a reason box of 150; a longer stored one may be kept unchanged', async () => {
    const legacy = 'L'.repeat(400);
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ reason: legacy }) },
      'POST /accounts/jane.doe': ({ body }) => ({ body: { ...sampleAccount(), ...(body as object) } }),
    });
    open();
    const reason = await screen.findByLabelText('Reason for account');
    expect(reason).toHaveAttribute('maxlength', '400');
    await submit();
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect((server.called('POST /accounts/jane.doe')[0]?.body as { reason: string }).reason).toBe(legacy);
  });

  it('holds a new reason to 150 characters: the box stops there and counts to 150', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    const reason = await screen.findByLabelText('Reason for account');
    expect(reason).toHaveAttribute('maxlength', '150');
    expect(screen.getByText(`${'Builds the portal.'.length} / 150`)).toBeInTheDocument();
  });

  it('Cancel goes back to /profile without sending anything', async () => {
    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    await screen.findByLabelText('Business phone');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect(screen.getByTestId('feedback')).toHaveTextContent('');
    expect(server.calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('marks every editable field required', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    const form = await screen.findByRole('form', { name: 'Update profile' });
    const required = within(form).getAllByRole('textbox').filter((box) => box.getAttribute('aria-required') === 'true');
    expect(required).toHaveLength(13);
  });
});
