import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, solveChallenge } from '@portal/shared/testing';
import { accountRequestBody, RequestAccountPage, SUBMISSION_SUCCESS } from './RequestAccountPage';
import { CAC_REGISTERED, CAC_REQUESTED, RegisterCacPage } from './RegisterCacPage';
import { ResetWebsiteTokenPage, TOKEN_FAILED } from './ResetWebsiteTokenPage';
import { CheckStatusPage, RESPONSE_RECEIVED } from './CheckStatusPage';
import { RequestUnlockPage, UNLOCK_RECEIVED, UNLOCK_UNABLE } from './RequestUnlockPage';

// By label: as a user finds a field, and much cheaper than a role query on a long form.
const field = (name: string) => screen.getByLabelText(name, { selector: 'input, textarea' });

// These tests walk through whole forms on a shared 2-core machine.
jest.setTimeout(30_000);

beforeEach(() => configure({ cac_support: false, auto_cert_registration_approval: true }));

/** Goes through the email and code steps with the answers given for them. */
async function verify(container: HTMLElement, user: ReturnType<typeof userEvent.setup>, email = 'jane.doe@agency.example') {
  await user.type(field('Email'), email);
  solveChallenge(container);
  await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
  await user.type(await screen.findByRole('textbox', { name: 'Verification code' }), '123456');
  await user.click(screen.getByRole('button', { name: 'Verify' }));
}

describe('the verification flow', () => {
  it('checks the email and the challenge before sending, then the code before verifying', async () => {
    const { calls } = fakeServer({ 'POST /mail/verifywithbotchallenge': {}, 'POST /accounts/verifyrequestisvalid': { status: 401, body: { error: 'The verification code is invalid or has expired.', code: 401 } } });
    const user = userEvent.setup();
    const { container } = renderPage(<CheckStatusPage />, { path: '/check-account-request-status', entries: ['/check-account-request-status'] });
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Please enter a valid email.')).toBeInTheDocument();
    await user.type(field('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Please enter a valid email.')).toBeInTheDocument();
    await user.clear(field('Email'));
    await user.type(field('Email'), 'jane.doe@agency.example');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Please complete the security challenge.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/mail/verifywithbotchallenge')).toHaveLength(0);

    solveChallenge(container, 'payload-1');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    const code = await screen.findByRole('textbox', { name: 'Verification code' });
    expect(calls.find((c) => c.path === '/mail/verifywithbotchallenge')?.body).toEqual({ email: 'jane.doe@agency.example', botChallengeResponse: 'payload-1' });
    expect(calls.find((c) => c.path === '/mail/verifywithbotchallenge')?.headers['X-XSRF-TOKEN']).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Please enter your verification code.')).toBeInTheDocument();
    await user.type(code, '12ab');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The verification code is the 6 digits in the mail.')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The verification code is invalid or has expired.')).toBeInTheDocument();
    const verifyCall = calls.find((c) => c.path === '/accounts/verifyrequestisvalid');
    expect(verifyCall?.headers.Authorization).toBe('Bearer 654321');
    expect(verifyCall?.body).toEqual({ email: 'jane.doe@agency.example' });
  });

  it.each([
    ['the token flow', 'account', 'an account', () => <ResetWebsiteTokenPage />],
    ['the unlock flow', 'account', 'an account', () => <RequestUnlockPage />],
    ['the CAC flow', 'account', 'an account', () => <RegisterCacPage />],
    ['the status check', 'account or account request', 'an account or an account request', () => <CheckStatusPage />],
  ])('%s asks for the address of your %s (only the status check mentions account requests)', async (_name, subject, any, page) => {
    configure({ cac_support: true });
    fakeServer({ 'POST /mail/verifywithbotchallenge': {} });
    const user = userEvent.setup();
    const { container } = renderPage(page(), { path: '/x', entries: ['/x'] });
    expect(screen.getByText(new RegExp(`^Enter the email address of your ${subject} to `))).toBeInTheDocument();
    await user.type(field('Email'), 'jane.doe@agency.example');
    solveChallenge(container);
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText(`If jane.doe@agency.example belongs to ${any}, a verification code has been sent to it.`)).toBeInTheDocument();
  });

  it("a refused challenge is shown in the challenge area", async () => {
    fakeServer({ 'POST /mail/verifywithbotchallenge': { status: 400, body: { error: 'Invalid Security Challenge Response', code: 400 } } });
    const user = userEvent.setup();
    const { container } = renderPage(<CheckStatusPage />, { path: '/x', entries: ['/x'] });
    await user.type(field('Email'), 'jane.doe@agency.example');
    solveChallenge(container);
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    const area = screen.getByRole('group', { name: 'Security challenge' });
    expect(await within(area).findByText('Invalid Security Challenge Response')).toBeInTheDocument();
  });

  it("a code error containing 'locked' offers the unlock request", async () => {
    fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': { status: 403, body: { error: 'This account is locked. Please request an unlock.', code: 403 } },
    });
    const user = userEvent.setup();
    const { container } = renderPage(<ResetWebsiteTokenPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    expect(await screen.findByText('This account is locked. Please request an unlock.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Submit an unlock request' })).toHaveAttribute('href', '/request-unlock');
  });
});

