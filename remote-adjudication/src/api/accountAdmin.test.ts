import { fakeServer } from '@portal/shared/testing';
import { accountHistoryUrl, closeAccount, lockAccount, searchAccounts, unlockAccount } from './accountAdmin';

describe('the account administration calls', () => {
  it('search from the start of words, 30 at a time, optionally within a group', async () => {
    const server = fakeServer({ 'POST /accounts/search': { body: { rows: [], has_more_results: false } } });
    await searchAccounts({ term: ' jane ', start_index: 60 });
    await searchAccounts({ term: 'bob', start_index: 0, group_id: 'PORTAL' });
    expect(server.calls.map((c) => c.body)).toEqual([
      { term: 'jane', starts_with: true, start_index: 60, max_results: 30 },
      { term: 'bob', starts_with: true, start_index: 0, max_results: 30, group_id: 'PORTAL' },
    ]);
  });

  it('lock, unlock and close with their reasons', async () => {
    const server = fakeServer({
      'POST /accounts/jane.doe/lock': { body: {} },
      'POST /accounts/jane.doe/unlock': { body: {} },
      'POST /requests/close': { body: {} },
    });
    await lockAccount('jane.doe', 'Suspicious.');
    await unlockAccount('jane.doe', '');
    await closeAccount('jane.doe', 'Left.');
    expect(server.calls.map((c) => [c.path, c.body])).toEqual([
      ['/accounts/jane.doe/lock', { comment: 'Suspicious.' }],
      ['/accounts/jane.doe/unlock', { comment: '' }],
      ['/requests/close', { username: 'jane.doe', reason: 'Left.' }],
    ]);
  });

  it('names the history export under /accounts/rest', () => {
    expect(accountHistoryUrl('jane.doe')).toBe('/accounts/rest/accounts/jane.doe/history.csv');
    expect(accountHistoryUrl('a/b')).toBe('/accounts/rest/accounts/a%2Fb/history.csv');
  });
});
