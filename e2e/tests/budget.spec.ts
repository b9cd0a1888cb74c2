/**
 * Byte budgets: the JavaScript a browser downloads before the first content of
 * /login, /profile and /groups (a table), counted in bytes on the wire (brotli, as the build precompresses it) on
 * a cold cache. Bytes, not time: the same build always gives the same figure, so a change that
 * makes a first visit heavier fails here instead of creeping in. Raise a budget only on purpose,
 * with the reason in the commit.
 */
import type { Page, Request, Response } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { loadAndLook } from './antd-looks';
import { saveData } from './portal';
import { test } from './session';

/**
 * Bytes of JavaScript (compressed, as sent) before content. Measured 2026-11-25 with the portal's
 * antd shared in parts (the sign-in page loads only the first), the router shared as the set the
 * apps use, and what the host needs at start built into its first file: /login 288,071 and
 * /profile 384,961 (with the whole antd set shared they were 415,869 and 437,327; with the whole
 * library 548,557 and 584,554). Measured 2026-11-26 with the form stack out of the host's first
 * file (@portal/shared/forms, the form libraries and antd's forms part, loaded with the sign-in
 * page and the remotes' form pages): /profile 353,394; /login 300,484, which the sign-in page now
 * downloads as six files of their own instead of inside the first (brotli packs them apart, and each
 * chunk carries its own wrapper). Measured 2026-11-26 with host contract 1.4 (antd's second part
 * split into the tables' and the details' parts, List among the extra ones; the remotes' entries
 * without their own copies of the shared modules and of the federation's bundler runtime; each
 * remote's first page without the API definitions of its other pages): /login 299,427, /profile
 * 347,640 (was 352,661), /groups 343,649 (was 355,491). Measured 2026-11-27 with host contract 1.5
 * (Tag in antd's first part, /profile's groups' table a chunk of its own, loaded once the account
 * has arrived): /login 301,813, /profile 266,408 (the tables' part no longer comes before its
 * heading), /groups 343,735. Measured 2026-11-27 with the host's federation runtime built without
 * the snapshot plugin (the remotes loaded by remoteEntry.js, no mf-manifest.json), webpack's shadowed
 * sharing runtime emitted empty and the remotes' entries without the runtime's table of error
 * texts: /login 297,780, /profile 262,077, /groups 339,277. The budgets leave about 1%.
 */
export const BUDGETS = {
  '/login': 301_000,
  '/profile': 265_000,
  '/groups': 343_000,
} as const;

async function javascriptBefore(page: Page, path: string, content: () => Promise<void>): Promise<{ bytes: number; files: string[] }> {
  // Once a page has its content the sidebar's remotes are fetched while the browser is idle
  // (SideNav): a reader saving data gets none of that, so only what the page itself needs counts.
  await saveData(page);
  const responses: Promise<{ url: string; bytes: number }>[] = [];
  const finished = (request: Request): void => {
    if (request.resourceType() !== 'script' && !request.url().endsWith('.js')) return;
    responses.push(request.sizes().then((sizes) => ({ url: new URL(request.url()).pathname, bytes: sizes.responseBodySize })));
  };
  page.on('requestfinished', finished);
  await page.goto(path);
  await content();
  // What finishes after the content does not count, and its sizes must not be asked for once the
  // test has closed the page (that failed a run with 'Target page, context or browser has been closed').
  page.off('requestfinished', finished);
  const seen = await Promise.all(responses);
  return { bytes: seen.reduce((sum, r) => sum + r.bytes, 0), files: seen.map((r) => `${r.url} ${r.bytes}`) };
}

base('/login: the JavaScript before the sign-in form stays within its budget', async ({ page }) => {
  const { bytes, files } = await javascriptBefore(page, '/login', () => expect(page.getByRole('tab', { name: 'Returning Users' })).toBeVisible());
  console.log(`/login: ${bytes} bytes of JavaScript before content\n  ${files.join('\n  ')}`);
  expect(bytes, files.join('\n')).toBeLessThanOrEqual(BUDGETS['/login']);
});

/**
 * The account is held back until the heading shows: once it arrives the page asks for its groups'
 * table (a chunk of its own since contract 1.5), which comes after the heading and is not counted.
 */
