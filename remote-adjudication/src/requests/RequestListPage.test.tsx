import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleRow, sampleRows } from '../testing/samples';
import { NO_OPEN_REQUESTS, requestListPage, type KindConfig } from '@portal/shared/requests';
import { KINDS } from './kinds';

jest.setTimeout(20_000);

const LIST = (kind: string, start = 0) => `GET /requests/${kind}?start_index=${start}&max_results=30`;

function open(config: KindConfig, url = config.listPath) {
  const Page = requestListPage(config);
  return renderPage(<Page />, { path: config.listPath, entries: [url] });
}

const headers = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((h) => h.textContent);
const dataRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

beforeEach(() => {
  configure();
  signIn('adjudicator', ['LIST_NEW_ACCOUNT_REQUESTS', 'VIEW_NEW_ACCOUNT_REQUEST', 'LIST_EMAIL_CHANGE_REQUESTS', 'VIEW_EMAIL_CHANGE_REQUEST']);
});

describe('a request queue', () => {
  it('lists the new account requests with their details links', async () => {
    const server = fakeServer({ [LIST('new')]: { body: { rows: [sampleRow()], has_more_results: false } } });
    open(KINDS.new);
    expect(screen.getByRole('heading', { level: 2, name: 'New Account Requests' })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: '[details]' });
    expect(link).toHaveAttribute('href', '/list-account-requests/12');
    const table = screen.getByRole('table');
    expect(headers(table)).toEqual(['ID', 'Details', 'Requested Username', 'First Name', 'Last Name', 'Email', 'Status', 'Created', 'Updated']);
    expect(within(dataRows(table)[0] as HTMLElement).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '12',
      '[details]',
      'jane.doe',
      'Jane',
      'Doe',
      'jane.doe@example.test',
      'Pending',
      'Tue Mar 3 2026 4:05 PM',
      'Wed Mar 4 2026 9:30 AM',
    ]);
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([LIST('new')]);
  });

  it('shows no details link without the kind’s view permission', async () => {
    signIn('adjudicator', ['LIST_NEW_ACCOUNT_REQUESTS', 'VIEW_AUTH_CHANGE_REQUEST']);
    fakeServer({ [LIST('new')]: { body: { rows: [sampleRow()], has_more_results: false } } });
    open(KINDS.new);
    expect(await screen.findByText('jane.doe')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '[details]' })).not.toBeInTheDocument();
    expect(headers(screen.getByRole('table'))).not.toContain('Details');
  });

  it('shows the username for email change, authentication change and unlock requests', async () => {
    fakeServer({
      [LIST('profilechange')]: { body: { rows: [sampleRow({ kind: 'profilechange', identifier: 'jane@new.example.test' })], has_more_results: false } },
      [LIST('authchange')]: { body: { rows: [sampleRow({ kind: 'authchange', identifier: 'token' })], has_more_results: false } },
      [LIST('unlock')]: { body: { rows: [sampleRow({ kind: 'unlock' })], has_more_results: false } },
    });
    const email = open(KINDS.profilechange);
    expect(await screen.findByText('jane@new.example.test')).toBeInTheDocument();
    expect(headers(screen.getByRole('table'))).toEqual(['ID', 'Details', 'New Email', 'First Name', 'Last Name', 'Email', 'Username', 'Status', 'Created', 'Updated']);
    expect(screen.getByRole('link', { name: '[details]' })).toHaveAttribute('href', '/list-email-change-requests/12');
    email.unmount();

    const auth = open(KINDS.authchange);
    expect(await screen.findByText('Website token')).toBeInTheDocument();
    expect(headers(screen.getByRole('table'))).toEqual(['ID', 'Requested Authentication', 'First Name', 'Last Name', 'Email', 'Username', 'Status', 'Created', 'Updated']);
    auth.unmount();

    const unlock = open(KINDS.unlock);
    expect(await screen.findByText('jane.doe')).toBeInTheDocument();
    // The identifier of an unlock request is the username: one column shows it.
    expect(headers(screen.getByRole('table'))).toEqual(['ID', 'First Name', 'Last Name', 'Email', 'Username', 'Status', 'Created', 'Updated']);
    unlock.unmount();
  });

  it('pages by 30 with Previous and Next above and below the table', async () => {
    const server = fakeServer({
      [LIST('new')]: { body: { rows: sampleRows(30, 1), has_more_results: true } },
      [LIST('new', 30)]: { body: { rows: sampleRows(5, 31), has_more_results: false } },
    });
    open(KINDS.new);
    expect(await screen.findByText('user1')).toBeInTheDocument();
    const previous = screen.getAllByRole('button', { name: 'Previous' });
    const next = screen.getAllByRole('button', { name: 'Next' });
    expect(previous).toHaveLength(2);
    expect(next).toHaveLength(2);
    previous.forEach((b) => expect(b).toBeDisabled());
    next.forEach((b) => expect(b).toBeEnabled());
    expect(screen.getByRole('navigation', { name: 'Result pages, top' })).toHaveTextContent('Results 1–30');

    fireEvent.click(next[1] as HTMLElement);
    expect(await screen.findByText('user31')).toBeInTheDocument();
    expect(server.called(LIST('new', 30))).toHaveLength(1);
    screen.getAllByRole('button', { name: 'Next' }).forEach((b) => expect(b).toBeDisabled());
    screen.getAllByRole('button', { name: 'Previous' }).forEach((b) => expect(b).toBeEnabled());
    expect(screen.getByRole('navigation', { name: 'Result pages, bottom' })).toHaveTextContent('Results 31–35');

    fireEvent.click(screen.getAllByRole('button', { name: 'Previous' })[0] as HTMLElement);
    expect(await screen.findByText('user1')).toBeInTheDocument();
    expect(server.called(LIST('new'))).toHaveLength(2);
  });

  it('opens at the page in the URL (Back and reload keep the page)', async () => {
    const server = fakeServer({ [LIST('new', 60)]: { body: { rows: sampleRows(2, 61), has_more_results: false } } });
    open(KINDS.new, '/list-account-requests?start=60');
    expect(await screen.findByText('user61')).toBeInTheDocument();
    expect(server.calls.map((c) => c.path)).toEqual(['/requests/new?start_index=60&max_results=30']);
  });

  it('says when no request is open', async () => {
    fakeServer({ [LIST('profilechange')]: { body: { rows: [], has_more_results: false } } });
    open(KINDS.profilechange);
    expect(await screen.findByText(NO_OPEN_REQUESTS)).toBeInTheDocument();
    screen.getAllByRole('button', { name: /Previous|Next/ }).forEach((b) => expect(b).toBeDisabled());
  });

  it("shows the server's error when the list cannot be loaded", async () => {
    fakeServer({ [LIST('new')]: { status: 403, body: { error: 'You are not allowed to do that.', code: 403 } } });
    open(KINDS.new);
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do that.');
    await waitFor(() => expect(screen.queryByRole('table')).not.toBeInTheDocument());
  });
});
