import { adjudicationPages, listPermission, queuedKinds } from '@portal/api';
import { configure, declaredRequestKinds, describeRemoteContract, fakeServer, renderPage, signIn, workspaceRemotes } from '@portal/shared/testing';
import { screen } from '@testing-library/react';
import { navigation } from './navigation';
import remote from './routes';

describeRemoteContract(remote);

describe('remote adjudication: its routes', () => {
  it('keeps the paths, titles and permissions of the route table', () => {
    const table = remote.routes.map((r) => [r.path, r.title, r.access.kind === 'permission' ? r.access.permission : r.access.kind]);
    expect(table).toEqual([
      ['manage-accounts', 'Search Accounts', 'SEARCH_ACCOUNTS'],
      ['manage-accounts/:username', 'Account Administration', 'VIEW_ACCOUNT'],
      ['list-account-requests', 'New Account Requests', 'LIST_NEW_ACCOUNT_REQUESTS'],
      ['list-account-requests/:requestId', 'New Account Request', 'VIEW_NEW_ACCOUNT_REQUEST'],
      ['list-authentication-change-requests', 'Authentication Change Requests', 'LIST_AUTH_CHANGE_REQUESTS'],
      ['list-authentication-change-requests/:requestId', 'Authentication Change Request', 'VIEW_AUTH_CHANGE_REQUEST'],
      ['list-email-change-requests', 'Email Change Requests', 'LIST_EMAIL_CHANGE_REQUESTS'],
      ['list-email-change-requests/:requestId', 'Email Change Request', 'VIEW_EMAIL_CHANGE_REQUEST'],
      ['list-unlock-account-requests', 'Unlock Account Requests', 'LIST_UNLOCK_REQUESTS'],
      ['list-unlock-account-requests/:requestId', 'Unlock Account Request', 'VIEW_UNLOCK_REQUEST'],
      ['list-denied-account-requests', 'Denied Account Requests', 'LIST_NEW_ACCOUNT_REQUESTS'],
      ['list-denied-account-requests/:requestId', 'Denied Account Request', 'VIEW_NEW_ACCOUNT_REQUEST'],
      ['provisioning', 'Provisioning', 'MANAGE_PROVISIONING'],
    ]);
  });
});

describe('the queues in the sidebar (host contract 2.0): this remote declares the account kinds\', their remotes the others\'', () => {
  /** Every remote's entries: remote-groups and remote-mailing-lists declare their kinds' queues. */
  const everyRemote = workspaceRemotes().flatMap((declared) => declared.navigation);

  it("declares, across the remotes, a queue for each counted request kind, at each kind's declared path and permission, with its count (spec section 2)", () => {
    const byPath = (a: { path?: string }, b: { path?: string }) => String(a.path).localeCompare(String(b.path));
    const queues = everyRemote
      .filter((entry) => entry.count !== undefined)
      .map(({ section, path, permission, count, when }) => ({ section, path, permission, count, when }))
      .sort(byPath);
    const expected = queuedKinds(declaredRequestKinds()).map((kind) => ({
      section: 'manage-accounts',
      path: kind.queue.path,
      permission: listPermission(kind),
      count: `total_${kind.kind}`,
      when: kind.queue.smartCardsOnly ? 'smart-cards' : undefined,
    })).sort(byPath);
    expect(queues).toEqual(expected);
  });

  it('lists Manage Accounts in the order of spec section 2: the search, the account requests and their denied search, then the other queues', () => {
    const block = everyRemote.filter((entry) => entry.section === 'manage-accounts').sort((a, b) => a.order - b.order);
    expect(block.map((entry) => entry.label)).toEqual([
      'Search Accounts',
      'Account Requests',
      'Denied Account Requests',
      'Authentication Change Requests',
      'Email Change Requests',
      'Mailing List Requests',
      'User Group Requests',
      'Unlock Account Requests',
    ]);
    expect(block[2]?.path).toBe(adjudicationPages.deniedRequests.pattern);
  });

  it('declares its own queues only', () => {
    expect(navigation.filter((entry) => entry.count !== undefined).map((entry) => entry.count)).toEqual(['total_new', 'total_authchange', 'total_profilechange', 'total_unlock']);
  });
});

describe('the authentication-change queue (spec section 2: CAC support only)', () => {
  const pageAt = (path: string) => {
    const found = remote.routes.find((r) => r.path === path);
    if (!found) throw new Error(`no route ${path}`);
    return found.Component;
  };

  beforeEach(() => signIn('adjudicator', ['LIST_AUTH_CHANGE_REQUESTS', 'VIEW_AUTH_CHANGE_REQUEST']));

  it.each(['list-authentication-change-requests', 'list-authentication-change-requests/:requestId'])('%s leads to /not-found without CAC support, asking the server nothing', async (path) => {
    configure({ cac_support: false });
    const server = fakeServer({});
    const Page = pageAt(path);
    renderPage(<Page />, { path: '/list-authentication-change-requests/*', entries: ['/list-authentication-change-requests/7'] });
    expect(await screen.findByTestId('landed')).toHaveTextContent('/not-found');
    expect(server.calls).toEqual([]);
  });

  it('shows the queue with CAC support', async () => {
    configure({ cac_support: true });
    fakeServer({ 'GET /requests/authchange?start_index=0&max_results=30': { body: { rows: [], has_more_results: false } } });
    const Page = pageAt('list-authentication-change-requests');
    renderPage(<Page />, { path: '/list-authentication-change-requests', entries: ['/list-authentication-change-requests'] });
    expect(await screen.findByRole('heading', { level: 2, name: 'Authentication Change Requests' })).toBeInTheDocument();
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });
});