async function holdAccount(page: Page): Promise<() => void> {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/accounts/rest/accounts/admin', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('/profile: the JavaScript before the profile stays within its budget', async ({ page }) => {
  const release = await holdAccount(page);
  const { bytes, files } = await javascriptBefore(page, '/profile', () => expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible());
  release();
  console.log(`/profile: ${bytes} bytes of JavaScript before content\n  ${files.join('\n  ')}`);
  expect(bytes, files.join('\n')).toBeLessThanOrEqual(BUDGETS['/profile']);
});

test('/groups: the JavaScript before the groups table stays within its budget', async ({ page }) => {
  // The table with its rows, as the bench counts a table's content (scripts/bench-pages.mjs).
  const { bytes, files } = await javascriptBefore(page, '/groups', async () => {
    await expect(page.locator('table tbody tr:not(.ant-table-placeholder)').first()).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  });
  console.log(`/groups: ${bytes} bytes of JavaScript before content\n  ${files.join('\n  ')}`);
  expect(bytes, files.join('\n')).toBeLessThanOrEqual(BUDGETS['/groups']);
});

/** A signed-in page load asks the server each thing once, and nothing the first HTML carried. */
for (const [path, heading] of [
  ['/profile', 'User Profile: admin'],
  ['/groups', 'Groups'],
  ['/manage-accounts', 'Search Accounts'],
] as const) {
  test(`${path}: a page load makes no API call twice`, async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/accounts/rest/') || url.pathname === '/environment.json') calls.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 2, name: heading, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const twice = calls.filter((call, i) => calls.indexOf(call) !== i);
    expect(twice, calls.join('\n')).toEqual([]);
    // The first HTML carries the pins, the configuration, who is signed in and the session's
    // anti-forgery token: no round trip for any of them.
    expect(calls).not.toContain('GET /environment.json');
    expect(calls).not.toContain('GET /accounts/rest/configuration');
    expect(calls).not.toContain('GET /accounts/rest/sessions/current');
    expect(calls).not.toContain('GET /accounts/rest/xsrf');
  });
}

/**
 * antd's component styles come from the build (antd.[hash].css, written by
 * shared/build/antd-static-styles.cjs), not computed in the browser while the first page blocks.
 * Each page is loaded twice: as it is, and with the file blocked (antd then computes every style
 * in the browser, as it did before the file): every element must look the same both ways
 * (./antd-looks.ts; antd-styles.spec.ts does the same over a page for each component of the set).
 */
const PAGES = [
  { path: '/login', colorScheme: 'light', signedIn: false, content: (page: Page) => expect(page.getByRole('button', { name: 'CAC LOGIN' })).toBeVisible() },
  { path: '/login', colorScheme: 'dark', signedIn: false, content: (page: Page) => expect(page.getByRole('button', { name: 'CAC LOGIN' })).toBeVisible() },
  {
    path: '/profile',
    colorScheme: 'light',
    signedIn: true,
    // The account's details, not only the title (which renders before them, beside their skeleton).
    content: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Profile actions' })).toBeVisible();
    },
  },
  { path: '/groups', colorScheme: 'dark', signedIn: true, content: (page: Page) => expect(page.getByRole('link', { name: 'PORTAL', exact: true })).toBeVisible() },
] as const;

for (const { path, colorScheme, signedIn, content } of PAGES) {
  (signedIn ? test : base)(`${path}, ${colorScheme}: antd's styles come from the build's file, and the page looks as with styles computed in the browser`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const fromFile = await loadAndLook(page, path, () => content(page), { fileBlocked: false });
    await expect(page.locator('link[rel="stylesheet"][href^="/antd."]')).toHaveCount(1);
    expect(fromFile.computed, 'antd styles computed in the browser').toEqual([]);
    if (path === '/login') {
      // The theme applies: the primary button takes the theme's primary colour (the light theme's
      // blue-7, host/src/shell/themes.ts; the dark algorithm's), the page the theme's background.
      const [fill, background] = await page
        .getByRole('button', { name: 'CAC LOGIN' })
        .evaluate((button) => [getComputedStyle(button).backgroundColor, getComputedStyle(document.querySelector('.ant-layout')!).backgroundColor]);
      expect([fill, background]).toEqual(colorScheme === 'light' ? ['rgb(9, 88, 217)', 'rgb(245, 245, 245)'] : ['rgb(22, 104, 220)', 'rgb(0, 0, 0)']);
    }
    const computed = await loadAndLook(page, path, () => content(page), { fileBlocked: true });
    // Without the file antd computes its styles as before: the comparison compares something.
    expect(computed.computed.length).toBeGreaterThan(0);
    expect(fromFile.looks).toEqual(computed.looks);
  });
}

