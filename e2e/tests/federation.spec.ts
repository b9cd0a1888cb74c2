/**
 * The federated portal in a real browser against the real server: every remote's routes render
 * inside the chrome, a remote that cannot be loaded takes only its own slot down, react-dom is
 * loaded once, and a changed pin in the environment manifest is honoured after a reload.
 */
import type { Page } from '@playwright/test';
import {
  builtVersion,
  deployCopy,
  expectChrome,
  navigateInApp,
  pinRemote,
  replaceInBuild,
  restoreManifest,
  rewriteBuildFile,
  UNAVAILABLE,
} from './portal';
import { ROUTES } from './routes';
import { expect, test } from './session';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

test.afterEach(() => restoreManifest());

for (const [app, routes] of Object.entries(ROUTES)) {
  test(`${app}: every route renders inside the chrome`, async ({ page }) => {
    for (const [path, title, visitor] of routes) {
      await page.goto(path);
      await expect(heading(page, title), path).toBeVisible();
      expect(new URL(page.url()).pathname, 'the page stays where it was opened').toBe(path);
      await expectChrome(page, { sidebar: !visitor });
    }
  });
}

test('/renew-account is only for a session that must renew: others land on the profile', async ({ page }) => {
  await page.goto('/renew-account');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
});

test('signed in, the empty path leads to the profile', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
});

test('the host’s own routes: unknown paths and the bare group routes', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/not-found$/);
  await expect(page.getByText('The requested resource was not found.')).toBeVisible();

  await page.goto('/tokens/no-such-token-page');
  await expect(page).toHaveURL(/\/not-found$/);

  await page.goto('/group-administration');
  await expect(page).toHaveURL(/\/groups$/);
  await expect(heading(page, 'Groups')).toBeVisible();
});

test('a remote that cannot be reached shows the unavailable panel, and the rest keeps working', async ({ page }) => {
  await page.route('**/remotes/groups/**', (route) => route.abort('connectionrefused'));
  await page.goto('/groups');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expectChrome(page);

  // The other remotes, reached from the sidebar, still work.
  await page.getByRole('link', { name: 'Subscriptions' }).click();
  await expect(heading(page, 'Subscriptions')).toBeVisible();
  await page.getByRole('link', { name: 'Mailing Lists' }).click();
  await expect(heading(page, 'Mailing Lists')).toBeVisible();

  // Back on the broken part: once the network is back, Retry brings it.
  await page.getByRole('link', { name: 'Groups' }).click();
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await page.unroute('**/remotes/groups/**');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(heading(page, 'Groups')).toBeVisible();
});

test('a remote whose files are missing (404) shows the unavailable panel', async ({ page }) => {
  pinRemote('tokens', { version: '9.9.9' });
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expectChrome(page);
  await page.getByRole('link', { name: 'My Profile' }).click();
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
});

test('a remote whose script fails shows the unavailable panel', async ({ page }) => {
  // A deployment whose container throws when it runs.
  const remove = deployCopy('remote-tokens', '0.0.1-broken', (dir) =>
    rewriteBuildFile(dir, 'remoteEntry.js', "throw new Error('broken deployment');\n"),
  );
  try {
    pinRemote('tokens', { version: '0.0.1-broken' });
    await page.goto('/tokens/services');
    await expect(page.getByText(UNAVAILABLE)).toBeVisible();
    await expectChrome(page);
  } finally {
    remove();
  }
});

test('a remote needing a contract this host lacks is not loaded and shows the unavailable panel', async ({ page }) => {
  pinRemote('tokens', { contract: '^2.0.0' });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  expect(requested.filter((url) => url.includes('/remotes/tokens/'))).toEqual([]);
});

