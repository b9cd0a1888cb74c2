/**
 * Signing in and out in Chromium against the real server: the website token with the challenge
 * solved by the real ALTCHA widget, the redirect parameter, the session guard, the chrome by
 * permission, a sign-out that kills the old cookie, and signing out everywhere.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible } from './axe';
import { demoToken, signIn, solveChallenge, submitTokenSignIn } from './session';
import { pressInDialog } from './dialog';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

test('a visitor sent to sign in comes back to where they were going', async ({ page }) => {
  await page.goto('/groups');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fgroups$/);
  await expect(heading(page, 'Please Sign In')).toBeVisible();
  await submitTokenSignIn(page, 'USER@example.test', demoToken('user')); // email, any letter case
  await expect(page).toHaveURL(/\/groups$/);
  await expect(heading(page, 'Groups')).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('user');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('without a redirect, a user goes to the wiki', async ({ page }) => {
  await page.route('https://wiki.example.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<h1>The wiki</h1>' }));
  await page.goto('/login');
  await submitTokenSignIn(page, 'user', demoToken('user'));
  await expect(page).toHaveURL('https://wiki.example.test/');
});

test('a wrong token is refused with the way forward, and the challenge is fresh for the next try', async ({ page }) => {
  await page.goto('/login?redirect=%2Fprofile');
  await submitTokenSignIn(page, 'helpdesk', 'not-the-token');
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or website token. (code 401)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Generate a new website token' })).toHaveAttribute('href', '/reset-website-token');
  await expect(page.locator('altcha-widget').getByRole('checkbox')).not.toBeChecked();

  // The same page, the right token, a new challenge: in.
  await page.getByRole('textbox', { name: 'Website token', exact: true }).fill(demoToken('helpdesk'));
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('link', { name: 'Logout' })).toBeVisible();
});

test('a locked account is told so and offered an unlock request', async ({ page }) => {
  await page.goto('/login');
  await submitTokenSignIn(page, 'locked.user', demoToken('locked.user'));
  await expect(page.getByRole('alert').filter({ hasText: '(code 423)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request an unlock' }).first()).toHaveAttribute('href', '/request-unlock');
});

test('the guard: no session → login with the redirect; a missing permission → profile', async ({ page }) => {
  await page.goto('/manage-accounts?term=doe');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmanage-accounts%3Fterm%3Ddoe$/);

  await signIn(page, 'user');
  await page.goto('/manage-accounts');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(heading(page, 'User Profile: user')).toBeVisible();

  // Public pages stay public, signed in or not.
  await page.goto('/request-account');
  await expect(heading(page, 'Sign Up for an account')).toBeVisible();
});

test('the guard: an error resolving the session → /not-authorized, with the way back to sign in', async ({ page }) => {
  await signIn(page, 'user');
  await expect(heading(page, 'User Profile: user')).toBeVisible(); // the guard has let the profile in
  // The server failing to answer who is signed in (the only way to make it fail on purpose), for
  // the check of the navigation to /groups only: the sign-in's own check follows a fresh /xsrf and
  // may still be on its way (on a busy machine, after the network has been quiet for a while). The
  // page's address when a check is sent is its Referer (same-origin policy).
  await page.route('**/accounts/rest/sessions/current', (route) =>
    new URL(route.request().headers().referer ?? 'http://unknown/').pathname === '/groups'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error","code":500}' })
      : route.continue(),
  );
  await page.getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(/\/not-authorized\?redirect=%2Fgroups$/);
  await expect(page.getByText('It appears you are not authorized to perform that action.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Fgroups');
});

test('the Manage Accounts block and its queue counts appear only with view-request-summary', async ({ page }) => {
  await signIn(page, 'user');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText('Manage Accounts')).toHaveCount(0);
  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(heading(page, 'Logged Out')).toBeVisible();

  await signIn(page, 'adjudicator');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByText('Manage Accounts')).toBeVisible();
  // 'Account Requests (n)' while requests wait: other specs may have left one pending.
  await expect(nav.getByRole('link', { name: /^Account Requests( \(\d+\))?$/ })).toHaveAttribute('href', '/list-account-requests');
  await nav.getByRole('link', { name: 'Search Accounts' }).click();
  await expect(heading(page, 'Search Accounts')).toBeVisible();
});

test('after sign-out the old session cookie no longer works', async ({ page, playwright, baseURL }) => {
  await signIn(page, 'adjudicator');
  const before = await page.evaluate(async () => {
    const xsrf = (await (await fetch('/accounts/rest/xsrf')).json()) as { ok: string };
    const current = await fetch('/accounts/rest/sessions/current', { headers: { 'X-XSRF-TOKEN': xsrf.ok } });
    return { token: xsrf.ok, status: current.status };
  });
  expect(before.status).toBe(200);
  const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');

  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(heading(page, 'Logged Out')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login', exact: true })).toBeVisible();

  // Replaying the old cookie and token, as someone who copied them would.
  const replay = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: cookies, 'X-XSRF-TOKEN': before.token } });
  const response = await replay.get('/accounts/rest/sessions/current');
  expect([401, 403]).toContain(response.status());
  expect(await response.json()).not.toHaveProperty('username');
  await replay.dispose();
});

test('signing out everywhere from the profile ends the session in another browser too', async ({ browser }) => {
  const here = await (await browser.newContext()).newPage();
  const elsewhere = await (await browser.newContext()).newPage();
  await signIn(here, 'helpdesk');
  await signIn(elsewhere, 'helpdesk', '/groups');
  await expect(heading(elsewhere, 'Groups')).toBeVisible();

  await expect(heading(here, 'User Profile: helpdesk')).toBeVisible();
  await here.getByRole('button', { name: 'Sign Out Everywhere' }).click();
  await pressInDialog(here.getByRole('dialog', { name: 'Sign out everywhere?' }), 'Sign Out Everywhere');
  await expect(heading(here, 'Logged Out')).toBeVisible();

  // The other browser's next step finds its session gone and is sent to sign in.
  await elsewhere.getByRole('link', { name: 'My Profile' }).click();
  await expect(elsewhere).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  await here.context().close();
  await elsewhere.context().close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the sign-in page (with an error) and a signed-in page have no serious accessibility problems, ${colorScheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const check = (where: string) => expectAccessible(page, where, (axe) => axe.exclude('altcha-widget'));
    await page.goto('/login?redirect=%2Fgroups');
    await submitTokenSignIn(page, 'user', 'not-the-token');
    await expect(page.getByRole('alert').filter({ hasText: '(code 401)' })).toBeVisible();
    await check('/login with an error');
    await signIn(page, 'adjudicator', '/groups');
    await expect(heading(page, 'Groups')).toBeVisible();
    await check('/groups signed in');
  });
}