/**
 * The first HTML hints at the shell's chunks (what every page runs right after the host's
 * first file: the shell, and the code it shares with the sign-in page, split into a chunk of its
 * own), so that they are fetched alongside that file; and the page uses the files it hinted at.
 */
base('/not-found: the first HTML preloads every chunk of the shell, and the page uses those very downloads', async ({ page }) => {
  // Nothing fetched while the browser is idle (the sidebar's remotes): only what the page needs.
  await saveData(page);
  const hostScripts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/[^/]+\.js$/.test(path) && !path.startsWith('/main.')) hostScripts.push(path);
  });
  const response = await page.goto('/not-found');
  const preloads = [...((await response?.text()) ?? '').matchAll(/<link rel=preload as=script href=(\/[^\s>]+\.js)>/g)].map((m) => m[1]);
  expect(preloads.filter((path) => /^\/shell\.[0-9a-f]+\.js$/.test(path!))).toHaveLength(1);
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  // One request each, the hints': a chunk the shell needs that was not hinted at, a hint at
  // another file, or one the page could not use (a second download of it) would show here.
  expect(hostScripts.sort()).toEqual(preloads.sort());
});

/**
 * The sign-in page is a chunk of its own, with the form stack (@portal/shared/forms, the
 * form libraries, antd's forms part): the first HTML of /login hints at all of it (the build's
 * page-preloads.json), so it arrives with the host's first file, and the page uses those very
 * downloads; a signed-in page without a form (/profile) is hinted at none of it and downloads none.
 */
base('/login: the first HTML hints at the sign-in page and its forms, and the page uses those very downloads', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/[^/]+\.js$/.test(path)) requested.push(path);
  });
  const response = await page.goto('/login');
  const hints = [...((await response?.text()) ?? '').matchAll(/<link rel="preload" as="script" href="(\/[^"]+\.js)" fetchpriority="low">/g)].map((m) => m[1]!);
  expect(hints.filter((path) => /^\/login\.[0-9a-f]+\.js$/.test(path))).toHaveLength(1);
  expect(hints.length).toBeGreaterThan(3);
  await expect(page.getByRole('button', { name: 'CAC LOGIN' })).toBeVisible();
  // Each hinted file once: a hint the page could not use would be downloaded a second time.
  for (const hint of hints) expect(requested.filter((path) => path === hint), hint).toEqual([hint]);
});

test('/profile: downloads none of the form stack', async ({ page }) => {
  const scripts: Promise<string>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text());
  };
  page.on('response', onResponse);
  await saveData(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible();
  // The whole page, its groups' table too (its code comes after the account), then quiet.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // Read what arrived, and stop listening first: a body still being read when the test ends
  // failed it ("response.text: Test ended", seen once in CI).
  page.off('response', onResponse);
  const texts = await Promise.all(scripts);
  // final-form's form-level error key; a form state's name that final-form, react-final-form and
  // @portal/shared/forms (its FormSubmitError) each spell out.
  for (const mark of ['FINAL_FORM/form-error', 'dirtySinceLastSubmit']) {
    expect(texts.filter((text) => text.includes(mark)), mark).toEqual([]);
  }
});

/**
 * A remote's first page waits for its routes' chunk and for the host's chunks of the
 * shared modules that code consumes (antd's parts). Without hints the page asks for them only once
 * the host's first file has run and the remote's entry has loaded: a second wave behind the first
 * file. The first HTML of /profile hints at them (the remote build's portal-remote.json and the
 * host build's shared-preloads.json), the page uses those very downloads, and every script it
 * loads before its content is one the first HTML names (the account held back until then, see
 * holdAccount).
 */
