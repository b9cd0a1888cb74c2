import { MAX_SEARCH_TERM, SEARCH_TERM_REQUIRED } from '@portal/api';
import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { searchRow } from '../testing/samples';
import { NO_RESULTS, SEARCH_LABEL, SearchAccountsPage } from './SearchAccountsPage';

jest.setTimeout(20_000);

const SEARCH = 'POST /accounts/search';
const open = (url = '/manage-accounts') => renderPage(<SearchAccountsPage />, { path: '/manage-accounts', entries: [url] });
const box = () => screen.getByLabelText(SEARCH_LABEL);
/** Types the term and presses Search (once its spinner of a previous search has gone). */
async function search(term: string) {
  fireEvent.change(box(), { target: { value: term } });
  fireEvent.click(await screen.findByRole('button', { name: 'Search' }));
}
const rows = (n: number, first = 1) =>
  Array.from({ length: n }, (_, i) => searchRow({ username: `user${first + i}`, last_name: `Last${first + i}`, email: `user${first + i}@example.test` }));

beforeEach(() => {
  configure();
  signIn('helpdesk', ['SEARCH_ACCOUNTS', 'VIEW_ACCOUNT']);
});

describe('/manage-accounts', () => {
  it('searches only with a non-empty trimmed term', async () => {
    const server = fakeServer({});
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Search Accounts' })).toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Accounts' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(SEARCH_TERM_REQUIRED)).toBeInTheDocument();
    await search('   ');
    expect(await screen.findByText(SEARCH_TERM_REQUIRED)).toBeInTheDocument();
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls).toHaveLength(0);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('stops the box at 255 characters, and shows the server\'s refusal in its words', async () => {
    expect(MAX_SEARCH_TERM).toBe(255);
    fakeServer({
      [SEARCH]: { status: 400, body: { error: 'Search term: Must be less than 255 characters (300/255)', code: 400, fields: { term: 'Must be less than 255 characters (300/255)' } } },
    });
    open();
    expect(box()).toHaveAttribute('maxLength', '255');
    await search('a'.repeat(300));
    expect(await screen.findByRole('alert')).toHaveTextContent('Search term: Must be less than 255 characters (300/255)');
  });

  it('sends the search and shows the accounts; a username leads to its administration, saying where to come back to', async () => {
    const server = fakeServer({
      [SEARCH]: {
        body: {
          rows: [
            searchRow(),
            searchRow({ username: 'bob.locked', first_name: 'Bob', last_name: 'Locked', email: 'bob@example.test', active: false }),
            searchRow({ username: 'old.timer', first_name: 'Old', last_name: 'Timer', email: 'old@example.test', active: false, closed: true }),
          ],
          has_more_results: false,
        },
      },
    });
    open();
    await search('  jane doe ');
    await screen.findByRole('link', { name: 'jane.doe' });
    const table = screen.getByRole('table');
    expect(server.called(SEARCH).map((c) => c.body)).toEqual([{ term: 'jane doe', starts_with: true, start_index: 0, max_results: 30 }]);
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Last Name', 'First Name', 'Username', 'Email', 'Active']);
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((c) => c.textContent));
    expect(cells).toEqual([
      ['Doe', 'Jane', 'jane.doe', 'jane.doe@example.test', 'Yes'],
      ['Locked', 'Bob', 'bob.locked', 'bob@example.test', 'No'],
      ['Timer', 'Old', 'old.timer', 'old@example.test', 'Closed'],
    ]);
    const link = within(table).getByRole('link', { name: 'jane.doe' });
    expect(link).toHaveAttribute('href', '/manage-accounts/jane.doe');
    fireEvent.click(link);
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/manage-accounts\/jane\.doe$/);
    expect(JSON.parse(screen.getByTestId('landed-state').textContent ?? 'null')).toEqual({ from: '/manage-accounts?term=jane+doe&start=0' });
  });

  it('shows usernames as plain text without VIEW_ACCOUNT', async () => {
    signIn('helpdesk', ['SEARCH_ACCOUNTS']);
    fakeServer({ [SEARCH]: { body: { rows: [searchRow()], has_more_results: false } } });
    open();
    await search('jane');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('jane.doe')).toBeInTheDocument();
    expect(within(table).queryByRole('link')).not.toBeInTheDocument();
  });

  it('pages by 30: previous disabled at 0, next sends start_index 30 and is disabled without more results', async () => {
    const server = fakeServer({
      [SEARCH]: (call) => {
        const { start_index } = call.body as { start_index: number };
        return start_index === 0 ? { body: { rows: rows(30), has_more_results: true } } : { body: { rows: rows(3, 31), has_more_results: false } };
      },
    });
    open();
    await search('user');
    expect(await screen.findByText('user1')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Previous' })).toHaveLength(2);
    screen.getAllByRole('button', { name: 'Previous' }).forEach((b) => expect(b).toBeDisabled());
    screen.getAllByRole('button', { name: 'Next' }).forEach((b) => expect(b).toBeEnabled());

    fireEvent.click(screen.getAllByRole('button', { name: 'Next' })[0] as HTMLElement);
    expect(await screen.findByText('user31')).toBeInTheDocument();
    expect(server.called(SEARCH).map((c) => c.body)).toEqual([
      { term: 'user', starts_with: true, start_index: 0, max_results: 30 },
      { term: 'user', starts_with: true, start_index: 30, max_results: 30 },
    ]);
    screen.getAllByRole('button', { name: 'Next' }).forEach((b) => expect(b).toBeDisabled());
    screen.getAllByRole('button', { name: 'Previous' }).forEach((b) => expect(b).toBeEnabled());

    fireEvent.click(screen.getAllByRole('button', { name: 'Previous' })[1] as HTMLElement);
    expect(await screen.findByText('user1')).toBeInTheDocument();
    expect(server.called(SEARCH).at(-1)?.body).toMatchObject({ start_index: 0 });
  });

  it('restores the search from the URL (Back and reload)', async () => {
    const server = fakeServer({ [SEARCH]: { body: { rows: rows(2, 31), has_more_results: false } } });
    open('/manage-accounts?term=user&start=30');
    expect(await screen.findByText('user31')).toBeInTheDocument();
    expect(box()).toHaveValue('user');
    expect(server.called(SEARCH).map((c) => c.body)).toEqual([{ term: 'user', starts_with: true, start_index: 30, max_results: 30 }]);
  });

  it("says 'No results found.' when nothing matches, and searches again on the same term", async () => {
    const server = fakeServer({ [SEARCH]: { body: { rows: [], has_more_results: false } } });
    open();
    await search('nobody');
    expect(await screen.findByText(NO_RESULTS)).toBeInTheDocument();
    await search('nobody');
    await waitFor(() => expect(server.called(SEARCH)).toHaveLength(2));
  });

  it('shows the search error in red', async () => {
    fakeServer({ [SEARCH]: { status: 400, body: { error: 'Please enter a search term.', code: 400 } } });
    open();
    await search('x');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please enter a search term.');
    expect(alert).toHaveClass('ant-alert-error');
  });
});
