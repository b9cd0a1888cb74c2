import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, sampleAccount, signIn } from '@portal/shared/testing';
import { AUTH_CHANGE_ALREADY_PENDING, AUTH_CHANGE_REQUESTED, ChangeAuthTypePage, TITLE } from './ChangeAuthTypePage';

// antd forms render slowly in jsdom, and the 2-core machines are often busy.
jest.setTimeout(20_000);

const open = () => renderPage(<ChangeAuthTypePage />, { path: '/change-auth-type', entries: ['/profile', '/change-auth-type'] });
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
async function enter(label: string, text: string) {
  await userEvent.click(await screen.findByLabelText(label));
  await userEvent.paste(text);
}

beforeEach(() => {
  configure({ cac_support: true });
  signIn('jane.doe', ['allow-authchange']);
});

describe('/change-auth-type', () => {
  it('sends the user to /profile without smart-card support', async () => {
    configure({ cac_support: false });
    const server = fakeServer({});
    open();
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect(server.calls).toHaveLength(0);
  });

  describe('from CAC to website token', () => {
    beforeEach(() => {
      fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ authentication: ['certificate'] }) } });
    });

    it('wants a government sponsor email and a reason, checked on submit', async () => {
      open();
      expect(screen.getByRole('heading', { level: 2, name: TITLE })).toBeInTheDocument();
      await screen.findByLabelText('Government sponsor email');
      expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
      await submit();
      expect(await screen.findByText('This field is required')).toBeInTheDocument();
      expect(screen.getByText('Please enter a reason')).toBeInTheDocument();

      await enter('Government sponsor email', 'not-an-email');
      expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
    });

    it("sends the reason with the sponsor appended and goes to /profile with 'Change authentication type request sent.'", async () => {
      const server = fakeServer({
        'GET /accounts/jane.doe': { body: sampleAccount({ authentication: ['certificate'] }) },
        'POST /requests/authchange': { body: { ok: true, code: 200 } },
      });
      open();
      await enter('Government sponsor email', 'sponsor@agency.example.gov');
      await enter('Reason', 'Card expired');
      await submit();
      expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
      expect(screen.getByTestId('feedback')).toHaveTextContent(AUTH_CHANGE_REQUESTED);
      expect(server.called('POST /requests/authchange')[0]?.body).toEqual({
        reason: 'Card expired [GOVT SPONSOR: sponsor@agency.example.gov]',
        authentication: ['token'],
      });
    });

    it('shows a refusal below the submit button', async () => {
      fakeServer({
        'GET /accounts/jane.doe': { body: sampleAccount({ authentication: ['certificate'] }) },
        'POST /requests/authchange': { status: 409, body: { error: AUTH_CHANGE_ALREADY_PENDING, code: 409 } },
      });
      open();
      await enter('Government sponsor email', 'sponsor@agency.example.gov');
      await enter('Reason', 'Card expired');
      await submit();
      expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_CHANGE_ALREADY_PENDING);
      expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
    });
  });

  describe('from website token to CAC', () => {
    it("sends 'Reason optional' without a reason, to the certificate endpoint", async () => {
      const server = fakeServer({
        'GET /accounts/jane.doe': { body: sampleAccount({ authentication: ['token'] }) },
        'POST /cert/requests/authchange': { body: { ok: true, code: 200 } },
      });
      open();
      expect(await screen.findByLabelText('Reason (optional)')).toBeInTheDocument();
      expect(screen.queryByLabelText('Government sponsor email')).not.toBeInTheDocument();
      await submit();
      expect(await screen.findByTestId('feedback')).toHaveTextContent(AUTH_CHANGE_REQUESTED);
      expect(server.called('POST /cert/requests/authchange')[0]?.body).toEqual({ reason: 'Reason optional', authentication: ['certificate'] });
    });

    it('sends the reason when one is given', async () => {
      const server = fakeServer({
        'GET /accounts/jane.doe': { body: sampleAccount({ authentication: ['token'] }) },
        'POST /cert/requests/authchange': { body: { ok: true, code: 200 } },
      });
      open();
      await enter('Reason (optional)', 'Got my CAC');
      await submit();
      await screen.findByTestId('landed');
      expect(server.called('POST /cert/requests/authchange')[0]?.body).toEqual({ reason: 'Got my CAC', authentication: ['certificate'] });
    });
  });

  it('shows the pending request instead of the form', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ auth_change_pending: true }) } });
    open();
    expect(await screen.findByText(AUTH_CHANGE_ALREADY_PENDING)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Request' })).not.toBeInTheDocument();
  });

  it('Cancel returns to /profile', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
  });
});
