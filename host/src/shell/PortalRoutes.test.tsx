/**
 * The host's routing through the real router: a remote's route renders inside the chrome; a
 * remote that fails to load shows the unavailable panel and Retry recovers it; other remotes and
 * the host's own pages keep working. The module federation runtime is faked at its boundary.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { DEFAULT_CONFIGURATION, DEFAULT_LOGIN_AGREEMENT, type Permission } from '@portal/api';
import { clearXsrfToken, MESSAGES, pendingPage, type RemoteModule, useConfigurationStore, useSessionStore } from '@portal/shared';
import { workspaceRemotes } from '@portal/shared/testing';
import { App as AntApp } from 'antd';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { readEnvironment } from '../federation/environment';
import { openExternal } from '../pages/login/openExternal';
import { PortalRoutes } from './Shell';
import { remoteLoader, useEnvironmentStore } from './startup';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerRemotes: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
/** The remotes whose routes were asked for so far, in order (a visit's or ahead of one). */
const asked = (): string[] => mockedLoadRemote.mock.calls.map(([id]) => id.split('/')[0] ?? id);
/** The remotes loaded ahead of time so far: the tests below visit /groups, whose remote the visit loads. */
const preloaded = (): string[] => asked().filter((name) => name !== 'groups');
jest.mock('../pages/login/openExternal', () => ({ openExternal: jest.fn() }));
const mockedOpenExternal = openExternal as jest.MockedFunction<typeof openExternal>;

const PendingSubscriptions = pendingPage('Subscriptions');

/** The subscriptions page's stand-in: its title and the address it was opened at. */
function SubscriptionsProbe() {
  const { pathname, search } = useLocation();
  return (
    <>
      <PendingSubscriptions />
      <p data-testid="opened-at">{`${pathname}${search}`}</p>
    </>
  );
}

const modules: Record<string, RemoteModule> = {
  self_service: {
    name: 'self_service',
    contract: '^2.0.0',
    routes: [
      { path: 'profile', title: 'User Profile', access: { kind: 'session' }, Component: pendingPage('User Profile') },
      { path: 'subscriptions', title: 'Subscriptions', access: { kind: 'session' }, Component: SubscriptionsProbe },
    ],
  },
  groups: {
    name: 'groups',
    contract: '^2.0.0',
    routes: [{ path: 'groups', title: 'Groups', access: { kind: 'session' }, Component: pendingPage('Groups') }],
  },
  mailing_lists: {
    name: 'mailing_lists',
    contract: '^2.0.0',
    routes: [{ path: 'mailing-lists', title: 'Mailing Lists', access: { kind: 'session' }, Component: pendingPage('Mailing Lists') }],
  },
  adjudication: {
    name: 'adjudication',
    contract: '^2.0.0',
    routes: [{ path: 'manage-accounts', title: 'Search Accounts', access: { kind: 'session' }, Component: pendingPage('Search Accounts') }],
  },
  tokens: {
    name: 'tokens',
    contract: '^2.0.0',
    routes: [{ path: 'tokens/services', title: 'Service Tokens', access: { kind: 'session' }, Component: pendingPage('Service Tokens') }],
  },
};

/** Each workspace remote's sidebar entries, as its build's record carries them into the manifest. */
const declared = new Map(workspaceRemotes().map((remote) => [remote.name, remote]));
const withEntries = <R extends { name: string }>(remote: R) => ({ ...remote, navigation: declared.get(remote.name)?.navigation ?? [] });

const environment = readEnvironment({
  environment: 'test',
  remotes: [
    { name: 'self_service', version: '1.0.0', entry: '/remotes/self_service/1.0.0/remoteEntry.js', contract: '^2.0.0', routes: ['/profile', '/subscriptions'] },
    { name: 'groups', version: '1.0.0', entry: '/remotes/groups/1.0.0/remoteEntry.js', contract: '^2.0.0', routes: ['/groups', '/list-user-group-requests'] },
    { name: 'tokens', version: '1.0.0', entry: '/remotes/tokens/1.0.0/remoteEntry.js', contract: '^2.0.0', routes: ['/tokens'] },
    { name: 'mailing_lists', version: '1.0.0', entry: '/remotes/mailing_lists/1.0.0/remoteEntry.js', contract: '^2.0.0', routes: ['/mailing-lists', '/list-mailing-list-requests'] },
    { name: 'adjudication', version: '1.0.0', entry: '/remotes/adjudication/1.0.0/remoteEntry.js', contract: '^2.0.0', routes: declared.get('adjudication')?.routes ?? [] },
    { name: 'future', version: '1.0.0', entry: '/remotes/future/1.0.0/remoteEntry.js', contract: '^3.0.0', routes: ['/future'] },
  ].map(withEntries),
});