describe('check account request status', () => {
  it('shows status and comment, and takes the response the adjudicator asked for', async () => {
    const { calls } = fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': {},
      'POST /requests/new/status': { body: { status: 'incomplete', comment: 'Which project?', username: 'jane.doe', awaiting_response: true } },
      'POST /requests/new/pending': {},
    });
    const user = userEvent.setup();
    const { container } = renderPage(<CheckStatusPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    expect(await screen.findByText('More information needed')).toBeInTheDocument();
    expect(screen.getByText('Which project?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Response' }));
    expect(await screen.findByText('A response is required.')).toBeInTheDocument();
    await user.type(field('Your response'), 'The Apollo project.');
    await user.click(screen.getByRole('button', { name: 'Submit Response' }));
    expect(await screen.findByText(RESPONSE_RECEIVED)).toBeInTheDocument();
    const response = calls.find((c) => c.path === '/requests/new/pending');
    expect(response?.body).toEqual({ email: 'jane.doe@agency.example', username: 'jane.doe', comment: 'The Apollo project.' });
    expect(response?.headers.Authorization).toBe('Bearer 123456');
  });

  it('a pending request shows no response form', async () => {
    fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': {},
      'POST /requests/new/status': { body: { status: 'pending', comment: '', username: 'jane.doe', awaiting_response: false } },
    });
    const user = userEvent.setup();
    const { container } = renderPage(<CheckStatusPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    expect(await screen.findByText('Pending review')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Response' })).not.toBeInTheDocument();
  });

  it.each([
    ['pending', 'Pending review'],
    ['denied', 'Denied'],
  ])('a %s request has a way back to sign-in', async (status, text) => {
    fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': {},
      'POST /requests/new/status': { body: { status, comment: '', username: 'jane.doe', awaiting_response: false } },
    });
    const user = userEvent.setup();
    const { container } = renderPage(<CheckStatusPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign-In' })).toHaveAttribute('href', '/login');
  });
});

