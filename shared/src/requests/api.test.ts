import { fakeServer } from '../fakeApi';
import { newAccountRequestKind } from '@portal/api/request-kinds/new-account';
import { userGroupRequestKind } from '@portal/api/request-kinds/user-group';
import { decideRequest, getRequest, listRequests } from './api';

describe("a queue's calls", () => {
  it('list a page of 30 from an index, get one request and decide it', async () => {
    const server = fakeServer({
      'GET /requests/new?start_index=30&max_results=30': { body: { rows: [], has_more_results: false } },
      'GET /requests/usergroup/7': { body: { id: 7, kind: 'usergroup' } },
      'POST /requests/new/7/incomplete': { body: { id: 7, kind: 'new', status: 'incomplete' } },
    });
    await expect(listRequests(newAccountRequestKind, 30)).resolves.toEqual({ rows: [], has_more_results: false });
    await expect(getRequest(userGroupRequestKind, 7)).resolves.toMatchObject({ id: 7 });
    await expect(decideRequest(newAccountRequestKind, 7, 'incomplete', 'Who is your supervisor?')).resolves.toMatchObject({ status: 'incomplete' });
    expect(server.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['GET', '/requests/new?start_index=30&max_results=30', undefined],
      ['GET', '/requests/usergroup/7', undefined],
      ['POST', '/requests/new/7/incomplete', { comment: 'Who is your supervisor?' }],
    ]);
  });

  it("passes the server's 404 on", async () => {
    fakeServer({ 'GET /requests/new/99': { status: 404, body: { error: 'Request not found.', code: 404 } } });
    await expect(getRequest(newAccountRequestKind, 99)).rejects.toMatchObject({ status: 404, message: 'Request not found.' });
  });
});