let unreachable = new Set<string>();

type Answer = { ok: boolean; status: number; statusText: string; text: () => Promise<string> };
const answerOf = (status: number, body: unknown): Answer => ({ ok: status < 400, status, statusText: '', text: async () => JSON.stringify(body) });
/** GET /login-agreement's answer (the standard notice unless a test says otherwise). */
let agreementAnswer: Answer = answerOf(200, { filename: 'undefined', text: DEFAULT_LOGIN_AGREEMENT });

/** GET /subscriptions/jane's answer. */
let subscriptionsAnswer: Answer = answerOf(200, { direct: [], nested: [] });

/** The API at its HTTP boundary: who is signed in, and empty queues. */
function fakeApi(session: { username: string; permissions: string[] } | null) {
  const answer = (status: number, body: unknown) => ({ ok: status < 400, status, statusText: '', text: async () => JSON.stringify(body) });
  global.fetch = jest.fn(async (url: string) => {
    const path = url.replace('/accounts/rest', '');
    if (path === '/xsrf') return answer(200, { ok: 'token' });
    if (path === '/sessions/current') return session ? answer(200, session) : answer(401, { error: 'Not signed in', code: 401 });
    if (path === '/requests') return answer(200, { total_authchange: 0, total_profilechange: 0, total_mailinglist: 0, total_new: 4, total_usergroup: 0, total_unlock: 0 });
    if (path === '/login-agreement') return agreementAnswer;
    if (path === '/subscriptions/jane') return subscriptionsAnswer;
    return answer(404, { error: 'Not found', code: 404 });
  }) as unknown as typeof fetch;
}

beforeEach(() => {
  agreementAnswer = answerOf(200, { filename: 'undefined', text: DEFAULT_LOGIN_AGREEMENT });
  subscriptionsAnswer = answerOf(200, { direct: [], nested: [] });
  mockedOpenExternal.mockReset();
  clearXsrfToken();
  fakeApi({ username: 'jane', permissions: ['VIEW_SUBSCRIPTIONS'] });
  // As the shell's start would have found it.
  useSessionStore.setState({ status: 'signed-in', session: { username: 'jane', permissions: ['VIEW_SUBSCRIPTIONS'] } });
  useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION }, true);
  unreachable = new Set();
  mockedLoadRemote.mockImplementation(async (id: string) => {
    const name = id.split('/')[0] ?? '';
    if (unreachable.has(name)) throw new Error(`Failed to fetch /remotes/${name}/1.0.0/remoteEntry.js`);
    return { default: modules[name] };
  });
  remoteLoader.register(environment.remotes, true);
  useEnvironmentStore.setState({ status: 'ready', environment });
});

function renderAt(path: string) {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={[path]}>
        <PortalRoutes />
      </MemoryRouter>
    </AntApp>,
  );
}

