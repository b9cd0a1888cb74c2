/**
 * The host's routing through the real router: a remote's route renders inside the chrome; a
 * remote that fails to load shows the unavailable panel and Retry recovers it; other remotes and
 * the host's own pages keep working. The module federation runtime is faked at its boundary.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { MESSAGES, pendingPage, type RemoteModule } from '@portal/shared';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { readEnvironment } from '../federation/environment';
import { PortalRoutes } from './Shell';
import { remoteLoader, useEnvironmentStore } from './startup';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerRemotes: jest.fn(),
  preloadRemote: jest.fn().mockResolvedValue(undefined),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

const modules: Record<string, RemoteModule> = {
  groups: {
    name: 'groups',
    contract: '^1.0.0',
    routes: [{ path: 'groups', title: 'Groups', access: { kind: 'session' }, Component: pendingPage('Groups') }],
  },
  mailing_lists: {
    name: 'mailing_lists',
    contract: '^1.0.0',
    routes: [{ path: 'mailing-lists', title: 'Mailing Lists', access: { kind: 'session' }, Component: pendingPage('Mailing Lists') }],
  },
  tokens: {
    name: 'tokens',
    contract: '^1.0.0',
    routes: [{ path: 'tokens/services', title: 'Service Tokens', access: { kind: 'session' }, Component: pendingPage('Service Tokens') }],
  },
};

const environment = readEnvironment({
  environment: 'test',
  remotes: [
    { name: 'groups', version: '1.0.0', entry: '/remotes/groups/1.0.0/mf-manifest.json', contract: '^1.0.0', routes: ['/groups'] },
    { name: 'tokens', version: '1.0.0', entry: '/remotes/tokens/1.0.0/mf-manifest.json', contract: '^1.0.0', routes: ['/tokens'] },
    { name: 'mailing_lists', version: '1.0.0', entry: '/remotes/mailing_lists/1.0.0/mf-manifest.json', contract: '^1.0.0', routes: ['/mailing-lists'] },
    { name: 'future', version: '1.0.0', entry: '/remotes/future/1.0.0/mf-manifest.json', contract: '^2.0.0', routes: ['/future'] },
  ],
});

let unreachable = new Set<string>();

beforeEach(() => {
  unreachable = new Set();
  mockedLoadRemote.mockImplementation(async (id: string) => {
    const name = id.split('/')[0] ?? '';
    if (unreachable.has(name)) throw new Error(`Failed to fetch /remotes/${name}/1.0.0/mf-manifest.json`);
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

describe('the portal routes', () => {
  it("renders a remote's page inside the chrome", async () => {
    renderAt('/groups');
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'My Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'groups', entry: '/remotes/groups/1.0.0/mf-manifest.json' },
        { name: 'tokens', entry: '/remotes/tokens/1.0.0/mf-manifest.json' },
        { name: 'mailing_lists', entry: '/remotes/mailing_lists/1.0.0/mf-manifest.json' },
      ],
      { force: true },
    );
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

  it('sends the empty path to /login and keeps the redirect on /not-authorized', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeInTheDocument();
  });

  it('links /not-authorized back to sign-in with the redirect', async () => {
    renderAt('/not-authorized?redirect=%2Fgroups');
    expect(await screen.findByText(MESSAGES.notAuthorized)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Fgroups');
  });
});
