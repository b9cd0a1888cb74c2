import { fakeServer } from '@portal/shared/testing';
import { searchDeniedRequests } from './requests';

describe('the search of denied account requests', () => {
  it('sends the trimmed term and the page', async () => {
    const server = fakeServer({ 'POST /requests/search-denied': { body: { rows: [], has_more_results: true } } });
    await expect(searchDeniedRequests('  jane ', 0)).resolves.toEqual({ rows: [], has_more_results: true });
    expect(server.calls.map((c) => [c.method, c.path, c.body])).toEqual([['POST', '/requests/search-denied', { term: 'jane', start_index: 0, max_results: 30 }]]);
  });
});
