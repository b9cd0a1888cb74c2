import { SEARCH_TERM_REQUIRED } from '@portal/api';
import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { sampleRow, sampleRows } from '../testing/samples';
import { DENIED_SEARCH_LABEL, DeniedRequestsPage, NO_DENIED_REQUESTS } from './DeniedRequestsPage';

jest.setTimeout(20_000);

const SEARCH = 'POST /requests/search-denied';
const open = (url = '/list-denied-account-requests') =>
  renderPage(<DeniedRequestsPage />, { path: '/list-denied-account-requests', entries: [url] });

async function search(term: string) {
  fireEvent.change(screen.getByLabelText(DENIED_SEARCH_LABEL), { target: { value: term } });
  fireEvent.click(await screen.findByRole('button', { name: 'Search' }));
}

beforeEach(() => {
  configure();
  signIn('adjudicator', ['LIST_NEW_ACCOUNT_REQUESTS', 'VIEW_NEW_ACCOUNT_REQUEST']);
});

describe('/list-denied-account-requests', () => {
  it('searches only with a non-empty trimmed term', async () => {
    const server = fakeServer({});
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Denied Account Requests' })).toBeInTheDocument();
    await search('  ');
    expect(await screen.findByText(SEARCH_TERM_REQUIRED)).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it('lists what it finds in the queue layout, with details at /list-denied-account-requests/{id}', async () => {
    const server = fakeServer({ [SEARCH]: { body: { rows: [sampleRow({ status: 'denied' })], has_more_results: false } } });
    open();
    await search(' jane ');
    const link = await screen.findByRole('link', { name: '[details]' });
    expect(link).toHaveAttribute('href', '/list-denied-account-requests/12');
    expect(server.called(SEARCH).map((c) => c.body)).toEqual([{ term: 'jane', start_index: 0, max_results: 30 }]);
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'ID',
      'Details',
      'Requested Username',
      'First Name',
      'Last Name',
      'Email',
      'Status',
      'Created',
      'Updated',
    ]);
    expect(within(table).getByText('Denied')).toBeInTheDocument();
    fireEvent.click(link);
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/list-denied-account-requests\/12$/);
    expect(JSON.parse(screen.getByTestId('landed-state').textContent ?? 'null')).toEqual({ from: '/list-denied-account-requests?term=jane&start=0' });
  });

  it('hides the details link without VIEW_NEW_ACCOUNT_REQUEST', async () => {
    signIn('adjudicator', ['LIST_NEW_ACCOUNT_REQUESTS']);
    fakeServer({ [SEARCH]: { body: { rows: [sampleRow({ status: 'denied' })], has_more_results: false } } });
    open();
    await search('jane');
    expect(await screen.findByText('jane.doe')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '[details]' })).not.toBeInTheDocument();
  });

  it('pages by 30', async () => {
    const server = fakeServer({
      [SEARCH]: (call) =>
        (call.body as { start_index: number }).start_index === 0
          ? { body: { rows: sampleRows(30, 1, { status: 'denied' }), has_more_results: true } }
          : { body: { rows: sampleRows(1, 31, { status: 'denied' }), has_more_results: false } },
    });
    open();
    await search('user');
    expect(await screen.findByText('user1')).toBeInTheDocument();
    screen.getAllByRole('button', { name: 'Previous' }).forEach((b) => expect(b).toBeDisabled());
    fireEvent.click(screen.getAllByRole('button', { name: 'Next' })[0] as HTMLElement);
    expect(await screen.findByText('user31')).toBeInTheDocument();
    expect(server.called(SEARCH).at(-1)?.body).toEqual({ term: 'user', start_index: 30, max_results: 30 });
    screen.getAllByRole('button', { name: 'Next' }).forEach((b) => expect(b).toBeDisabled());
  });

  it("says 'No denied requests found.' when nothing matches", async () => {
    fakeServer({ [SEARCH]: { body: { rows: [], has_more_results: false } } });
    open('/list-denied-account-requests?term=nobody&start=0');
    expect(await screen.findByText(NO_DENIED_REQUESTS)).toBeInTheDocument();
  });
});
