import { type Certificate, RULE_MESSAGES } from '@portal/api';
import { MESSAGES } from '@portal/shared';
import { adjudicationFailureText, CONFIRM_APPROVAL } from '@portal/shared/components';
import { NOT_PROVIDED, type KindConfig } from '@portal/shared/requests';
import { configure, detailAnswer, fakeServer, openRequest, requestDetails as details, signIn, valueOf, type FakeAnswer } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { InitialEntry } from 'react-router-dom';
import { authChangeRequest, emailChangeRequest, newAccountRequest, unlockRequest } from '../testing/samples';
import { DENIED, FEEDBACK, KINDS } from './kinds';

jest.setTimeout(20_000);

const CONTACT = 'web@example.test';

const open = (config: KindConfig, entries?: InitialEntry[], title?: string) => openRequest(config, entries, title);
const button = (name: string) => screen.getByRole('button', { name });
const comment = () => screen.getByLabelText('Comment');
const type = (text: string) => fireEvent.change(comment(), { target: { value: text } });

beforeEach(() => {
  configure({ email_domain: 'example.test', cac_support: true });
  signIn('adjudicator', ['VIEW_NEW_ACCOUNT_REQUEST', 'ADJUDICATE_NEW_ACCOUNT_REQUEST']);
});

describe('a new account request', () => {
  const certificate: Certificate = {
    issued_to: { common_name: 'DOE.JANE.1234567890', organization: 'U.S. Government', organizational_unit: ['DoD'], country: 'US' },
    issued_by: { common_name: 'DOD ID CA-59', organization: 'U.S. Government', organizational_unit: ['PKI'], country: 'US' },
    valid_from: '2025-01-02T08:00:00',
    valid_until: '2028-01-01T23:59:00',
    country_of_citizenship: 'US',
  };

  it('shows what the request says, its updates and the decision panel', async () => {
    const server = fakeServer({
      'GET /requests/new/12': detailAnswer(
        newAccountRequest({
          cac_eligible: true,
          certificate,
          supervisor: { first_name: 'Sam', last_name: '', email: 'sam.boss@example.test', phone: '' },
          updates: [
            { status: 'pending', username: 'jane.doe', created: '2026-03-03T16:05:00', comment: 'Request submitted.' },
            { status: 'incomplete', username: 'adjudicator', created: '2026-03-04T09:30:00', comment: '[Warning] The supervisor is not known.' },
          ],
        }),
      ),
    });
    open(KINDS.new);
    expect(screen.getByRole('heading', { level: 2, name: 'New Account Request' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Name')).toBe('Jane Doe');
    expect(valueOf(details(), 'Username')).toBe('jane.doe');
    expect(valueOf(details(), 'Email')).toBe('jane.doe@example.test');
    expect(valueOf(details(), 'Phone')).toBe('555-123-4567');
    expect(valueOf(details(), 'Address')).toBe('1 Main StSpringfield, VA 22150USA');
    expect(valueOf(details(), 'Company / office symbol')).toBe('ACME');
    expect(valueOf(details(), 'Project')).toBe('Portal');
    expect(valueOf(details(), 'Reason for account')).toBe('Builds the portal.');
    expect(valueOf(details(), 'Supervisor first name')).toBe('Sam');
    expect(valueOf(details(), 'Supervisor last name')).toBe(NOT_PROVIDED);
    expect(valueOf(details(), 'Supervisor email')).toBe('sam.boss@example.test');
    expect(valueOf(details(), 'Supervisor phone')).toBe(NOT_PROVIDED);
    expect(valueOf(details(), 'CAC eligible')).toBe('Yes');
    expect(valueOf(details(), 'Status')).toBe('Pending');
    expect(valueOf(details(), 'Created')).toBe('Tue Mar 3 2026 4:05 PM');

    const certificatePanel = screen.getByRole('region', { name: 'Certificate Details' });
    expect(within(certificatePanel).getByText('DOE.JANE.1234567890')).toBeInTheDocument();

    const updates = within(screen.getByRole('region', { name: 'Updates' })).getByRole('table');
    expect(within(updates).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Status', 'Username', 'Created', 'Comment']);
    expect(within(updates).getByText('Request submitted.')).not.toHaveClass('ant-typography-warning');
    const warning = within(updates).getByText('[Warning] The supervisor is not known.');
    expect(warning.tagName).toBe('STRONG');
    expect(warning.closest('.ant-typography')).toHaveClass('ant-typography-warning');

    const decision = screen.getByRole('region', { name: 'Decision' });
    expect(within(decision).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve New Account', 'Deny New Account', 'Request More Information']);
    expect(within(decision).getByText('0 / 1000')).toBeInTheDocument();
    expect(comment()).toHaveAttribute('maxlength', '1000');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /requests/new/12']);
  });

  it('shows the CAC eligibility only with smart-card support, and no certificate when none is kept', async () => {
    configure({ email_domain: 'example.test', cac_support: false });
    fakeServer({ 'GET /requests/new/12': detailAnswer(newAccountRequest()) });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(within(details()).queryByText('CAC eligible')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Certificate Details' })).not.toBeInTheDocument();
  });

  it('asks before approving; Cancel sends nothing; Approve sends the comment and returns to the list', async () => {
    const server = fakeServer({
      'GET /requests/new/12': detailAnswer(newAccountRequest()),
      'POST /requests/new/12/approved': detailAnswer(newAccountRequest({ status: 'approved', decisions: [] })),
    });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Decision' });
    type('  Welcome aboard.  ');

    fireEvent.click(button('Approve New Account'));
    let dialog = await screen.findByRole('dialog', { name: CONFIRM_APPROVAL });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.called('POST /requests/new/12/approved')).toHaveLength(0);
    await waitFor(() => expect(button('Approve New Account')).toBeEnabled());

    fireEvent.click(button('Approve New Account'));
    dialog = await screen.findByRole('dialog', { name: CONFIRM_APPROVAL });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-account-requests$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^New account request APPROVED for Jane Doe$/);
    expect(server.called('POST /requests/new/12/approved').map((c) => c.body)).toEqual([{ comment: 'Welcome aboard.' }]);
  });

  it('denies at once, without a modal, with the buttons disabled while it runs', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const server = fakeServer({
      'GET /requests/new/12': detailAnswer(newAccountRequest()),
      'POST /requests/new/12/denied': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Decision' });
    fireEvent.click(button('Deny New Account'));
    await waitFor(() => expect(server.called('POST /requests/new/12/denied')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button('Approve New Account')).toBeDisabled();
    expect(button('Request More Information')).toBeDisabled();
    expect(server.called('POST /requests/new/12/denied')[0]?.body).toEqual({ comment: '' });
    answer(detailAnswer(newAccountRequest({ status: 'denied' })));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-account-requests$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^New account request DENIED for Jane Doe$/);
  });

  it('wants a comment for more information, and sends nothing without one', async () => {
    const server = fakeServer({
      'GET /requests/new/12': detailAnswer(newAccountRequest()),
      'POST /requests/new/12/incomplete': detailAnswer(newAccountRequest({ status: 'incomplete' })),
    });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Decision' });
    type('   ');
    fireEvent.click(button('Request More Information'));
    expect(await screen.findByText(RULE_MESSAGES.commentNeeded)).toBeInTheDocument();
    expect(comment()).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    type('Who is your supervisor?');
    fireEvent.click(button('Request More Information'));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-account-requests$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^'Additional info needed' request sent$/);
    expect(server.called('POST /requests/new/12/incomplete')[0]?.body).toEqual({ comment: 'Who is your supervisor?' });
  });

  it('hides Deny on a denied request', async () => {
    fakeServer({ 'GET /requests/new/12': detailAnswer(newAccountRequest({ status: 'denied', decisions: ['approved', 'incomplete'] })) });
    open(KINDS.new);
    const decision = await screen.findByRole('region', { name: 'Decision' });
    expect(within(decision).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve New Account', 'Request More Information']);
  });

  it('shows no decision panel when the caller may decide nothing', async () => {
    fakeServer({ 'GET /requests/new/12': detailAnswer(newAccountRequest({ decisions: [] })) });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(screen.queryByRole('region', { name: 'Decision' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve|Deny/ })).not.toBeInTheDocument();
  });

  it('says whom to contact when a decision fails, and keeps the comment', async () => {
    fakeServer({
      'GET /requests/new/12': detailAnswer(newAccountRequest()),
      'POST /requests/new/12/denied': { status: 409, body: { error: 'This request is already denied.', code: 409 } },
    });
    open(KINDS.new);
    await screen.findByRole('region', { name: 'Decision' });
    type('Not a government user.');
    fireEvent.click(button('Deny New Account'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`This request is already denied. If the problem persists, contact ${CONTACT}`);
    expect(alert.textContent).toBe(adjudicationFailureText('This request is already denied.', CONTACT));
    expect(within(alert).getByRole('link', { name: CONTACT })).toHaveAttribute('href', `mailto:${CONTACT}`);
    expect(comment()).toHaveValue('Not a government user.');
    expect(button('Deny New Account')).toBeEnabled();
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('shows the not-found view for an unknown request, at the same URL', async () => {
    fakeServer({ 'GET /requests/new/99': { status: 404, body: { error: 'Request not found.', code: 404 } } });
    open(KINDS.new, ['/list-account-requests/99']);
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Not Found' })).toBeInTheDocument();
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('shows the not-found view for an id that is not a whole number, asking nothing, never "params/id must be integer"', async () => {
    const server = fakeServer({ 'GET /requests/new/abc': { status: 400, body: { error: 'params/id must be integer', code: 400 } } });
    open(KINDS.new, ['/list-account-requests/abc']);
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.queryByText(/must be integer/)).not.toBeInTheDocument();
    expect(server.called('GET /requests/new/abc')).toHaveLength(0);
  });

  it('shows other load errors as the server says them', async () => {
    fakeServer({ 'GET /requests/new/12': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open(KINDS.new);
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(screen.getByRole('heading', { level: 2, name: 'New Account Request' })).toBeInTheDocument();
  });

  it('shows a denied request at /list-denied-account-requests/:id', async () => {
    fakeServer({ 'GET /requests/new/12': detailAnswer(newAccountRequest({ status: 'denied', decisions: ['approved', 'incomplete'] })) });
    open(KINDS.new, [DENIED.path, `${DENIED.path}/12`], DENIED.detailTitle);
    expect(screen.getByRole('heading', { level: 2, name: 'Denied Account Request' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Status')).toBe('Denied');
  });
});

describe('the other kinds', () => {
  beforeEach(() =>
    signIn('adjudicator', [
      'VIEW_EMAIL_CHANGE_REQUEST',
      'ADJUDICATE_EMAIL_CHANGE_REQUEST',
      'VIEW_AUTH_CHANGE_REQUEST',
      'ADJUDICATE_AUTH_CHANGE_REQUEST',
      'VIEW_UNLOCK_REQUEST',
      'ADJUDICATE_UNLOCK_REQUEST',
    ]),
  );

  it('email change: current and new email, the account; approval returns to where the adjudicator came from', async () => {
    const server = fakeServer({
      'GET /requests/profilechange/12': detailAnswer(emailChangeRequest()),
      'POST /requests/profilechange/12/approved': detailAnswer(emailChangeRequest({ status: 'approved', decisions: [] })),
    });
    open(KINDS.profilechange, [
      '/list-email-change-requests?start=30',
      { pathname: '/list-email-change-requests/12', state: { from: '/list-email-change-requests?start=30' } },
    ]);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Current email')).toBe('jane.doe@example.test');
    expect(valueOf(details(), 'New email')).toBe('jane@new.example.test');
    expect(valueOf(details(), 'Reason')).toBe('Moved to a new team.');
    expect(screen.getByRole('region', { name: 'Account' })).toBeInTheDocument();
    const decision = screen.getByRole('region', { name: 'Decision' });
    expect(within(decision).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Deny']);
    expect(within(decision).getByText('0 / 150')).toBeInTheDocument();

    fireEvent.click(button('Approve'));
    fireEvent.click(within(await screen.findByRole('dialog', { name: CONFIRM_APPROVAL })).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-email-change-requests\?start=30$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Email change request approved\.$/);
    expect(server.called('POST /requests/profilechange/12/approved')[0]?.body).toEqual({ comment: '' });
  });

  it('email change: without where it came from, denial returns to the list', async () => {
    fakeServer({
      'GET /requests/profilechange/12': detailAnswer(emailChangeRequest()),
      'POST /requests/profilechange/12/denied': detailAnswer(emailChangeRequest({ status: 'denied' })),
    });
    open(KINDS.profilechange, ['/list-email-change-requests/12']);
    await screen.findByRole('region', { name: 'Decision' });
    fireEvent.click(button('Deny'));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-email-change-requests$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Email change request denied\.$/);
  });

  it('authentication change: the requested authentication and sponsor; denial returns to its list', async () => {
    fakeServer({
      'GET /requests/authchange/12': detailAnswer(authChangeRequest()),
      'POST /requests/authchange/12/denied': detailAnswer(authChangeRequest({ status: 'denied' })),
    });
    open(KINDS.authchange);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Requested authentication')).toBe('Website token');
    expect(valueOf(details(), 'Government sponsor')).toBe('sponsor@example.mil');
    expect(screen.getByRole('region', { name: 'Account' })).toBeInTheDocument();
    fireEvent.click(button('Deny'));
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-authentication-change-requests$/);
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Authentication Change Request denied\.$/);
  });

  it('authentication change: approval says so', async () => {
    fakeServer({
      'GET /requests/authchange/12': detailAnswer(authChangeRequest()),
      'POST /requests/authchange/12/approved': detailAnswer(authChangeRequest({ status: 'approved' })),
    });
    open(KINDS.authchange);
    await screen.findByRole('region', { name: 'Decision' });
    fireEvent.click(button('Approve'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(/^Authentication Change Request approved\.$/);
    expect(screen.getByTestId('landed')).toHaveTextContent(/^\/list-authentication-change-requests$/);
  });

  it('unlock: the username, reason and account; approval and denial name the user', async () => {
    const server = fakeServer({
      'GET /requests/unlock/12': detailAnswer(unlockRequest()),
      'POST /requests/unlock/12/approved': detailAnswer(unlockRequest({ status: 'approved' })),
      'POST /requests/unlock/12/denied': detailAnswer(unlockRequest({ status: 'denied' })),
    });
    const first = open(KINDS.unlock);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Username')).toBe('jane.doe');
    expect(valueOf(details(), 'Reason')).toBe('Forgot my token.');
    expect(within(screen.getByRole('region', { name: 'Account' })).getByText('Locked')).toBeInTheDocument();
    fireEvent.click(button('Approve'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(FEEDBACK.unlockApproved('jane.doe'));
    expect(screen.getByTestId('feedback')).toHaveTextContent(/^Account unlocked for jane\.doe\.$/);
    expect(screen.getByTestId('landed')).toHaveTextContent(/^\/list-unlock-account-requests$/);
    first.unmount();

    open(KINDS.unlock);
    await screen.findByRole('region', { name: 'Decision' });
    fireEvent.click(button('Deny'));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(/^Unlock account request for jane\.doe denied\.$/);
    expect(server.called('POST /requests/unlock/12/denied')).toHaveLength(1);
  });
});
