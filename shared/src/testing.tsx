/**
 * Test helpers for remotes (imported as '@portal/shared/testing'; never part of a bundle).
 * describeRemoteContract checks a remote's route table the way the host will use it.
 */
import { render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchPath, MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { pathHasPrefix, validateEnvironmentManifest, type EnvironmentManifest, type NavigationEntry, type RemoteModule } from './contract.js';
import { inKindOrder, isPermission, type RequestKindDefinition } from '@portal/api';

const REPO = join(__dirname, '..', '..');

/** What a workspace remote declares: its package.json's "portal" and its src/navigation.ts, as its build's record carries them. */
export interface DeclaredRemote {
  readonly name: string;
  readonly version: string;
  readonly contract: string;
  readonly routes: string[];
  readonly navigation: readonly NavigationEntry[];
}

/** What every remote of the workspace declares (its package.json's "portal", its src/navigation.ts's entries). */
export function workspaceRemotes(): DeclaredRemote[] {
  return readdirSync(REPO)
    .filter((folder) => folder.startsWith('remote-'))
    .flatMap((folder) => {
      const pkg = JSON.parse(readFileSync(join(REPO, folder, 'package.json'), 'utf8')) as {
        version: string;
        portal?: { remote: string; contract: string; routes: string[] };
      };
      if (!pkg.portal) return [];
      const { remote, ...declared } = pkg.portal;
      const file = join(REPO, folder, 'src', 'navigation.ts');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest's CommonJS: the entries the remote's build writes into its record
      const navigation = existsSync(file) ? (require(file) as { navigation: readonly NavigationEntry[] }).navigation : [];
      return [{ name: remote, version: pkg.version, ...declared, navigation }];
    });
}

const isKindDefinition = (value: unknown): value is RequestKindDefinition =>
  typeof value === 'object' && value !== null && 'kind' in value && 'permission' in value && 'detail' in value;

/**
 * Every request kind declared in @portal/api's requests/kinds/, in their order, read from the
 * folder as the server reads its kinds' modules: a test covers a kind added by a file, with no
 * list to edit.
 */
export function declaredRequestKinds(): RequestKindDefinition[] {
  const dir = join(REPO, 'shared', 'api', 'src', 'requests', 'kinds');
  return inKindOrder(
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest's CommonJS: whatever files the folder holds
      .flatMap((name) => Object.values(require(join(dir, name)) as Record<string, unknown>))
      .filter(isKindDefinition),
  );
}

const declaredRecord = (name: string) => workspaceRemotes().find((remote) => remote.name === name);

function localManifest(): EnvironmentManifest {
  const file = join(REPO, 'server', 'environments', 'local.json');
  return JSON.parse(readFileSync(file, 'utf8')) as EnvironmentManifest;
}

/**
 * A concrete URL for a route pattern: ':id' → 'sample-id', a request id (a whole number, else
 * the page shows not-found without asking) → '1'; optional segments kept.
 */
function samplePath(pattern: string): string {
  const sample = (name: string) => (/requestId$/i.test(name) ? '1' : `sample-${name}`);
  return '/' + pattern.split('/').map((part) => (part.startsWith(':') ? sample(part.replace(/[:?]/g, '')) : part)).join('/');
}

function CurrentPath() {
  return <output data-testid="current-path">{useLocation().pathname}</output>;
}

/**
 * options.redirects: routes that send the reader elsewhere (path → where they end up);
 * options.headings: routes whose heading is not their title alone (path → the heading's name).
 */
export function describeRemoteContract(
  remote: RemoteModule,
  options: { redirects?: Record<string, string>; headings?: Record<string, string | RegExp> } = {},
) {
  describe(`remote ${remote.name}: its route table`, () => {
    const manifest = localManifest();
    const entry = manifest.remotes.find((r) => r.name === remote.name);

    it('is pinned in the local environment manifest', () => {
      expect(validateEnvironmentManifest(manifest)).toEqual([]);
      expect(entry).toBeDefined();
      expect(remote.contract).toBe(entry?.contract);
    });

    it.each(remote.routes.map((r) => [r.path, r] as const))('%s lies under one of its manifest prefixes and declares its access', (_p, route) => {
      const url = samplePath(route.path);
      expect(entry?.routes.some((prefix) => pathHasPrefix(url, prefix))).toBe(true);
      if (route.access.kind === 'permission') expect(isPermission(route.access.permission)).toBe(true);
    });

    it('declares in its package.json the contract and routes of its module, and in its src/navigation.ts sidebar entries the manifest accepts', () => {
      const declared = declaredRecord(remote.name);
      expect(declared?.contract).toBe(remote.contract);
      expect(declared?.routes).toEqual(entry?.routes);
      expect(validateEnvironmentManifest({ environment: 'build', remotes: [{ ...declared }] })).toEqual([]);
    });

    it.each((declaredRecord(remote.name)?.navigation ?? []).map((e) => [e.label, e] as const))(
      "its sidebar entry '%s' opens one of its pages, shown only to whom the page lets in",
      (_label, navigation) => {
        const page = remote.routes.find((route) => matchPath({ path: `/${route.path}`, end: true }, navigation.path) !== null);
        expect(page).toBeDefined();
        if (navigation.permission !== undefined) expect(isPermission(navigation.permission)).toBe(true);
        if (page?.access.kind === 'permission') expect(navigation.permission).toBe(page.access.permission);
      },
    );

    it('has no two routes with the same path', () => {
      const paths = remote.routes.map((r) => r.path);
      expect(new Set(paths).size).toBe(paths.length);
    });

    it.each(remote.routes.map((r) => [r.path, r] as const))('%s renders its page through the router', async (_p, route) => {
      const url = samplePath(route.path);
      const redirect = options.redirects?.[route.path];
      render(
        <AntApp>
          <MemoryRouter initialEntries={[url]}>
            <Routes>
              {remote.routes.map(({ path, Component }) => (
                <Route key={path} path={path} element={<Component />} />
              ))}
            </Routes>
            <CurrentPath />
          </MemoryRouter>
        </AntApp>,
      );
      if (redirect) {
        expect(await screen.findByTestId('current-path')).toHaveTextContent(new RegExp(`^${redirect}$`));
      } else {
        expect(await screen.findByRole('heading', { level: 2, name: options.headings?.[route.path] ?? route.title })).toBeInTheDocument();
      }
    });
  });
}

export * from './fakeApi.js';
export * from './requestsTesting.js';
