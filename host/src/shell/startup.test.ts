/**
 * The shell's start with what the first HTML carried (server/src/routes/host.ts): who is signed
 * in and the session's anti-forgery token are taken from it, with no round trip; without them the
 * shell asks the server, as before.
 */
import { apiRequest, clearXsrfToken, useSessionStore } from '@portal/shared';
import { resetShellStart, startShell, useEnvironmentStore } from './startup';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerRemotes: jest.fn(),
}));

const ENVIRONMENT = { environment: 'test', remotes: [] };

/** How many times the host asked for /environment.json since the last fakeServer. */
let environmentFetches = 0;

/** The API at its HTTP boundary, recording every call's path and anti-forgery header. */
function fakeServer(session: { username: string; permissions: string[] } | null): { path: string; xsrf?: string }[] {
  const calls: { path: string; xsrf?: string }[] = [];
  environmentFetches = 0;
  const answer = (status: number, body: unknown) => ({ ok: status < 400, status, statusText: '', text: async () => JSON.stringify(body), json: async () => body });
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    const path = url.replace('/accounts/rest', '');
    // Only the calls this test is about: not the environment's nor the configuration's.
    if (path === '/environment.json') environmentFetches += 1;
    if (path !== '/environment.json' && path !== '/configuration') calls.push({ path, xsrf: (init?.headers as Record<string, string> | undefined)?.['X-XSRF-TOKEN'] });
    if (path === '/environment.json') return answer(200, ENVIRONMENT);
    if (path === '/xsrf') return answer(200, { ok: 'asked-token' });
    if (path === '/sessions/current') return session ? answer(200, session) : answer(401, { error: 'Not signed in', code: 401 });
    if (path === '/requests') return answer(200, {});
    if (path === '/configuration') return answer(200, {});
    return answer(404, { error: 'Not found', code: 404 });
  }) as unknown as typeof fetch;
  return calls;
}

/** A fresh page: the first HTML's boot block (none when `boot` is undefined), nothing known yet. */
function loadPage(boot: Record<string, unknown> | undefined): void {
  document.head.innerHTML = boot === undefined ? '' : `<script type="application/json" id="portal-boot">${JSON.stringify(boot)}</script>`;
  resetShellStart();
  clearXsrfToken();
  useSessionStore.setState({ status: 'unknown', session: undefined, error: undefined });
  useEnvironmentStore.setState({ status: 'loading', environment: undefined, error: undefined });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the shell's start", () => {
  it('takes a signed-in user and the token from the first HTML: no GET /sessions/current, no GET /xsrf, and the next call carries that token', async () => {
    const calls = fakeServer({ username: 'other', permissions: [] });
    // RUN_REPORTS is not a permission this host's build knows: a remote shipped later may bring it.
    loadPage({ environment: null, session: { username: 'jane', permissions: ['VIEW_SUBSCRIPTIONS', 'RUN_REPORTS'] }, xsrf: 'carried-token' });
    startShell();
    const state = useSessionStore.getState();
    expect(state.status).toBe('signed-in');
    expect(state.session).toEqual({ username: 'jane', permissions: ['VIEW_SUBSCRIPTIONS', 'RUN_REPORTS'] });
    // The first page's check reuses that answer.
    await expect(state.resolve(undefined, { reuseWithinMs: 5_000 })).resolves.toMatchObject({ status: 'signed-in' });
    await apiRequest('GET', '/requests');
    await settle();
    expect(calls).toEqual([{ path: '/requests', xsrf: 'carried-token' }]);
  });

  it('takes "nobody" from the first HTML: anonymous at once, and the token is asked for when a call first needs one', async () => {
    const calls = fakeServer({ username: 'other', permissions: [] });
    loadPage({ environment: null, session: null });
    startShell();
    expect(useSessionStore.getState().status).toBe('anonymous');
    await apiRequest('GET', '/requests');
    expect(calls).toEqual([
      { path: '/xsrf', xsrf: undefined },
      { path: '/requests', xsrf: 'asked-token' },
    ]);
  });

  it('asks the server who is signed in when the first HTML does not say (no boot block, or one without a session)', async () => {
    for (const boot of [undefined, { environment: null }]) {
      const calls = fakeServer({ username: 'jane', permissions: [] });
      loadPage(boot);
      startShell();
      expect(useSessionStore.getState().status).toBe('unknown');
      await settle();
      await settle();
      expect(useSessionStore.getState()).toMatchObject({ status: 'signed-in', session: { username: 'jane' } });
      expect(calls.map((c) => c.path)).toEqual(['/xsrf', '/sessions/current']);
    }
  });

  it('takes the environment manifest from the first HTML before its first render: ready at once, remotes marked, no GET /environment.json', async () => {
    fakeServer(null);
    const carried = {
      environment: 'carried',
      remotes: [
        { name: 'groups', version: '1.0.0', contract: '^2.0.0', routes: ['/groups'], entry: '/remotes/groups/1.0.0/remoteEntry.js' },
        { name: 'later', version: '9.0.0', contract: '^99.0.0', routes: ['/later'], entry: '/remotes/later/9.0.0/remoteEntry.js' },
      ],
    };
    loadPage({ environment: carried, session: null });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      startShell();
      const state = useEnvironmentStore.getState();
      expect(state.status).toBe('ready');
      expect(state.environment?.environment).toBe('carried');
      expect(state.environment?.remotes.map((r) => [r.name, r.compatible])).toEqual([
        ['groups', true],
        ['later', false],
      ]);
      expect(warn).toHaveBeenCalledWith("Remote 'later' needs contract ^99.0.0; it is not loaded.");
    } finally {
      warn.mockRestore();
    }
    await settle();
    expect(environmentFetches).toBe(0);
  });

  it('says the environment failed when the manifest the first HTML carried is not valid, and asks for none behind the user\'s back', async () => {
    fakeServer(null);
    loadPage({ environment: { environment: 'broken', remotes: [{ name: 'groups' }] }, session: null });
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      startShell();
      const state = useEnvironmentStore.getState();
      expect(state.status).toBe('failed');
      expect(String(state.error)).toMatch(/^EnvironmentError: The environment manifest is not valid: /);
    } finally {
      error.mockRestore();
    }
    await settle();
    expect(environmentFetches).toBe(0);
  });

  it('asks for the environment manifest when the first HTML did not carry it', async () => {
    fakeServer(null);
    loadPage({ environment: null, session: null });
    startShell();
    expect(useEnvironmentStore.getState().status).toBe('loading');
    await settle();
    await settle();
    expect(useEnvironmentStore.getState()).toMatchObject({ status: 'ready', environment: { environment: 'test' } });
    expect(environmentFetches).toBe(1);
  });
});
