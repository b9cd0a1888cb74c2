/**
 * The federated portal in a real browser against the real server: a remote that cannot be loaded
 * takes only its own slot down, react-dom is loaded once, and a published version pinned from the
 * command line runs after a reload. (That every remote's routes render inside the chrome is shown
 * by a11y-every-screen.spec.ts, which opens each of them.)
 */
import type { Page } from '@playwright/test';
import {
  builtVersion,
  expectChrome,
  navigateInApp,
  pin,
  portalCommand,
  publishCopy,
  replaceInBuild,
  restorePin,
  rewriteBuildFile,
  saveData,
  storeFile,
  UNAVAILABLE,
} from './portal';
import { rmSync } from 'node:fs';
import { expect, test } from './session';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

test.afterEach(() => restorePin('tokens', 'remote-tokens'));

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

test('a remote whose files were removed from the store after it was pinned shows the unavailable panel', async ({ page }) => {
  publishCopy('remote-tokens', '0.0.2-e2e-missing', () => undefined);
  pin('tokens', '0.0.2-e2e-missing');
  rmSync(storeFile('tokens', '0.0.2-e2e-missing', 'remoteEntry.js'));
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expectChrome(page);
  await page.getByRole('link', { name: 'My Profile' }).click();
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
});

test('a remote whose script fails shows the unavailable panel', async ({ page }) => {
  // A release whose container throws when it runs (published as it is: its digests match).
  publishCopy('remote-tokens', '0.0.1-e2e-broken', (dir) => rewriteBuildFile(dir, 'remoteEntry.js', "throw new Error('broken deployment');\n"));
  pin('tokens', '0.0.1-e2e-broken');
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expectChrome(page);
});

test('a version needing a contract this host lacks is refused at pin time, and the pinned one keeps running', async ({ page }) => {
  publishCopy('remote-tokens', '2.0.0-e2e', () => undefined, { contract: '^3.0.0' });
  const refused = portalCommand('remotes', 'pin', 'local', 'tokens@2.0.0-e2e');
  expect(refused.status).toBe(1);
  expect(refused.stderr.trim()).toBe(
    'Cannot pin: tokens 2.0.0-e2e cannot be pinned: it needs host contract ^3.0.0, and the host of local implements 2.0.0. Pin a version written for contract 2.0.0.',
  );
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/tokens/services');
  await expect(heading(page, 'Service Tokens')).toBeVisible();
  expect(requested.some((path) => path.startsWith('/remotes/tokens/2.0.0-e2e/'))).toBe(false);
});

test('a published file changed in the store is refused by the server, which logs why; the panel shows', async ({ page }) => {
  publishCopy('remote-tokens', '0.0.3-e2e-changed', () => undefined);
  pin('tokens', '0.0.3-e2e-changed');
  const entry = storeFile('tokens', '0.0.3-e2e-changed', 'remoteEntry.js');
  rewriteBuildFile(entry.slice(0, entry.lastIndexOf('/')), 'remoteEntry.js', "document.title = 'changed after publishing';\n");
  const answers: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/remotes/tokens/0.0.3-e2e-changed/remoteEntry.js')) answers.push(response.status());
  });
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  expect(answers.length).toBeGreaterThan(0);
  expect(new Set(answers)).toEqual(new Set([404]));
  await expect(page).not.toHaveTitle('changed after publishing');
});

test('an entry file changed on its way to the browser does not run: subresource integrity', async ({ page }) => {
  const version = builtVersion('remote-tokens');
  const ran: string[] = [];
  page.on('console', (message) => ran.push(message.text()));
  // A proxy or CDN between the portal and the browser changes remoteEntry.js.
  await page.route(`**/remotes/tokens/${version}/remoteEntry.js`, async (route) => {
    const response = await route.fetch({ headers: { ...route.request().headers(), 'accept-encoding': 'identity' } });
    const body = `console.log('tampered entry ran');\n${await response.text()}`;
    // The browser may give up a request while its answer is fetched (the preload hint's copy, once
    // the script's own request is on its way): such a request needs no answer.
    await route
      .fulfill({ response, body, headers: { ...response.headers(), 'content-encoding': 'identity', 'content-length': String(Buffer.byteLength(body)) } })
      .catch((error: Error) => {
        if (!/already handled/.test(error.message)) throw error;
      });
  });
  await page.goto('/tokens/services');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  expect(ran).not.toContain('tampered entry ran');
  expect(ran.some((text) => /integrity/i.test(text))).toBe(true);

  // Without the tampering, the same page works.
  await page.unroute(`**/remotes/tokens/${version}/remoteEntry.js`);
  await page.goto('/tokens/services');
  await expect(heading(page, 'Service Tokens')).toBeVisible();
});