describe('the session guard', () => {
  it('sends a visitor without a session to /login, through the agreement when configured', async () => {
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Login Agreement' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'I Agree' }));
    expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Returning Users' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'CAC LOGIN' })).toBeInTheDocument();
  });

  it('skips the agreement when none is configured', async () => {
    fakeApi(null);
    useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION, show_login_agreement: false, cac_support: false }, true);
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeInTheDocument();
    // Without smart-card support: the website-token form only.
    expect(screen.queryByRole('button', { name: 'CAC LOGIN' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Username or email')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register your CAC' })).not.toBeInTheDocument();
  });

  it('shows the sidebar, the Logout link and the queue counts to a signed-in user with view-request-summary', async () => {
    fakeApi({ username: 'adj', permissions: ['VIEW_REQUEST_SUMMARY', 'LIST_NEW_ACCOUNT_REQUESTS'] });
    useSessionStore.setState({ status: 'signed-in', session: { username: 'adj', permissions: ['VIEW_REQUEST_SUMMARY', 'LIST_NEW_ACCOUNT_REQUESTS'] } });
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
    expect(await screen.findByRole('link', { name: 'Account Requests (4)' })).toHaveAttribute('href', '/list-account-requests');
  });

  it('shows the help desk only the queue it may open', async () => {
    const helpdesk = { username: 'helpdesk', permissions: ['VIEW_SUBSCRIPTIONS', 'SEARCH_ACCOUNTS', 'VIEW_REQUEST_SUMMARY', 'LIST_UNLOCK_REQUESTS', 'VIEW_UNLOCK_REQUEST'] as Permission[] };
    fakeApi(helpdesk);
    useSessionStore.setState({ status: 'signed-in', session: helpdesk });
    renderAt('/groups');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Unlock Account Requests' })).toHaveAttribute('href', '/list-unlock-account-requests');
    // Search Accounts, then the one queue the help desk may open; no other queue.
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'My Profile',
      'Subscriptions',
      'Groups',
      'Mailing Lists',
      'Tokens',
      'Search Accounts',
      'Unlock Account Requests',
    ]);
  });

  it('offers Provisioning under Platform to whoever holds MANAGE_PROVISIONING, and to no one else', async () => {
    const operator = { username: 'operator', permissions: ['MANAGE_PROVISIONING'] as Permission[] };
    fakeApi(operator);
    useSessionStore.setState({ status: 'signed-in', session: operator });
    const { unmount } = renderAt('/groups');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByText('Platform')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Provisioning' })).toHaveAttribute('href', '/provisioning');
    expect(within(nav).queryByRole('link', { name: 'Manage Remotes' })).not.toBeInTheDocument();
    unmount();

    const member = { username: 'jane', permissions: ['VIEW_SUBSCRIPTIONS'] as Permission[] };
    fakeApi(member);
    useSessionStore.setState({ status: 'signed-in', session: member });
    renderAt('/groups');
    const plain = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(plain).queryByRole('link', { name: 'Provisioning' })).not.toBeInTheDocument();
    expect(within(plain).queryByText('Platform')).not.toBeInTheDocument();
  });

  it('while the account must be renewed, offers only the renewal and says why', async () => {
    const renewal = { username: 'renewal.user', permissions: ['VIEW_SUBSCRIPTIONS', 'RENEW_ACCOUNT', 'allow-renewal'] as Permission[] };
    fakeApi(renewal);
    useSessionStore.setState({ status: 'signed-in', session: renewal });
    renderAt('/groups');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([['Renew Your Account', '/renew-account']]);
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByText('Your account must be renewed before you can use the rest of the portal.')).toBeInTheDocument();
  });

  it('shows no queue counts without view-request-summary', async () => {
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
    expect(screen.queryByText('Manage Accounts')).not.toBeInTheDocument();
    expect(global.fetch).not.toHaveBeenCalledWith('/accounts/rest/requests', expect.anything());
  });
});

