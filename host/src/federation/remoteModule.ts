/** Checks what a remote's `./routes` module exported against the contract, at run time. */
import { CONTRACT_VERSION, isValidRange, type RemoteModule, satisfies } from '@portal/shared';
import { RemoteLoadError } from './errors';

function fail(remote: string, message: string): never {
  throw new RemoteLoadError(remote, 'contract', message);
}

export function asRemoteModule(remote: string, loaded: unknown, contractVersion = CONTRACT_VERSION): RemoteModule {
  const candidate =
    typeof loaded === 'object' && loaded !== null && 'default' in loaded ? (loaded as { default: unknown }).default : loaded;
  if (typeof candidate !== 'object' || candidate === null) fail(remote, 'the module has no default export');
  const mod = candidate as Partial<Record<keyof RemoteModule, unknown>>;
  if (mod.name !== remote) fail(remote, `the module calls itself '${String(mod.name)}'`);
  if (typeof mod.contract !== 'string' || !isValidRange(mod.contract)) fail(remote, 'the module declares no contract range');
  if (!satisfies(contractVersion, mod.contract)) {
    fail(remote, `it needs contract ${mod.contract}; this host implements ${contractVersion}`);
  }
  if (!Array.isArray(mod.routes) || mod.routes.length === 0) fail(remote, 'the module declares no routes');
  mod.routes.forEach((route: unknown, i) => {
    const r = (route ?? {}) as Record<string, unknown>;
    const access = r.access as { kind?: unknown; permission?: unknown } | undefined;
    const component = r.Component;
    if (typeof r.path !== 'string' || r.path.startsWith('/') || r.path === '') fail(remote, `routes[${i}].path must be relative`);
    if (typeof r.title !== 'string' || r.title === '') fail(remote, `routes[${i}].title is missing`);
    if (!access || !['public', 'session', 'permission'].includes(String(access.kind))) fail(remote, `routes[${i}].access is not valid`);
    if (access.kind === 'permission' && typeof access.permission !== 'string') fail(remote, `routes[${i}] names no permission`);
    if (typeof component !== 'function' && (typeof component !== 'object' || component === null)) {
      fail(remote, `routes[${i}].Component is not a component`);
    }
  });
  return candidate as RemoteModule;
}
