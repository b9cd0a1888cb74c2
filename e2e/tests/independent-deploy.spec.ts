/**
 * A remote deploys on its own schedule: its team builds a new version whose
 * API client has a call the host has never seen (a new endpoint definition bundled in the
 * remote), publishes it as a tarball from its own build output, a platform administrator pins
 * it, and it runs in Chromium against the host build that was made before, with no host rebuild;
 * a rollback brings back the version before.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtVersion, expectChrome, portal, repoRoot, restorePin } from './portal';
import { buildRemoteVersion } from './remote-builds';
import { expect, test } from './session';

const VERSION = '0.9.0-e2e';

/** The remote's new release: a page that calls GET /health through an endpoint only this build defines. */
const ROUTES = `
import { Type } from 'typebox';
import { defineEndpoint } from '@portal/api';
import { call, PUBLIC, route, type RemoteModule } from '@portal/shared';
import { useEffect, useState } from 'react';

/** New in this release: the host's build has no such definition. */
const databaseHealth = defineEndpoint({
  method: 'GET',
  path: '/health',
  access: 'public',
  xsrf: false,
  summary: 'Whether the database answers',
  response: Type.Object({ status: Type.String(), database: Type.String() }),
});

function ReleaseCheck() {
  const [database, setDatabase] = useState('…');
  useEffect(() => {
    const controller = new AbortController();
    call(databaseHealth, {}, { signal: controller.signal }).then((answer) => setDatabase(answer.database), () => setDatabase('failed'));
    return () => controller.abort();
  }, []);
  return <p data-testid="release">tokens ${VERSION}: database {database}</p>;
}

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^1.5.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, ReleaseCheck)],
};

export default remote;
`;

const OLD_VERSION = '0.8.0-e2e';

/**
 * A release built the way remotes were before host contract 1.2: its build does not split antd's
 * imports into the host's parts, so its `import { Table } from 'antd'` asks the share scope for
 * `antd` itself (the same remote's build otherwise, antd never bundled).
 */
const OLD_WEBPACK_CONFIG = `
const { createWebpackConfig } = require('@portal/shared/federation');
const current = createWebpackConfig({ appDir: __dirname, kind: 'remote', name: 'tokens', devPort: 0 });
module.exports = (env, argv) => {
  const config = current(env, argv);
  for (const rule of config.module.rules) rule.use = rule.use.filter((use) => !String(use.loader).endsWith('antd-imports-loader.cjs'));
  return config;
};
`;

const OLD_ROUTES = `
import { PUBLIC, route, type RemoteModule } from '@portal/shared';
import { Table, Tag } from 'antd';

function OldRelease() {
  return <Table rowKey="name" pagination={false} dataSource={[{ name: 'built for contract 1.1' }]} columns={[{ title: 'Release', dataIndex: 'name', render: (name: string) => <Tag>{name}</Tag> }]} />;
}

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^1.1.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, OldRelease)],
};

export default remote;
`;

const FORMS_VERSION = '0.7.0-e2e';

/**
 * A release built the way remotes were before host contract 1.3: its form primitives come from
 * @portal/shared's root, which since 0.3.2 loads them on demand from @portal/shared/forms.
 */
const ROOT_FORMS_ROUTES = `
import { required } from '@portal/api';
import { FormShell, PUBLIC, route, submissionErrors, TextField, type RemoteModule } from '@portal/shared';

function OldForm() {
  return (
    <FormShell<{ name: string }> submitLabel="Send" onSubmit={() => submissionErrors(new Error('Refused by the 1.2 release'))}>
      <TextField name="name" label="Name" validate={required('Please enter a name.')} />
    </FormShell>
  );
}

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^1.2.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, OldForm)],
};

export default remote;
`;

const MORE_VERSION = '0.6.0-e2e';

/**
 * A release built the way remotes were for host contracts 1.2 and 1.3: its build sent antd's
 * Descriptions, List, Table and Tag to the second part of the portal's antd, `@portal/antd-more`
 * (what the build wrote for `import { Descriptions, List, Tag } from 'antd'` then), and its entry
 * carried its own copy of the federation's bundler runtime.
 */