describe('request unlock', () => {
  it('takes a locked account as verified and needs a reason', async () => {
    const { calls } = fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': { status: 403, body: { error: 'This account is locked. Please request an unlock.', code: 403 } },
      'POST /requests/unlock': {},
    });
    const user = userEvent.setup();
    const { container } = renderPage(<RequestUnlockPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    await user.click(await screen.findByRole('button', { name: 'Submit Unlock Request' }));
    expect(await screen.findByText('Reason is required')).toBeInTheDocument();
    await user.type(field('Reason'), 'I mistyped my token.');
    await user.click(screen.getByRole('button', { name: 'Submit Unlock Request' }));
    expect(await screen.findByText(UNLOCK_RECEIVED)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/requests/unlock')?.body).toEqual({ email: 'jane.doe@agency.example', reason: 'I mistyped my token.' });
  });

  it('a closed account is not stopped at the code step: its request gets the unable view', async () => {
    fakeServer({
      'POST /mail/verifywithbotchallenge': {},
      'POST /accounts/verifyrequestisvalid': { status: 403, body: { error: 'This account is closed.', code: 403 } },
      'POST /requests/unlock': { status: 401, body: { error: 'Unlock request cannot be submitted at this time.', code: 401 } },
    });
    const user = userEvent.setup();
    const { container } = renderPage(<RequestUnlockPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    await user.type(await screen.findByRole('textbox', { name: 'Reason' }), 'Please reopen it.');
    await user.click(screen.getByRole('button', { name: 'Submit Unlock Request' }));
    expect(await screen.findByText(UNLOCK_UNABLE)).toBeInTheDocument();
    expect(screen.queryByText('This account is closed.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign-In' })).toHaveAttribute('href', '/login');
  });

  it.each([
    [400, { error: 'This account is not locked.', code: 400 }, UNLOCK_RECEIVED],
    [500, { error: 'Internal server error', code: 500 }, UNLOCK_RECEIVED],
    [401, { error: 'Unlock request cannot be submitted at this time.', code: 401 }, UNLOCK_UNABLE],
    [409, { error: 'Something else went wrong.', code: 409 }, 'Something else went wrong.'],
  ])('an answer %i shows the view of spec section 4', async (status, body, text) => {
    fakeServer({ 'POST /mail/verifywithbotchallenge': {}, 'POST /accounts/verifyrequestisvalid': {}, 'POST /requests/unlock': { status, body } });
    const user = userEvent.setup();
    const { container } = renderPage(<RequestUnlockPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    await user.type(await screen.findByRole('textbox', { name: 'Reason' }), 'Locked out.');
    await user.click(screen.getByRole('button', { name: 'Submit Unlock Request' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });
});

describe('generate website token', () => {
  it('shows the new token once, then Copy and Back to Sign-In; Generate is disabled', async () => {
    fakeServer({ 'POST /mail/verifywithbotchallenge': {}, 'POST /accounts/verifyrequestisvalid': {}, 'POST /accounts/credentials/reset': { body: { ok: 'new-token-value' } } });
    const user = userEvent.setup();
    const { container } = renderPage(<ResetWebsiteTokenPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    expect(await screen.findByText(/a new one invalidates|invalidates your current one/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByTestId('new-token')).toHaveTextContent('new-token-value');
    expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Back to Sign-In' })).toHaveAttribute('href', '/login');
  });

  it(`a failure without a message shows '${TOKEN_FAILED}'`, async () => {
    fakeServer({ 'POST /mail/verifywithbotchallenge': {}, 'POST /accounts/verifyrequestisvalid': {}, 'POST /accounts/credentials/reset': { body: {} } });
    const user = userEvent.setup();
    const { container } = renderPage(<ResetWebsiteTokenPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    await user.click(await screen.findByRole('button', { name: 'Generate' }));
    expect(await screen.findByText(TOKEN_FAILED)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
  });
});

describe('register CAC', () => {
  it('goes to /login without smart-card support', () => {
    configure({ cac_support: false });
    renderPage(<RegisterCacPage />, { path: '/register-cac', entries: ['/register-cac'] });
    expect(screen.getByTestId('landed')).toHaveTextContent('/login');
  });

  it.each([
    [true, CAC_REGISTERED],
    [false, CAC_REQUESTED],
  ])('with automatic approval %s says %s', async (auto, text) => {
    configure({ cac_support: true, auto_cert_registration_approval: auto });
    const { calls } = fakeServer({ 'POST /mail/verifywithbotchallenge': {}, 'POST /accounts/verifyrequestisvalid': {}, 'POST /cert/requests/authchange/token': { body: { ok: true, code: 200, approved: auto } } });
    const user = userEvent.setup();
    const { container } = renderPage(<RegisterCacPage />, { path: '/x', entries: ['/x'] });
    await verify(container, user);
    await user.click(await screen.findByRole('button', { name: 'Register CAC' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/cert/requests/authchange/token')?.body).toEqual({ email: 'jane.doe@agency.example', reason: 'Reason optional' });
  });
});

describe('sign up for an account', () => {
  const fill = async (user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) => {
    // Whole values at once: typing a long form key by key is slow, and the rules see the same value.
    for (const [name, value] of Object.entries(values)) fireEvent.change(field(name), { target: { value } });
    await user.tab();
  };
  const good = {
    'First name': 'Jane',
    'Last name': "O'Neil",
    Username: 'jane.oneil',
    'Business phone': '+1 555 010 0000',
    Email: 'jane.oneil@agency.example',
    'Confirm email': 'jane.oneil@agency.example',
    Street: '1 Main St',
    City: 'Springfield',
    State: 'VA',
    'Postal code': '22150',
    Country: 'USA',
    'Company or government office symbol': 'ACME',
    Project: 'Apollo',
    'Supervisor first name': 'Sam',
    'Supervisor last name': 'Boss',
    'Supervisor email': 'sam.boss@agency.example',
    'Supervisor phone': '555-010-0001',
    'Reason for account': 'Develop the Apollo flight software.',
  };

  it('stops the reason for the account at 150 characters, a reason box', async () => {
    fakeServer({});
    renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    expect(field('Reason for account')).toHaveAttribute('maxlength', '150');
  });

  it('shows every required message after submit, and nothing before', async () => {
    const { calls } = fakeServer({});
    const user = userEvent.setup();
    renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    expect(screen.queryByText('Please enter your first name')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    for (const message of [
      'Please enter your first name',
      'Please enter your last name',
      'Please enter a username',
      'Please enter an email address',
      'Please confirm your email address',
      'Please enter a phone number',
      'Please enter a street address',
      'Please enter a city',
      'Please enter a state',
      'Please enter a postal code',
      'Please enter a country',
      'Please enter a company or government symbol',
      'Please enter a project',
      'Please enter a reason',
      "Please enter your supervisor's first name",
      "Please enter your supervisor's last name",
      "Please enter your supervisor's email address",
      "Please enter your supervisor's phone number",
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(calls.filter((c) => c.path.startsWith('/requests'))).toHaveLength(0);
  });

  it("the username's recommendation is help under the field, read out with it (in the label it pushed the field out of line)", () => {
    fakeServer({});
    renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    expect(field('Username')).toHaveAccessibleDescription('firstname.lastname recommended');
  });

  it('answers bad input with the rules of section 5', async () => {
    fakeServer({});
    const user = userEvent.setup();
    renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    await fill(user, {
      'First name': 'J4ne',
      Username: 'jane@x',
      Email: 'jane@',
      'Business phone': 'call me',
      'Confirm email': 'other@agency.example',
      City: 'X',
    });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Must have only alphabetical characters')).toBeInTheDocument();
    expect(screen.getByText('Please avoid using email as username')).toBeInTheDocument();
    expect(screen.getByText('Email address is invalid')).toBeInTheDocument();
    expect(screen.getByText('Invalid phone')).toBeInTheDocument();
    expect(screen.getByText('Email does not match')).toBeInTheDocument();
    expect(screen.getByText('Must be at least 2 characters')).toBeInTheDocument();
    await fill(user, { Username: '1jane' });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Username must not start with a number')).toBeInTheDocument();
    await fill(user, { Username: 'jane!doe' });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Must have only alphanumeric characters including . - and _')).toBeInTheDocument();
    await fill(user, { Username: 'a'.repeat(21) });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Must be less than 20 characters (21/20)')).toBeInTheDocument();
  });

  it("shows the server's answer beside its field, then succeeds", async () => {
    const { calls } = fakeServer({
      'POST /requests/new': [
        { status: 409, body: { error: 'This username is already taken.', code: 409, fields: { username: 'This username is already taken.' } } },
        { body: { ok: true, code: 200, id: 7 } },
      ],
    });
    const user = userEvent.setup();
    const { container } = renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    await fill(user, good);
    solveChallenge(container);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    const username = field('Username');
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'), { timeout: 5000 });
    expect(screen.getByText('This username is already taken.')).toBeInTheDocument();
    await fill(user, { Username: 'jane.oneil2' });
    solveChallenge(container, 'second');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByRole('heading', { name: SUBMISSION_SUCCESS })).toBeInTheDocument();
    // Once: the page's title, not also the result's.
    expect(screen.getAllByText(SUBMISSION_SUCCESS)).toHaveLength(1);
    expect(screen.getByText('Your account request has been received.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign-In' })).toHaveAttribute('href', '/login');
    const sent = calls.filter((c) => c.path === '/requests/new').pop();
    expect(sent?.body).toMatchObject({
      username: 'jane.oneil2',
      address: { street: '1 Main St', city: 'Springfield', state: 'VA', zip: '22150', country: 'USA' },
      supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@agency.example', phone: '555-010-0001' },
      reason: 'Develop the Apollo flight software.',
      botChallengeResponse: 'second',
    });
    expect(sent?.body).not.toHaveProperty('email_confirmation');
  });

  it('with smart-card support: CAC authentication goes to /cert/requests/new; an exception needs a sponsor, appended to the reason', async () => {
    configure({ cac_support: true });
    const { calls } = fakeServer({ 'POST /cert/requests/new': {}, 'POST /requests/new': {} });
    const user = userEvent.setup();
    const { container } = renderPage(<RequestAccountPage />, { path: '/x', entries: ['/x'] });
    expect(screen.getByText(/Insert your CAC before you continue/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /CAC exception/ }));
    await fill(user, good);
    solveChallenge(container);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await fill(user, { 'US Government sponsor email': 'nope' });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
    await fill(user, { 'US Government sponsor email': 'sponsor@agency.mil' });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByRole('heading', { name: SUBMISSION_SUCCESS })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/requests/new')?.body).toMatchObject({
      reason: 'Develop the Apollo flight software. [GOVT SPONSOR: sponsor@agency.mil]',
    });
    expect(calls.find((c) => c.path === '/cert/requests/new')).toBeUndefined();
  });

  it('the body puts the sponsor in the reason only for an exception', () => {
    expect(accountRequestBody({ reason: ' Work ', cac_choice: 'cac', sponsor_email: 'x@y.mil' }, 'p').reason).toBe('Work');
    expect(accountRequestBody({ reason: 'Work', cac_choice: 'exception', sponsor_email: ' x@y.mil ' }, 'p').reason).toBe('Work [GOVT SPONSOR: x@y.mil]');
  });
});