test('react-dom is loaded once, however many remotes the page uses', async ({ page }) => {
  const reactDomCopies: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.text().catch(() => '');
    if (body.includes('rendererPackageName:"react-dom"')) reactDomCopies.push(response.url());
  });
  await page.goto('/profile');
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
  for (const [link, title] of [
    ['Groups', 'Groups'],
    ['Mailing Lists', 'Mailing Lists'],
    ['Subscriptions', 'Subscriptions'],
  ] as const) {
    await page.getByRole('link', { name: link }).click();
    await expect(heading(page, title)).toBeVisible();
  }
  await navigateInApp(page, '/tokens/services');
  await expect(heading(page, 'Service Tokens')).toBeVisible();
  await navigateInApp(page, '/manage-accounts');
  await expect(heading(page, 'Search Accounts')).toBeVisible();

  // Every remote was used, and one react-dom served them all (the host's).
  await expect.poll(() => reactDomCopies.length).toBe(1);
  expect(reactDomCopies[0]).not.toContain('/remotes/');
  const remotesUsed = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('/remoteEntry.js')),
  );
  expect(remotesUsed.map((u) => new URL(u).pathname.split('/')[2]).sort()).toEqual(
    ['adjudication', 'groups', 'mailing_lists', 'self_service', 'tokens'],
  );
});

test('a changed pin in the environment manifest is honoured after a reload, with no rebuild', async ({ page }) => {
  const current = builtVersion('remote-tokens');
  const remove = deployCopy('remote-tokens', '0.1.1-e2e', (dir) => replaceInBuild(dir, 'Service Tokens', 'Service Tokens, release 0.1.1'));
  try {
    await page.goto('/tokens/services');
    await expect(heading(page, 'Service Tokens')).toBeVisible();

    pinRemote('tokens', { version: '0.1.1-e2e' });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.reload();
    await expect(heading(page, 'Service Tokens, release 0.1.1')).toBeVisible();
    expect(requested).toContain('/remotes/tokens/0.1.1-e2e/remoteEntry.js');
    expect(requested.some((p) => p.startsWith(`/remotes/tokens/${current}/`))).toBe(false);

    // A rollback is a pin back to the earlier version.
    restoreManifest();
    await page.reload();
    await expect(heading(page, 'Service Tokens')).toBeVisible();
  } finally {
    remove();
  }
});

test('the environment manifest is served no-store and names each remote’s entry', async ({ request }) => {
  const response = await request.get('/environment.json');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  const manifest = await response.json();
  expect(manifest.remotes.map((r: { name: string; entry: string }) => [r.name, r.entry])).toEqual([
    ['self_service', `/remotes/self_service/${builtVersion('remote-self-service')}/mf-manifest.json`],
    ['groups', `/remotes/groups/${builtVersion('remote-groups')}/mf-manifest.json`],
    ['adjudication', `/remotes/adjudication/${builtVersion('remote-adjudication')}/mf-manifest.json`],
    ['mailing_lists', `/remotes/mailing_lists/${builtVersion('remote-mailing-lists')}/mf-manifest.json`],
    ['tokens', `/remotes/tokens/${builtVersion('remote-tokens')}/mf-manifest.json`],
  ]);
});

test('the browser is sent compressed files, hashed ones cached for good and the page itself never', async ({ page }) => {
  const seen: { path: string; encoding?: string; cache?: string }[] = [];
  page.on('response', (response) => {
    const headers = response.headers();
    seen.push({ path: new URL(response.url()).pathname, encoding: headers['content-encoding'], cache: headers['cache-control'] });
  });
  await page.goto('/groups');
  await expect(heading(page, 'Groups')).toBeVisible();

  const document = seen.find((r) => r.path === '/groups');
  expect(document?.cache).toBe('no-store');
  const hashed = seen.filter((r) => /\.[0-9a-f]{16}\.js$/.test(r.path));
  expect(hashed.some((r) => r.path.startsWith('/remotes/groups/'))).toBe(true);
  for (const r of hashed) expect(r.cache, r.path).toBe('public, max-age=31536000, immutable');
  // The big ones (antd, react-dom) arrive as brotli.
  expect(hashed.filter((r) => r.encoding === 'br').length).toBeGreaterThanOrEqual(2);
  const entry = seen.find((r) => r.path.endsWith('/remoteEntry.js'));
  expect(entry?.cache).toBe('no-cache');
});

test('hovering a sidebar link starts loading its remote before the click', async ({ page }) => {
  await page.goto('/profile');
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
  const entry = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/remotes/mailing_lists/'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mailing Lists' }).hover();
  await entry; // fetched on hover, with no click yet
  expect(new URL(page.url()).pathname).toBe('/profile');
});