const MORE_WEBPACK_CONFIG = `
const { createWebpackConfig } = require('@portal/shared/federation');
const current = createWebpackConfig({ appDir: __dirname, kind: 'remote', name: 'tokens', devPort: 0 });
module.exports = (env, argv) => {
  const config = current(env, argv);
  config.plugins = config.plugins.filter((plugin) => plugin.constructor.name !== 'NormalModuleReplacementPlugin');
  return config;
};
`;

const MORE_ROUTES = `
import { PUBLIC, route, type RemoteModule } from '@portal/shared';
import { Descriptions, List, Tag } from '@portal/antd-more';

function MoreRelease() {
  return (
    <>
      <Descriptions bordered column={1} items={[{ key: 'built', label: 'Built for', children: <Tag>contract 1.3</Tag> }]} />
      <List header="Its parts" bordered dataSource={['@portal/antd-more']} renderItem={(part: string) => <List.Item>{part}</List.Item>} />
    </>
  );
}

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^1.3.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, MoreRelease)],
};

export default remote;
`;

/** A fingerprint of every file of the host's build. */
function hostBuild(): string {
  const dir = join(repoRoot, 'host', 'dist');
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex');
}

test.describe('a remote deployed alone', () => {
  test.setTimeout(300_000);
  test.afterEach(() => restorePin('tokens', 'remote-tokens'));

  test('a new version with a new API call runs on the host built before it', async ({ page }) => {
    const before = hostBuild();
    const tarball = buildRemoteVersion('remote-tokens', VERSION, { 'src/routes.tsx': ROUTES });
    expect(hostBuild()).toBe(before);

    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(new RegExp(`^Published tokens ${VERSION.replace(/\./g, '\\.')} \\(contract \\^1\\.5\\.0, \\d+ files\\)`));
    expect(portal('remotes', 'pin', 'local', `tokens@${VERSION}`, '--reason', 'new release check', '--by', 'platform admin')).toBe(
      `local now runs tokens ${VERSION} (was ${builtVersion('remote-tokens')}), from the next page load.\n`,
    );
    const entries: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/remotes/tokens/')) entries.push(new URL(request.url()).pathname);
    });
    await page.goto('/tokens/services');
    await expectChrome(page, { sidebar: false });
    await expect(page.getByTestId('release')).toHaveText(`tokens ${VERSION}: database ok`);
    expect(entries.some((path) => path.startsWith(`/remotes/tokens/${VERSION}/`))).toBe(true);

    // Rolled back (the pin to the version before): the earlier release runs again, same host.
    portal('remotes', 'rollback', 'local', 'tokens', '--reason', 'back to the release before', '--by', 'platform admin');
    expect(portal('remotes', 'history', 'local', 'tokens')).toMatch(
      new RegExp(`rollback +${VERSION.replace(/\./g, '\\.')} +${builtVersion('remote-tokens').replace(/\./g, '\\.')} +platform admin +back to the release before\n`),
    );
    entries.length = 0;
    await page.goto('/tokens/services');
    await expect(page.getByRole('heading', { name: 'Service Tokens' })).toBeVisible();
    await expect(page.getByTestId('release')).toHaveCount(0);
    expect(entries.some((path) => path.startsWith(`/remotes/tokens/${VERSION}/`))).toBe(false);
    expect(hostBuild()).toBe(before);
  });

  test("a version built for contract 1.1 (importing antd whole) still runs, in the host's antd and theme", async ({ browser }) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'remote-tokens', 'package.json'), 'utf8')) as { portal: Record<string, unknown> };
    const tarball = buildRemoteVersion('remote-tokens', OLD_VERSION, {
      'webpack.config.cjs': OLD_WEBPACK_CONFIG,
      'src/routes.tsx': OLD_ROUTES,
      'package.json': JSON.stringify({ ...pkg, version: OLD_VERSION, portal: { ...pkg.portal, contract: '^1.1.0' } }, null, 2),
    });
    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(new RegExp(`^Published tokens ${OLD_VERSION.replace(/\./g, '\\.')} \\(contract \\^1\\.1\\.0, \\d+ files\\)`));
    portal('remotes', 'pin', 'local', `tokens@${OLD_VERSION}`, '--reason', 'an older build', '--by', 'platform admin');

    // In the dark theme: a Table and Tag from another copy of antd would not see the host's theme.
    const context = await browser.newContext({ colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      const scripts: { path: string; bytes: Promise<number> }[] = [];
      page.on('requestfinished', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.endsWith('.js')) scripts.push({ path, bytes: request.sizes().then((sizes) => sizes.responseBodySize) });
      });
      await page.goto('/tokens/services');
      const cell = page.getByRole('cell', { name: 'built for contract 1.1' });
      await expect(cell).toBeVisible();
      const background = await page.locator('.ant-table').evaluate((table) => getComputedStyle(table).backgroundColor);
      const [red, green, blue] = (background.match(/\d+/g) ?? []).map(Number);
      expect(red! + green! + blue!, `the table's background ${background} is the dark theme's`).toBeLessThan(200);
      // The remote's own files are its entry and its page: the antd it uses is the host's.
      const own = await Promise.all(scripts.filter((s) => s.path.startsWith(`/remotes/tokens/${OLD_VERSION}/`)).map(async (s) => `${s.path} ${await s.bytes}`));
      const ownBytes = own.reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);
      expect(ownBytes, own.join('\n')).toBeLessThan(40_000);
      expect(scripts.some((s) => !s.path.startsWith('/remotes/'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  test('a version built for contract 1.3 (its descriptions and lists from @portal/antd-more, its own bundler runtime) still runs, in the host\'s antd and theme', async ({ browser }) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'remote-tokens', 'package.json'), 'utf8')) as { portal: Record<string, unknown> };
    const tarball = buildRemoteVersion('remote-tokens', MORE_VERSION, {
      'webpack.config.cjs': MORE_WEBPACK_CONFIG,
      'src/routes.tsx': MORE_ROUTES,
      'package.json': JSON.stringify({ ...pkg, version: MORE_VERSION, portal: { ...pkg.portal, contract: '^1.3.0' } }, null, 2),
    });
    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(new RegExp(`^Published tokens ${MORE_VERSION.replace(/\./g, '\\.')} \\(contract \\^1\\.3\\.0, \\d+ files\\)`));
    portal('remotes', 'pin', 'local', `tokens@${MORE_VERSION}`, '--reason', 'a 1.3 build', '--by', 'platform admin');

    const context = await browser.newContext({ colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      const entries: Promise<string>[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith(`/remotes/tokens/${MORE_VERSION}/remoteEntry.js`)) entries.push(response.text());
      });
      await page.goto('/tokens/services');
      await expect(page.getByRole('cell', { name: 'contract 1.3' })).toBeVisible();
      await expect(page.getByRole('listitem').filter({ hasText: '@portal/antd-more' })).toBeVisible();
      // The host's antd: its dark theme reaches the release's descriptions (light text; another
      // copy of antd would draw them in its default light theme, dark text: rgba(0, 0, 0, 0.45)).
      const color = await page.locator('.ant-descriptions-item-label').evaluate((cell) => getComputedStyle(cell).color);
      expect(color, "the label's colour is the dark theme's").toMatch(/^rgba?\(255, 255, 255/);
      // Its entry brought its own bundler runtime (a 1.4 build's takes the host's): both run on this host.
      expect((await Promise.all(entries)).some((text) => text.includes('Federation instance not found'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  test("a version built for contract 1.2 (its forms from @portal/shared's root) still runs: its form loads, checks and shows the submission's error", async ({ page }) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'remote-tokens', 'package.json'), 'utf8')) as { portal: Record<string, unknown> };
    const tarball = buildRemoteVersion('remote-tokens', FORMS_VERSION, {
      'src/routes.tsx': ROOT_FORMS_ROUTES,
      'package.json': JSON.stringify({ ...pkg, version: FORMS_VERSION, portal: { ...pkg.portal, contract: '^1.2.0' } }, null, 2),
    });
    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(new RegExp(`^Published tokens ${FORMS_VERSION.replace(/\./g, '\\.')} \\(contract \\^1\\.2\\.0, \\d+ files\\)`));
    portal('remotes', 'pin', 'local', `tokens@${FORMS_VERSION}`, '--reason', 'a 1.2 build', '--by', 'platform admin');

    await page.goto('/tokens/services');
    const name = page.getByRole('textbox', { name: 'Name' });
    await expect(name).toBeVisible();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Please enter a name.')).toBeVisible();
    await name.fill('Ada');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Refused by the 1.2 release' })).toBeVisible();
  });
});
