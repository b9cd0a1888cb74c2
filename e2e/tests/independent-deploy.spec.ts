/**
 * A remote deploys on its own schedule: its team builds a new version whose
 * API client has a call the host has never seen (a new endpoint definition bundled in the
 * remote), publishes it as a tarball from its own build output, a platform administrator pins
 * it, and it runs in Chromium against the host build that was made before, with no host rebuild;
 * a rollback brings back the version before. Its sidebar entries are its own to declare (host
 * contract 2.0), so is a component outside the portal's set, and so is the queue of a request
 * kind a server module adds (docs/extending.md), with that kind's new permissions; a build
 * written for contract 1 is refused at pin.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtVersion, expectChrome, pin, portal, portalCommand, publishCopy, repoRoot, restorePin } from './portal';
import type { Browser } from '@playwright/test';
import { guideFiles } from '../../scripts/workspace-copy.mjs';
import { pressInDialog } from './dialog';
import { startPortalWithGuideKind } from './new-kind';
import { buildRemoteVersion } from './remote-builds';
import { newApplicant, submitAccountRequest } from './visitor-flows';
import { demoToken, expect, submitTokenSignIn, test } from './session';

const VERSION = '0.9.0-e2e';
/** A copy of the current build whose record declares other sidebar entries. */
const SIDEBAR_VERSION = '0.9.1-e2e';
/** A copy of the current build that says it was written for host contract 1. */
const OLD_CONTRACT_VERSION = '0.8.1-e2e';
/** A version that brings an antd component the portal's set lacks. */
const BROUGHT_VERSION = '0.9.2-e2e';
/** A version that owns the queue of a request kind the host's build never heard of. */
const KIND_VERSION = '0.9.3-e2e';

/**
 * remote-tokens' own route table with the queue's routes added, as its team edits it (the pages
 * lazily loaded): the release's src/routes.tsx.
 */
function routesWithQueue(): string {
  const routes = readFileSync(join(repoRoot, 'remote-tokens', 'src', 'routes.tsx'), 'utf8');
  const imports = "import type { RemoteModule } from '@portal/shared';\n";
  const lastRoute = '    pageRoute(pages.serviceTokens, ServiceTokensPage),\n';
  const declaration = 'const remote: RemoteModule = {';
  for (const anchor of [imports, declaration, lastRoute]) expect(routes).toContain(anchor);
  return routes
    .replace(
      imports,
      [
        "import { serviceTokenRequestKind } from '@portal/api/request-kinds/service-token';",
        imports.trimEnd(),
        "import { lazyPage } from '@portal/shared/components';",
        "import { queueInfo, queueRoutes } from '@portal/shared/requests';",
        '',
      ].join('\n'),
    )
    .replace(
      declaration,
      [
        "const serviceTokenQueue = () => import('./requests/serviceTokenQueue');",
        "const queuePages = { list: lazyPage(serviceTokenQueue, 'ServiceTokenRequestsPage'), detail: lazyPage(serviceTokenQueue, 'ServiceTokenRequestPage') };",
        '',
        declaration,
      ].join('\n'),
    )
    .replace(lastRoute, `${lastRoute}    ...queueRoutes(queueInfo(serviceTokenRequestKind), queuePages),\n`);
}

/** remote-tokens' src/navigation.ts with the new kind's queue among its entries (docs/extending.md, "Adding a request kind"). */
function navigationWithQueue(): string {
  const navigation = readFileSync(join(repoRoot, 'remote-tokens', 'src', 'navigation.ts'), 'utf8');
  const imports = "import { pageEntry, tokensPages } from '@portal/api';\n";
  const end = '\n];\n';
  for (const anchor of [imports, end]) expect(navigation).toContain(anchor);
  return navigation
    .replace(imports, "import { pageEntry, queueEntry, tokensPages } from '@portal/api';\nimport { serviceTokenRequestKind } from '@portal/api/request-kinds/service-token';\n")
    .replace(end, "\n  queueEntry(serviceTokenRequestKind, { order: 95, label: 'Service Token Requests' }),\n];\n");
}