test('react-dom and the federation runtime are loaded once, however many remotes the page uses', async ({ page }) => {
  const reactDomCopies: string[] = [];
  const bundlerRuntimeCopies: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.text().catch(() => '');
    if (body.includes('rendererPackageName:"react-dom"')) reactDomCopies.push(response.url());
    // A message of module federation's bundler runtime (how a container's chunks consume shared modules).
    if (body.includes('Federation instance not found!')) bundlerRuntimeCopies.push(response.url());
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

  // Every remote was used, and one react-dom served them all (the host's), and one bundler runtime
  // (each remote's entry takes the host's).
  await expect.poll(() => reactDomCopies.length).toBe(1);
  expect(reactDomCopies[0]).not.toContain('/remotes/');
  expect(bundlerRuntimeCopies).toHaveLength(1);
  expect(bundlerRuntimeCopies[0]).toMatch(/\/main\.[0-9a-f]+\.js$/);
  const remotesUsed = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('/remoteEntry.js')),
  );
  expect(remotesUsed.map((u) => new URL(u).pathname.split('/')[2]).sort()).toEqual(
    ['adjudication', 'groups', 'mailing_lists', 'self_service', 'tokens'],
  );
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('as /login starts, the host looks up each shared module it provides once, however many of its modules import it', async ({ page }) => {
    // Module federation's runtime takes the plugins listed on its global as it starts: this one
    // hears every lookup of a shared module (its resolveShare hook).
    await page.addInitScript(() => {
      const lookups: Record<string, number> = {};
      Object.assign(globalThis, {
        portalShareLookups: lookups,
        __FEDERATION__: {
          __GLOBAL_PLUGIN__: [
            {
              name: 'e2e-count-share-lookups',
              resolveShare(args: { pkgName: string }) {
                lookups[args.pkgName] = (lookups[args.pkgName] ?? 0) + 1;
                return args;
              },
            },
          ],
        },
      });
    });
    await page.goto('/login');
    await expect(page.getByRole('tab', { name: 'Returning Users' })).toBeVisible();
    const lookups = await page.evaluate(() => (globalThis as unknown as { portalShareLookups: Record<string, number> }).portalShareLookups);
    expect(Object.keys(lookups)).toEqual(expect.arrayContaining(['react', 'react-dom', 'react/jsx-runtime', '@portal/antd-core', '@portal/antd-forms', '@portal/shared']));
    // Module federation's own bundler runtime asked again at every import: react 97 times.
    expect(Object.entries(lookups).filter(([, count]) => count !== 1)).toEqual([]);
  });
});

test('a published version pinned from the command line runs at the next reload; a rollback brings back the first', async ({ page }) => {
  const current = builtVersion('remote-tokens');
  publishCopy('remote-tokens', '0.1.1-e2e', (dir) => replaceInBuild(dir, 'Service Tokens', 'Service Tokens, release 0.1.1'));
  await page.goto('/tokens/services');
  await expect(heading(page, 'Service Tokens')).toBeVisible();

  pin('tokens', '0.1.1-e2e');
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.reload();
  await expect(heading(page, 'Service Tokens, release 0.1.1')).toBeVisible();
  expect(requested).toContain('/remotes/tokens/0.1.1-e2e/remoteEntry.js');
  expect(requested.some((p) => p.startsWith(`/remotes/tokens/${current}/`))).toBe(false);

  // A rollback pins the version that ran before.
  const rollback = portalCommand('remotes', 'rollback', 'local', 'tokens', '--reason', 'e2e rollback');
  expect(rollback.stderr).toBe('');
  expect(rollback.stdout).toBe(`local rolled tokens back to ${current} (was 0.1.1-e2e), from the next page load.\n`);
  await page.reload();
  await expect(heading(page, 'Service Tokens')).toBeVisible();
});

