import { RULE_MESSAGES } from '@portal/api';
import { MODAL_WIDTH } from '@portal/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, sampleAccount, signIn, type FakeAnswer } from '@portal/shared/testing';
import { ChangeEmailPage, EMAIL_CHANGE_ALREADY_PENDING, EMAIL_CHANGE_REQUESTED } from './ChangeEmailPage';

// antd forms render slowly in jsdom, and the 2-core machines are often busy.
jest.setTimeout(20_000);

const EXISTS = (email: string) => `GET /requests/profilechange/email-exists?${new URLSearchParams({ email })}`;
const NOT_FOUND: FakeAnswer = { status: 404, body: { error: 'Not found', code: 404 } };

const openOwn = () => renderPage(<ChangeEmailPage />, { path: '/change-email', entries: ['/profile', '/change-email'] });
const openFor = (username: string) =>
  renderPage(<ChangeEmailPage />, { path: '/change-email/:username', entries: [`/manage-accounts/${username}`, `/change-email/${username}`] });

/** Puts text into a labelled field as a paste (typing each key through antd is slow in jsdom). */
async function enter(label: string, text: string) {
  await userEvent.click(await screen.findByLabelText(label));
  await userEvent.paste(text);
}

interface Entries {
  email?: string;
  confirm?: string;
  reason?: string;
  certify?: boolean;
}

async function fill({ email = 'jane@new.example.test', confirm = email, reason = 'Moved to a new team.', certify = true }: Entries = {}) {
  if (email) await enter('New email', email);
  if (confirm) await enter('Confirm new email', confirm);
  if (reason) await enter('Reason', reason);
  if (certify) await userEvent.click(screen.getByRole('checkbox', { name: /I certify/ }));
}
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Request Email Change' }));

beforeEach(() => {
  configure();
  signIn('jane.doe', ['CHANGE_EMAIL']);
});