test("/profile: the first HTML hints at the remote's routes and the host's chunks they consume, and the page loads no other script before its content", async ({ page }) => {
  await saveData(page);
  const release = await holdAccount(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const response = await page.goto('/profile');
  const html = (await response?.text()) ?? '';
  const hints = [...html.matchAll(/<link rel="preload" as="script" href="(\/[^"]+\.js)" fetchpriority="low">/g)].map((m) => m[1]!);
  expect(hints.filter((path) => /^\/remotes\/self_service\/[^/]+\/__federation_expose_routes\.[0-9a-f]+\.js$/.test(path))).toHaveLength(1);
  expect(hints.filter((path) => /^\/\d+\.[0-9a-f]+\.js$/.test(path)).length).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible();
  const beforeContent = [...scripts];
  const named = new Set([...hints, ...[...html.matchAll(/(?:src|href)="?(\/[^"\s>]+\.js)/g)].map((m) => m[1]!)]);
  expect(beforeContent.filter((path) => !named.has(path))).toEqual([]);
  // Each hinted file once: a hint the page could not use would be downloaded a second time.
  for (const hint of hints) expect(beforeContent.filter((path) => path === hint), hint).toEqual([hint]);
  // The account was still on its way (its groups' section comes with it).
  await expect(page.getByRole('region', { name: 'Groups' })).toHaveCount(0);
  release();
  await expect(page.getByRole('region', { name: 'Groups' }).getByRole('link', { name: 'Portal Team (PORTAL)' })).toBeVisible();
});

/**
 * Host contract 1.5: /profile draws its heading and the account's details without antd's
 * tables' part (the table, the pager's select, the selection's checkboxes: 84 KB brotli); its
 * groups' table is a chunk of its own, and brings that part once the account has arrived. The
 * part's files are the host build's own list (shared-preloads.json, which the server reads).
 */
test("/profile: the heading and the account's details do not wait for antd's tables' part, and the groups' table follows", async ({ page }) => {
  await saveData(page);
  const lists = (await (await page.request.get('/shared-preloads.json')).json()) as Record<string, string[]>;
  const tables = lists['@portal/antd-data'] ?? [];
  expect(tables.length).toBeGreaterThan(0);
  // The tables' part is held back until the details are on the screen.
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route(
    (url) => tables.includes(url.pathname),
    async (route) => {
      held.push(new URL(route.request().url()).pathname);
      await released;
      await route.continue();
    },
  );
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Account Details' }).getByText('admin@example.test')).toBeVisible();
  const groups = page.getByRole('region', { name: 'Groups' });
  await expect(groups.getByLabel('Loading the groups')).toBeVisible();
  await expect.poll(() => held.length).toBeGreaterThan(0);
  release();
  await expect(groups.getByRole('link', { name: 'Portal Team (PORTAL)' })).toBeVisible();
  await expect(groups.locator('[aria-busy="true"]')).toHaveCount(0);
});

/**
 * Every script starts with V8's explicit compile hint (shared/build/federation.cjs,
 * CompileHintsPlugin), so Chromium compiles it on a background thread while it downloads instead
 * of function by function on the main thread as the page starts: the host's files and a remote's.
 */
test('/profile: every script the page loads, the host\'s and its remote\'s, starts with the compile hint', async ({ page }) => {
  const scripts: Promise<{ url: string; start: string }>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.text().then((text) => ({ url: new URL(response.url()).pathname, start: text.split('\n', 1)[0] ?? '' })));
  };
  page.on('response', onResponse);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'User Profile: admin' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // A script that arrives later (the sidebar's remotes, fetched once the page is idle) is not read:
  // its body could still be on its way when the test ends.
  page.off('response', onResponse);
  const seen = await Promise.all(scripts);
  expect(seen.some((s) => s.url.startsWith('/main.'))).toBe(true);
  expect(seen.some((s) => s.url.startsWith('/remotes/self_service/'))).toBe(true);
  expect(seen.filter((s) => s.start !== '//# allFunctionsCalledOnLoad')).toEqual([]);
});