test('the environment manifest is served no-store and names each remote’s entry', async ({ request }) => {
  const response = await request.get('/environment.json');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  const manifest = await response.json();
  expect(manifest.remotes.map((r: { name: string; entry: string }) => [r.name, r.entry])).toEqual([
    ['adjudication', `/remotes/adjudication/${builtVersion('remote-adjudication')}/remoteEntry.js`],
    ['groups', `/remotes/groups/${builtVersion('remote-groups')}/remoteEntry.js`],
    ['mailing_lists', `/remotes/mailing_lists/${builtVersion('remote-mailing-lists')}/remoteEntry.js`],
    ['self_service', `/remotes/self_service/${builtVersion('remote-self-service')}/remoteEntry.js`],
    ['tokens', `/remotes/tokens/${builtVersion('remote-tokens')}/remoteEntry.js`],
  ]);
  // Each entry file's published digest, which the browser checks.
  for (const remote of manifest.remotes as { entry: string; integrity: Record<string, string> }[]) {
    expect(Object.keys(remote.integrity)).toEqual([remote.entry]);
    for (const digest of Object.values(remote.integrity)) expect(digest).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
  }
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

test("once the page has its content, the sidebar's remotes are loaded with no hover or click, and a visit to one then costs no remote file and no wait", async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto('/profile');
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
  await expect.poll(() => ['groups', 'mailing_lists', 'tokens'].filter((r) => fetched.some((p) => p.startsWith(`/remotes/${r}/`) && p.endsWith('/remoteEntry.js')))).toEqual([
    'groups',
    'mailing_lists',
    'tokens',
  ]);
  // Ahead of time means fetched and run: wait for the routes of every remote whose entry came (on a
  // busy machine the entries can run after a quiet half second, so the network's idleness alone
  // does not say the preloading is over), then for the network to be quiet.
  const remotesWith = (file: RegExp) => new Set(fetched.flatMap((p) => (file.test(p) ? [p.split('/')[2]] : [])));
  await expect
    .poll(() => [...remotesWith(/\/remoteEntry\.js$/)].filter((r) => !remotesWith(/\/__federation_expose_routes\.[0-9a-f]+\.js$/).has(r)), {
      message: 'every remote whose entry was fetched has its routes fetched too',
    })
    .toEqual([]);
  await page.waitForLoadState('networkidle');
  const before = fetched.length;
  // The shell's "Loading…" while a remote loads: a remote loaded ahead of time never shows it.
  await page.evaluate(() => {
    const w = window as unknown as { remoteLoadingShown: boolean };
    w.remoteLoadingShown = false;
    new MutationObserver(() => {
      if ([...document.querySelectorAll('[role="status"]')].some((e) => e.textContent === 'Loading…')) w.remoteLoadingShown = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
  await expect(heading(page, 'Groups')).toBeVisible();
  // The remote's entry and routes came ahead of time, and ran: only its page (and its data) now.
  expect(fetched.slice(before).filter((p) => /\/(?:remoteEntry\.js|__federation_expose_routes\.[0-9a-f]+\.js)$/.test(p))).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { remoteLoadingShown: boolean }).remoteLoadingShown)).toBe(false);
  // The host's runtime loads each remote's entry itself: no remote's mf-manifest.json is read.
  expect(fetched.filter((p) => p.endsWith('/mf-manifest.json'))).toEqual([]);
});

test('hovering a sidebar link starts loading its remote before the click (a reader saving data gets nothing ahead of time)', async ({ page }) => {
  await saveData(page);
  const early: string[] = [];
  page.on('request', (request) => early.push(new URL(request.url()).pathname));
  await page.goto('/profile');
  await expect(heading(page, 'User Profile: admin')).toBeVisible();
  const entry = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/remotes/mailing_lists/'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mailing Lists' }).hover();
  await entry; // fetched on hover, with no click yet
  expect(new URL(page.url()).pathname).toBe('/profile');
  expect(early.filter((p) => p.startsWith('/remotes/groups/') || p.startsWith('/remotes/tokens/'))).toEqual([]);
});