describe('/login with a session and a redirect: the subscriptions are checked', () => {
  const SERVICES_CONFIG = {
    ...DEFAULT_CONFIGURATION,
    wiki_url: 'https://wiki.example.test/',
    service_origins: 'jira=https://jira.example.test,jenkins=https://ci.example.test',
    supported_services: 'jira,confluence',
  };
  const calls = (path: string) => (global.fetch as jest.Mock).mock.calls.filter(([url]) => url === `/accounts/rest${path}`).length;

  it('opens a configured service the user is subscribed to (directly or through a group)', async () => {
    useConfigurationStore.getState().setConfiguration(SERVICES_CONFIG, true);
    subscriptionsAnswer = answerOf(200, { direct: [], nested: ['jira'] });
    renderAt(`/login?redirect=${encodeURIComponent('https://jira.example.test/browse/WEB-7')}`);
    await waitFor(() => expect(mockedOpenExternal).toHaveBeenCalledWith('https://jira.example.test/browse/WEB-7'));
    expect(calls('/subscriptions/jane')).toBe(1);
  });

  it('sends a user not subscribed to that service to /subscriptions?service= for it (where the spec\'s warning names it)', async () => {
    useConfigurationStore.getState().setConfiguration(SERVICES_CONFIG, true);
    renderAt(`/login?redirect=${encodeURIComponent('https://jira.example.test/browse/WEB-7')}`);
    expect(await screen.findByRole('heading', { name: 'Subscriptions' })).toBeInTheDocument();
    expect(screen.getByTestId('opened-at')).toHaveTextContent(/^\/subscriptions\?service=jira$/);
    // The page's warning is the spec's; no second message of the portal's own beside it.
    expect(screen.queryByText(/not subscribed/)).not.toBeInTheDocument();
    expect(mockedOpenExternal).not.toHaveBeenCalled();
  });

  it("checks the wiki's address as Confluence's: opened when held, else /subscriptions?service=confluence", async () => {
    useConfigurationStore.getState().setConfiguration(SERVICES_CONFIG, true);
    const first = renderAt(`/login?redirect=${encodeURIComponent('https://wiki.example.test/display/WEB/Home')}`);
    expect(await screen.findByTestId('opened-at')).toHaveTextContent(/^\/subscriptions\?service=confluence$/);
    expect(mockedOpenExternal).not.toHaveBeenCalled();
    first.unmount();
    subscriptionsAnswer = answerOf(200, { direct: ['confluence'], nested: [] });
    renderAt(`/login?redirect=${encodeURIComponent('https://wiki.example.test/display/WEB/Home')}`);
    await waitFor(() => expect(mockedOpenExternal).toHaveBeenCalledWith('https://wiki.example.test/display/WEB/Home'));
  });

  it('opens a service the portal does not offer as it is: there is nothing to subscribe to here', async () => {
    useConfigurationStore.getState().setConfiguration(SERVICES_CONFIG, true);
    renderAt(`/login?redirect=${encodeURIComponent('https://ci.example.test/job/x')}`);
    await waitFor(() => expect(mockedOpenExternal).toHaveBeenCalledWith('https://ci.example.test/job/x'));
    expect(calls('/subscriptions/jane')).toBe(0);
  });

  it('refuses any other origin: the profile opens, and no subscription is asked for', async () => {
    useConfigurationStore.getState().setConfiguration(SERVICES_CONFIG, true);
    renderAt(`/login?redirect=${encodeURIComponent('https://jira.example.test.evil.example/')}`);
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
    expect(mockedOpenExternal).not.toHaveBeenCalled();
    expect(calls('/subscriptions/jane')).toBe(0);
  });
});

describe('sign-in', () => {
  it('shows the agreement itself before I Agree: the standard notice without a file', async () => {
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    renderAt('/login');
    const text = await screen.findByRole('region', { name: 'Agreement text' });
    expect(text).toHaveTextContent('You are accessing a system provided for authorized use only.');
    expect(text).toHaveTextContent('Select I Agree to accept these terms and continue to sign in.');
    await userEvent.click(screen.getByRole('button', { name: 'I Agree' }));
    expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeInTheDocument();
  });

  it("shows the configured file's text as plain text, markup and all", async () => {
    agreementAnswer = answerOf(200, { filename: 'terms.txt', text: 'Terms of use\n\n<b>Be nice</b>.' });
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    renderAt('/login');
    const text = await screen.findByRole('region', { name: 'Agreement text' });
    expect(text.textContent).toBe('Terms of use\n\n<b>Be nice</b>.');
    expect(text.querySelector('b')).toBeNull();
  });

  it('offers no I Agree when the agreement cannot be loaded, only Retry', async () => {
    agreementAnswer = answerOf(500, { error: 'The login agreement could not be read. Please contact an administrator.', code: 500 });
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    renderAt('/login');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The login agreement could not be loaded.');
    expect(alert).toHaveTextContent('The login agreement could not be read. Please contact an administrator.');
    expect(screen.queryByRole('button', { name: 'I Agree' })).not.toBeInTheDocument();
    agreementAnswer = answerOf(200, { filename: 'undefined', text: DEFAULT_LOGIN_AGREEMENT });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'I Agree' })).toBeInTheDocument();
  });

  it.each([
    ['the configured help page', { login_help_url: 'https://help.example.test/sign-in', wiki_url: 'https://wiki.example.test/' }, 'https://help.example.test/sign-in'],
    ["the wiki's login help page, not its home page", { wiki_url: 'https://wiki.example.test/' }, 'https://wiki.example.test/display/WEB/Login+Help'],
  ])('Login help opens %s', async (_name, config, href) => {
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION, ...config, show_login_agreement: false, cac_support: false }, true);
    renderAt('/login');
    expect(await screen.findByRole('link', { name: 'Login help' })).toHaveAttribute('href', href);
  });
});

