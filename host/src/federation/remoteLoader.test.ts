import type { RemoteModule } from '@portal/shared';
import type { PortalRemote } from './environment';
import { RemoteLoadError } from './errors';
import { entryFile, RemoteLoader, type FederationRuntime } from './remoteLoader';
import { asRemoteModule } from './remoteModule';

const Page = () => null;
const groupsModule: RemoteModule = {
  name: 'groups',
  contract: '^2.0.0',
  routes: [{ path: 'groups', title: 'Groups', access: { kind: 'session' }, Component: Page }],
};
const groups: PortalRemote = {
  name: 'groups',
  version: '1.0.0',
  entry: '/remotes/groups/1.0.0/remoteEntry.js',
  contract: '^2.0.0',
  routes: ['/groups'],
  compatible: true,
};

function fakeRuntime(load: FederationRuntime['loadRemote']): jest.Mocked<FederationRuntime> {
  return { registerRemotes: jest.fn(), loadRemote: jest.fn(load) };
}

describe('RemoteLoader', () => {
  it('registers only the remotes this host can run', () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    new RemoteLoader(runtime).register([groups, { ...groups, name: 'old', compatible: false }], true);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'groups', entry: groups.entry }], { force: true });
  });

  it("registers an entry given as a remote's mf-manifest.json as the remoteEntry.js beside it", () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    new RemoteLoader(runtime).register([{ ...groups, entry: 'http://localhost:3102/mf-manifest.json' }]);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'groups', entry: 'http://localhost:3102/remoteEntry.js' }], { force: false });
  });

  it.each([
    ['/remotes/groups/1.0.0/mf-manifest.json', '/remotes/groups/1.0.0/remoteEntry.js'],
    ['https://cdn.example.test/groups/mf-manifest.json?v=2', 'https://cdn.example.test/groups/remoteEntry.js?v=2'],
    ['mf-manifest.json', 'remoteEntry.js'],
    ['/remotes/groups/1.0.0/remoteEntry.js', '/remotes/groups/1.0.0/remoteEntry.js'],
    ['https://cdn.example.test/my-mf-manifest.json', 'https://cdn.example.test/my-mf-manifest.json'],
  ])('the entry file of %s is %s', (entry, file) => {
    expect(entryFile(entry)).toBe(file);
  });

  it("loads a remote's routes module once, however often it is asked", async () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    const loader = new RemoteLoader(runtime);
    const [a, b] = await Promise.all([loader.load(groups), loader.load(groups)]);
    expect(a).toBe(groupsModule);
    expect(b).toBe(groupsModule);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.loadRemote).toHaveBeenCalledWith('groups/routes');
  });

  it('does not keep a failure: Retry registers the remote afresh and loads again', async () => {
    let fail = true;
    const runtime = fakeRuntime(async () => {
      if (fail) throw new RemoteLoadError('groups', 'network', 'offline');
      return { default: groupsModule };
    });
    const loader = new RemoteLoader(runtime);
    await expect(loader.load(groups)).rejects.toMatchObject({ reason: 'network' });
    fail = false;
    await expect(loader.retry(groups)).resolves.toBe(groupsModule);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'groups', entry: groups.entry }], { force: true });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });

  it('Retry tries once more at once when a chunk fails (a failed preload the browser answers from its cache), and no more', async () => {
    const chunkFailure = () => {
      const cause = Object.assign(new Error('Loading chunk 806 failed.\n(error: /remotes/groups/1.0.0/__federation_expose_routes.js)'), { name: 'ChunkLoadError' });
      return new RemoteLoadError('groups', 'network', cause.message, { cause });
    };
    let failures = 2;
    const runtime = fakeRuntime(async () => {
      if (failures-- > 0) throw chunkFailure();
      return { default: groupsModule };
    });
    const loader = new RemoteLoader(runtime);
    await expect(loader.load(groups)).rejects.toMatchObject({ reason: 'network' });
    await expect(loader.retry(groups)).resolves.toBe(groupsModule);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(3);
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(2);

    failures = 3;
    const again = new RemoteLoader(runtime);
    await expect(again.load(groups)).rejects.toMatchObject({ reason: 'network' });
    await expect(again.retry(groups)).rejects.toMatchObject({ reason: 'network' });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(6);
  });

  it('Retry does not try again at once when the entry itself cannot be loaded', async () => {
    const runtime = fakeRuntime(async () => {
      throw new RemoteLoadError('groups', 'network', 'Failed to load script resources. #RUNTIME-008');
    });
    const loader = new RemoteLoader(runtime);
    await expect(loader.retry(groups)).rejects.toMatchObject({ reason: 'network' });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('never loads a remote whose contract this host does not implement', async () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    await expect(new RemoteLoader(runtime).load({ ...groups, compatible: false })).rejects.toMatchObject({ reason: 'contract' });
    expect(runtime.loadRemote).not.toHaveBeenCalled();
  });

  it('preloads a remote by running its routes: a visit then finds the module ready, with no wait', async () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    const loader = new RemoteLoader(runtime);
    expect(loader.loaded(groups)).toBeUndefined();
    loader.preload(groups);
    expect(runtime.loadRemote).toHaveBeenCalledWith('groups/routes');
    await waitForLoaded(loader);
    expect(loader.loaded(groups)).toBe(groupsModule);
    expect(await loader.load(groups)).toBe(groupsModule);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('preloads a remote once, never one being loaded, nor one this host cannot run', async () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    const loader = new RemoteLoader(runtime);
    loader.preload(groups);
    loader.preload(groups);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);

    const other = new RemoteLoader(runtime);
    const visit = other.load(groups);
    other.preload(groups);
    await visit;
    other.preload(groups);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);

    new RemoteLoader(runtime).preload({ ...groups, compatible: false });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });

  it('a failed preload stays quiet and is forgotten: the visit asks again and gets the module', async () => {
    const runtime = fakeRuntime(async () => ({ default: groupsModule }));
    runtime.loadRemote.mockRejectedValueOnce(new Error('offline'));
    const loader = new RemoteLoader(runtime);
    loader.preload(groups); // no unhandled rejection: jest would fail the test
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loader.loaded(groups)).toBeUndefined();
    expect(await loader.load(groups)).toBe(groupsModule);
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });
});

/** Waits until the loader's preload has settled (a few microtasks). */
async function waitForLoaded(loader: RemoteLoader): Promise<void> {
  for (let i = 0; i < 20 && loader.loaded(groups) === undefined; i++) await Promise.resolve();
}

describe('asRemoteModule', () => {
  it('accepts a module that keeps the contract', () => {
    expect(asRemoteModule('groups', { default: groupsModule })).toBe(groupsModule);
  });

  it.each([
    ['another name', { ...groupsModule, name: 'tokens' }, "the module calls itself 'tokens'"],
    ['a contract this host lacks', { ...groupsModule, contract: '^3.0.0' }, 'it needs contract ^3.0.0; this host implements 2.0.0'],
    ['no routes', { ...groupsModule, routes: [] }, 'the module declares no routes'],
    ['an absolute path', { ...groupsModule, routes: [{ ...groupsModule.routes[0], path: '/groups' }] }, 'routes[0].path must be relative'],
    ['no permission', { ...groupsModule, routes: [{ ...groupsModule.routes[0], access: { kind: 'permission' } }] }, 'routes[0] names no permission'],
  ])('refuses a module with %s', (_what, module, message) => {
    expect(() => asRemoteModule('groups', { default: module })).toThrow(message);
  });
});