describe('/change-email', () => {
  it("shows section 5's messages after a submit, and sends nothing", async () => {
    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    openOwn();
    expect(await screen.findByLabelText('Current email')).toHaveValue('jane.doe@example.test');
    expect(screen.queryByText(RULE_MESSAGES.validEmailAddress)).not.toBeInTheDocument();
    await submit();
    expect(await screen.findByText(RULE_MESSAGES.validEmailAddress)).toBeInTheDocument();
    expect(screen.getByText(RULE_MESSAGES.changeEmailReason)).toBeInTheDocument();
    expect(screen.getByText(RULE_MESSAGES.certifyAccurate)).toBeInTheDocument();
    expect(server.calls.map((c) => c.path)).toEqual(['/accounts/jane.doe']);
  });

  it('wants a valid address, different from the current one, confirmed', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    openOwn();
    await fill({ email: 'not-an-address', confirm: 'something-else' });
    await submit();
    expect(await screen.findByText(RULE_MESSAGES.validEmailAddress)).toBeInTheDocument();
    expect(screen.getByText(RULE_MESSAGES.emailsDontMatch)).toBeInTheDocument();

    const email = screen.getByLabelText('New email');
    await userEvent.clear(email);
    await userEvent.paste('Jane.Doe@example.test');
    expect(await screen.findByText(RULE_MESSAGES.sameEmail)).toBeInTheDocument();
  });

  it('counts the reason as it is typed, up to 150', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() } });
    openOwn();
    const reason = await screen.findByLabelText('Reason');
    expect(screen.getByText('0 / 150')).toBeInTheDocument();
    await userEvent.type(reason, 'New team');
    expect(screen.getByText('8 / 150')).toBeInTheDocument();
    expect(reason).toHaveAttribute('maxlength', '150');
  });

  it('says so under the field when the new address is in use, without asking for confirmation', async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      [EXISTS('taken@example.test')]: { body: { ok: true } },
    });
    openOwn();
    await fill({ email: 'taken@example.test' });
    await submit();
    expect(await screen.findByText(RULE_MESSAGES.emailInUse)).toBeInTheDocument();
    expect(screen.getByLabelText('New email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.called('POST /requests/profilechange')).toHaveLength(0);
  });

  it('asks for confirmation in a 600 px modal; Cancel closes it and sends nothing', async () => {
    const server = fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount() }, [EXISTS('jane@new.example.test')]: NOT_FOUND });
    openOwn();
    await fill();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Email Change' });
    expect(dialog).toHaveTextContent('from jane.doe@example.test to jane@new.example.test');
    expect((dialog.closest('.ant-modal') as HTMLElement).style.width).toBe(`${MODAL_WIDTH}px`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.called('POST /requests/profilechange')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Request Email Change' })).toBeEnabled();
  });

  it("confirmed, sends the request and goes to /profile with 'Successfully requested email change.'", async () => {
    const server = fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      [EXISTS('jane@new.example.test')]: NOT_FOUND,
      'POST /requests/profilechange': { body: { ok: true, code: 200 } },
    });
    openOwn();
    await fill({ reason: '  Moved to a new team.  ' });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Email Change' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect(screen.getByTestId('feedback')).toHaveTextContent(EMAIL_CHANGE_REQUESTED);
    expect(server.called('POST /requests/profilechange')[0]?.body).toEqual({
      username: 'jane.doe',
      email: 'jane@new.example.test',
      reason: 'Moved to a new team.',
    });
  });

  it("shows the server's field message under its field when the request is refused", async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      [EXISTS('jane@new.example.test')]: NOT_FOUND,
      'POST /requests/profilechange': {
        status: 400,
        body: { error: 'Please use your work email address.', code: 400, fields: { email: 'Please use your work email address.' } },
      },
    });
    openOwn();
    await fill();
    await submit();
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Please use your work email address.')).toBeInTheDocument();
    expect(screen.getByLabelText('New email')).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows other failures below the submit button', async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount() },
      [EXISTS('jane@new.example.test')]: NOT_FOUND,
      'POST /requests/profilechange': { status: 409, body: { error: EMAIL_CHANGE_ALREADY_PENDING, code: 409 } },
    });
    openOwn();
    await fill();
    await submit();
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(EMAIL_CHANGE_ALREADY_PENDING);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the pending request instead of the form', async () => {
    fakeServer({ 'GET /accounts/jane.doe': { body: sampleAccount({ email_change_pending: true }) } });
    openOwn();
    expect(await screen.findByText(EMAIL_CHANGE_ALREADY_PENDING)).toBeInTheDocument();
    expect(screen.queryByLabelText('New email')).not.toBeInTheDocument();
  });
});

describe('/change-email/:username (a surrogate request)', () => {
  beforeEach(() => signIn('helpdesk', ['SUBMIT_SURROGATE_REQUEST', 'VIEW_ACCOUNT']));

  it("requests the change for that account and returns to its administration page with the feedback", async () => {
    const server = fakeServer({
      'GET /accounts/bob.smith': { body: sampleAccount({ username: 'bob.smith', email: 'bob@example.test' }) },
      [EXISTS('bob@new.example.test')]: NOT_FOUND,
      'POST /requests/profilechange': { body: { ok: true, code: 200 } },
    });
    openFor('bob.smith');
    expect(await screen.findByLabelText('Username')).toHaveValue('bob.smith');
    expect(screen.getByLabelText('Current email')).toHaveValue('bob@example.test');
    await fill({ email: 'bob@new.example.test' });
    await submit();
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/manage-accounts/bob.smith');
    expect(screen.getByTestId('feedback')).toHaveTextContent(EMAIL_CHANGE_REQUESTED);
    expect(server.called('POST /requests/profilechange')[0]?.body).toMatchObject({ username: 'bob.smith', email: 'bob@new.example.test' });
  });

  it('Cancel goes back to where the surrogate came from', async () => {
    fakeServer({ 'GET /accounts/bob.smith': { body: sampleAccount({ username: 'bob.smith' }) } });
    openFor('bob.smith');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/manage-accounts/bob.smith');
  });

  it('shows not found for an unknown account', async () => {
    fakeServer({ 'GET /accounts/nobody': { status: 404, body: { error: 'Account not found.', code: 404 } } });
    openFor('nobody');
    expect(await screen.findByRole('alert')).toHaveTextContent('The requested resource was not found.');
  });
});