describe('the portal routes', () => {
  it("renders a remote's page inside the chrome", async () => {
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'My Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'self_service', entry: '/remotes/self_service/1.0.0/remoteEntry.js' },
        { name: 'groups', entry: '/remotes/groups/1.0.0/remoteEntry.js' },
        { name: 'tokens', entry: '/remotes/tokens/1.0.0/remoteEntry.js' },
        { name: 'mailing_lists', entry: '/remotes/mailing_lists/1.0.0/remoteEntry.js' },
        { name: 'adjudication', entry: '/remotes/adjudication/1.0.0/remoteEntry.js' },
      ],
      { force: true },
    );
  });

  it("loads the remotes of the sidebar's links once the browser is idle, with no hover or click, each once", async () => {
    mockedLoadRemote.mockClear();
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
    await waitFor(() => expect(preloaded()).toHaveLength(3));
    expect(preloaded()).toEqual(expect.arrayContaining(['self_service', 'mailing_lists', 'tokens']));
    // groups is the page's own remote, loaded by the visit: not asked for again.
    expect(asked().filter((name) => name === 'groups')).toEqual(['groups']);
    for (const [id, options] of mockedLoadRemote.mock.calls) {
      expect(id).toMatch(/\/routes$/);
      expect(options).toBeUndefined();
    }
    // Loaded ahead, the remotes' pages need no more waiting: their modules are ready.
    for (const name of ['self_service', 'mailing_lists', 'tokens']) {
      await waitFor(() => expect(remoteLoader.loaded(environment.remotes.find((r) => r.name === name)!)).toBe(modules[name]));
    }
  });

  it('fetches nothing ahead of time while the page shows it is loading (aria-busy), then the others', async () => {
    mockedLoadRemote.mockClear();
    const busy = document.createElement('div');
    busy.setAttribute('aria-busy', 'true');
    document.body.append(busy);
    try {
      renderAt('/groups');
      expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(preloaded()).toEqual([]);
      busy.setAttribute('aria-busy', 'false');
      await waitFor(() => expect(preloaded()).not.toEqual([]));
      expect(preloaded()).not.toContain('groups');
    } finally {
      busy.remove();
    }
  });

  it('fetches no remote ahead of time for a reader saving data; hovering a link still does', async () => {
    mockedLoadRemote.mockClear();
    Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true });
    try {
      renderAt('/groups');
      expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(preloaded()).toEqual([]);
      await userEvent.hover(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Mailing Lists' }));
      expect(preloaded()).toEqual(['mailing_lists']);
    } finally {
      Reflect.deleteProperty(navigator, 'connection');
    }
  });

  it('keeps the chrome mounted from one remote to another, and shows a loaded remote\'s page at once', async () => {
    await remoteLoader.load(environment.remotes.find((r) => r.name === 'groups')!);
    renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const banner = screen.getByRole('banner');
    // The server takes its time to say who is signed in: the page does not wait for it.
    let answerSession: (() => void) | undefined;
    const apiFetch = global.fetch;
    global.fetch = jest.fn((url: string, init?: RequestInit) =>
      url.endsWith('/sessions/current') ? new Promise((resolve) => (answerSession = () => resolve(apiFetch(url, init)))) : apiFetch(url, init),
    ) as unknown as typeof fetch;

    try {
      await userEvent.click(within(nav).getByRole('link', { name: 'Groups' }));
      expect(await screen.findByRole('heading', { name: 'Groups' }, { timeout: 2_000 })).toBeInTheDocument();
      expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
      expect(answerSession).toBeDefined(); // asked again, still unanswered
      // The same sidebar and top bar, not new ones.
      expect(screen.getByRole('navigation', { name: 'Main' })).toBe(nav);
      expect(screen.getByRole('banner')).toBe(banner);
    } finally {
      answerSession?.();
    }
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
  });

  it('on a phone, builds no sidebar links while the sidebar is folded; the Menu button builds them', async () => {
    // A screen below antd's md breakpoint, as Layout.Sider and the layout ask it.
    const wide = window.matchMedia.bind(window);
    const matchMedia = jest
      .spyOn(window, 'matchMedia')
      .mockImplementation((query: string) => ({ ...wide(query), matches: query.includes('max-width: 767.98px') }));
    try {
      renderAt('/profile');
      expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
      const sidebar = screen.getByRole('complementary', { name: 'Portal sections', hidden: true });
      // Not merely hidden: not there at all, so a phone spends nothing on them.
      expect(within(sidebar).queryAllByRole('link', { hidden: true })).toEqual([]);
      await userEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Menu' }));
      await userEvent.click(within(sidebar).getByRole('link', { name: 'Groups' }));
      expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
      // Choosing a section folds the sidebar again, and its links go with it.
      expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
      expect(within(sidebar).queryAllByRole('link', { hidden: true })).toEqual([]);
    } finally {
      matchMedia.mockRestore();
    }
  });

  it('sends to sign-in when the check made on the way to another remote finds no session', async () => {
    await remoteLoader.load(environment.remotes.find((r) => r.name === 'groups')!);
    renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
    // Signed out elsewhere meanwhile: the portal still has the old answer.
    fakeApi(null);
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Groups' }));
    expect(await screen.findByRole('heading', { name: 'Login Agreement' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Groups' })).not.toBeInTheDocument();
  });

  it("does not carry a remote's failed page over to another remote", async () => {
    const Broken = () => {
      throw new Error('broken page');
    };
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const groups = modules.groups!;
    modules.groups = { ...groups, routes: [{ ...groups.routes[0]!, Component: Broken }] };
    try {
      await remoteLoader.retry(environment.remotes.find((r) => r.name === 'groups')!);
      await remoteLoader.load(environment.remotes.find((r) => r.name === 'self_service')!);
      renderAt('/groups');
      expect(await screen.findByText(MESSAGES.remoteUnavailable)).toBeInTheDocument();
      await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'My Profile' }));
      expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
      expect(screen.queryByText(MESSAGES.remoteUnavailable)).not.toBeInTheDocument();
    } finally {
      modules.groups = groups;
      await remoteLoader.retry(environment.remotes.find((r) => r.name === 'groups')!);
      error.mockRestore();
    }
  });

  it('shows the unavailable panel for a remote that cannot be loaded, and Retry recovers it', async () => {
    // (A remote, once loaded, stays loaded for the page's life: this one has not been loaded yet.)
    unreachable.add('mailing_lists');
    renderAt('/mailing-lists');
    expect(await screen.findByText(MESSAGES.remoteUnavailable)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();

    unreachable.delete('mailing_lists');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Mailing Lists' })).toBeInTheDocument();
  });

  it('keeps the other remotes working while one is down', async () => {
    unreachable.add('mailing_lists');
    renderAt('/tokens/services');
    expect(await screen.findByRole('heading', { name: 'Service Tokens' })).toBeInTheDocument();
  });

  it('shows the unavailable panel, not "not found", for a remote needing another contract', async () => {
    renderAt('/future');
    expect(await screen.findByText(MESSAGES.remoteUnavailable)).toBeInTheDocument();
    expect(mockedLoadRemote).not.toHaveBeenCalledWith('future/routes');
  });

  it('sends a path no remote owns to /not-found', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/profile');
  });

  it('sends a path inside a remote that the remote does not have to /not-found', async () => {
    renderAt('/tokens/nothing-here');
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
  });

  it('shows the unavailable panel when the environment manifest could not be read', async () => {
    useEnvironmentStore.setState({ status: 'failed', environment: undefined, error: new Error('offline') });
    renderAt('/groups');
    expect(await screen.findByText(MESSAGES.remoteUnavailable)).toBeInTheDocument();
  });

  it('sends the empty path to /login', async () => {
    fakeApi(null);
    useSessionStore.setState({ status: 'anonymous', session: undefined });
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Login Agreement' })).toBeInTheDocument();
  });

  it('links /not-authorized back to sign-in with the redirect', async () => {
    renderAt('/not-authorized?redirect=%2Fgroups');
    expect(await screen.findByText(MESSAGES.notAuthorized)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Fgroups');
  });
});