/** Its page: a Steps (not in the portal's antd) under a heading and above a Button (the portal's). */
const BROUGHT_ROUTES = `
import { Button, Steps } from 'antd';
import { PageTitle, PUBLIC, route, type RemoteModule } from '@portal/shared';

function Progress() {
  return (
    <>
      <PageTitle>Service Tokens</PageTitle>
      <Steps current={1} items={[{ title: 'Requested' }, { title: 'Approved' }, { title: 'Provisioned' }]} />
      <Button type="primary">Renew</Button>
    </>
  );
}

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^2.0.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, Progress)],
};

export default remote;
`;

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
  contract: '^2.0.0',
  routes: [route('tokens/services', 'Service Tokens', PUBLIC, ReleaseCheck)],
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

    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(new RegExp(`^Published tokens ${VERSION.replace(/\./g, '\\.')} \\(contract \\^2\\.0\\.0, \\d+ files\\)`));
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

  test('a version that declares other sidebar entries changes the sidebar, counts included, on the host built before it', async ({ browser, page }) => {
    const before = hostBuild();
    // A request waits in the account requests' queue, so that its count shows.
    const visitor = await browser.newContext();
    try {
      await submitAccountRequest(await visitor.newPage(), newApplicant('Tally', 'Reviews'));
    } finally {
      await visitor.close();
    }
    const navigation = [
      { section: 'main', order: 5, label: 'Service Tokens', path: '/tokens/services' },
      { section: 'manage-accounts', order: 90, label: 'Token Reviews', path: '/tokens/artifactory', permission: 'LIST_NEW_ACCOUNT_REQUESTS', count: 'total_new' },
    ];
    expect(publishCopy('remote-tokens', SIDEBAR_VERSION, () => undefined, { navigation })).toMatch(/^Published tokens /);
    pin('tokens', SIDEBAR_VERSION);

    await page.goto('/profile');
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    // The first entry of the first block now, alone (no Tokens submenu: this version declares none).
    await expect(sidebar.getByRole('menuitem').first()).toHaveText('Service Tokens');
    await expect(sidebar.getByRole('link', { name: 'Other Services' })).toHaveCount(0);
    await expect(sidebar.getByRole('link', { name: 'Artifactory' })).toHaveCount(0);
    // Its queue-like entry reads the request summary's field it names, as the account requests' queue does.
    const accountRequests = sidebar.getByRole('link', { name: /^Account Requests/ });
    await expect(accountRequests).toHaveText(/^Account Requests \(\d+\)$/);
    const count = (await accountRequests.textContent())?.slice('Account Requests'.length);
    await expect(sidebar.getByRole('link', { name: /^Token Reviews/ })).toHaveText(`Token Reviews${count}`);
    await expect(sidebar.getByRole('link', { name: /^Token Reviews/ })).toHaveAttribute('href', '/tokens/artifactory');
    await sidebar.getByRole('link', { name: 'Service Tokens' }).click();
    await expect(page.getByRole('heading', { name: 'Service Tokens' })).toBeVisible();
    expect(hostBuild()).toBe(before);
  });

  test("a version that brings an antd component outside the portal's set draws it in the portal's theme, light and dark, on the host built before it", async ({ browser }) => {
    const before = hostBuild();
    expect(() => buildRemoteVersion('remote-tokens', BROUGHT_VERSION, { 'src/routes.tsx': BROUGHT_ROUTES })).toThrow(
      /Steps is not in the portal's antd: add it to shared\/src\/antd-extra\.ts \(antd-core\.ts if the shell needs it\), or bring it with this app \("portal": \{ "brings": \["Steps"\] \} in its package\.json\)/,
    );
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'remote-tokens', 'package.json'), 'utf8')) as { portal: object };
    const brings = JSON.stringify({ ...pkg, version: BROUGHT_VERSION, portal: { ...pkg.portal, brings: ['Steps'] } }, null, 2);
    const tarball = buildRemoteVersion('remote-tokens', BROUGHT_VERSION, { 'src/routes.tsx': BROUGHT_ROUTES, 'package.json': brings });
    expect(hostBuild()).toBe(before);
    expect(portal('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(/^Published tokens /);
    pin('tokens', BROUGHT_VERSION);

    // The theme's primary colour and text colour, as the portal's own Button and heading draw them:
    // the brought Steps's current step takes the same (antd's defaults would be rgb(22, 119, 255) and
    // the light theme's text in both).
    const drawn = async (browser: Browser, colorScheme: 'light' | 'dark') => {
      const context = await browser.newContext({ colorScheme });
      try {
        const page = await context.newPage();
        await page.goto('/tokens/services');
        const current = page.locator('.ant-steps-item-process');
        await expect(current).toContainText('Approved');
        const renew = page.getByRole('button', { name: 'Renew' });
        await expect(renew).toBeVisible();
        const color = (locator: typeof renew, property: string) => locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
        return {
          primary: await color(renew, 'background-color'),
          text: await color(page.getByRole('heading', { name: 'Service Tokens' }), 'color'),
          stepIcon: await color(current.locator('.ant-steps-item-icon'), 'background-color'),
          stepTitle: await color(current.locator('.ant-steps-item-title'), 'color'),
          page: await color(page.locator('body'), 'background-color'),
        };
      } finally {
        await context.close();
      }
    };
    const light = await drawn(browser, 'light');
    const dark = await drawn(browser, 'dark');
    expect(light.primary).toBe('rgb(9, 88, 217)');
    expect({ icon: light.stepIcon, title: light.stepTitle }).toEqual({ icon: light.primary, title: light.text });
    expect(dark.text).not.toBe(light.text);
    expect({ icon: dark.stepIcon, title: dark.stepTitle }).toEqual({ icon: dark.primary, title: dark.text });
    expect(hostBuild()).toBe(before);
  });

  test('a new request kind, added by its declaration and server module (files only) and a remote version owning its queue, is listed with its count and decided, its new permissions passed through the host built before it', async ({ browser }) => {
    test.setTimeout(420_000);
    const before = hostBuild();
    const kindPortal = await startPortalWithGuideKind();
    try {
      // The team's release: the queue's module (docs/extending.md's step 4), its routes, its sidebar entry with its count.
      const queueModule = guideFiles('Adding a request kind').get('remote-tokens/src/requests/serviceTokenQueue.tsx');
      if (queueModule === undefined) throw new Error("docs/extending.md has no remote-tokens/src/requests/serviceTokenQueue.tsx");
      const pkg = JSON.parse(readFileSync(join(repoRoot, 'remote-tokens', 'package.json'), 'utf8')) as { portal: { routes: string[] } };
      const release = { ...pkg, version: KIND_VERSION, portal: { ...pkg.portal, routes: [...pkg.portal.routes, '/list-service-token-requests'] } };
      const tarball = buildRemoteVersion(
        'remote-tokens',
        KIND_VERSION,
        { 'src/requests/serviceTokenQueue.tsx': queueModule, 'src/routes.tsx': routesWithQueue(), 'src/navigation.ts': navigationWithQueue(), 'package.json': JSON.stringify(release, null, 2) },
        { workspace: kindPortal.workspace },
      );
      expect(kindPortal.cli('remotes', 'publish', tarball, '--by', 'tokens team')).toMatch(/^Published tokens /);
      kindPortal.cli('remotes', 'pin', 'local', `tokens@${KIND_VERSION}`, '--reason', 'service token queue', '--by', 'platform admin');

      const context = await browser.newContext({ baseURL: kindPortal.server.url });
      try {
        // The help desk does not work the kind (its declaration's workedBy): no entry.
        const desk = await context.newPage();
        await desk.goto('/login?redirect=/profile');
        await submitTokenSignIn(desk, 'helpdesk', demoToken('helpdesk', kindPortal.dataDir));
        const deskSidebar = desk.getByRole('navigation', { name: 'Main' });
        await expect(deskSidebar.getByRole('link', { name: /^Unlock Account Requests/ })).toBeVisible();
        await expect(deskSidebar.getByRole('link', { name: /^Service Token Requests/ })).toHaveCount(0);
        await desk.getByRole('link', { name: 'Logout' }).click();

        const page = await context.newPage();
        await page.goto('/login?redirect=/profile');
        await submitTokenSignIn(page, 'adjudicator', demoToken('adjudicator', kindPortal.dataDir));
        const sidebar = page.getByRole('navigation', { name: 'Main' });
        const queue = sidebar.getByRole('link', { name: /^Service Token Requests/ });
        await expect(queue).toHaveText('Service Token Requests (1)');
        await queue.click();
        await expect(page.getByRole('heading', { name: 'Service Token Requests' })).toBeVisible();
        const row = page.getByRole('row').filter({ hasText: 'ci' });
        await expect(row).toContainText('user');
        await row.getByRole('link', { name: '[details]' }).click();
        await expect(page.getByRole('heading', { name: 'Service Token Request' })).toBeVisible();
        await expect(page.getByText('Nightly builds.')).toBeVisible();
        await page.getByRole('button', { name: 'Approve' }).click();
        await pressInDialog(page, 'Approve');
        await expect(page.getByText('Service token request for ci approved.')).toBeVisible();
        await expect(page).toHaveURL(/\/list-service-token-requests$/);
        await expect(queue).toHaveText('Service Token Requests');
      } finally {
        await context.close();
      }
    } finally {
      await kindPortal.server.stop();
    }
    expect(hostBuild()).toBe(before);
  });

  test('a version built for host contract 1 is refused at pin time, saying which contract this host implements', () => {
    publishCopy('remote-tokens', OLD_CONTRACT_VERSION, () => undefined, { contract: '^1.5.0' });
    const refused = portalCommand('remotes', 'pin', 'local', `tokens@${OLD_CONTRACT_VERSION}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `Cannot pin: tokens ${OLD_CONTRACT_VERSION} cannot be pinned: it needs host contract ^1.5.0, and the host of local implements 2.0.0. Pin a version written for contract 2.0.0.`,
    );
  });
});
