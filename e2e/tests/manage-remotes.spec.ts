/**
 * Manage Remotes in Chromium against the real server: a team publishes a new version
 * of a remote; the platform administrator previews it in their own browser only (marked in the
 * chrome), pins it for everyone, rolls it back, and reads the history and its CSV; a user without
 * the permission is kept out.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { settled } from './axe';
import { publishCopy, replaceInBuild, restorePin, UNAVAILABLE } from './portal';
import { signIn, test } from './session';

const VERSION = '0.1.5-e2e-preview';
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

test.describe.configure({ timeout: 180_000 });
test.afterEach(() => restorePin('tokens', 'remote-tokens'));

/**
 * Chooses a version in a dialog's Version list, once the dialog and then the list have finished
 * opening (a click during antd's zoom-in can land as the focus moves into the dialog, closing the
 * list under the pointer), and checks that the choice is shown.
 */
async function chooseVersion(page: Page, dialog: Locator, version: string): Promise<void> {
  const label = `${version} (contract ^2.0.0)`;
  await settled(page);
  await dialog.getByRole('combobox', { name: 'Version' }).click();
  await settled(page);
  await page.getByTitle(label).click();
  await expect(dialog).toContainText(label);
}

/** Another person's browser: the adjudicator, signed in through the login page. */
async function otherBrowser(browser: Browser): Promise<Page> {
  // A context of its own, without the admin's stored session.
  const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signIn(page, 'adjudicator');
  return page;
}

test('preview in one browser, pin for everyone, roll back; the history says who, when and why', async ({ page, browser }) => {
  publishCopy('remote-tokens', VERSION, (dir) => replaceInBuild(dir, 'Service Tokens', 'Service Tokens, release candidate'));
  const other = await otherBrowser(browser);

  await page.goto('/profile');
  await page.getByRole('link', { name: 'Manage Remotes' }).click();
  await expect(heading(page, 'Manage Remotes')).toBeVisible();
  const remotes = page.getByRole('table', { name: 'Remotes' });
  await expect(remotes.getByRole('row').filter({ hasText: 'tokens' }).first()).toContainText('0.1.0');

  // Preview: only this browser runs the new version, and the chrome says so.
  await page.getByRole('button', { name: 'Preview a version of tokens' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview a version of tokens' });
  await chooseVersion(page, preview, VERSION);
  await preview.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText(`Preview: tokens ${VERSION} (only in your browser)`)).toBeVisible();
  await page.goto('/tokens/services');
  await expect(heading(page, 'Service Tokens, release candidate')).toBeVisible();
  await expect(page.getByText(`Preview: tokens ${VERSION} (only in your browser)`)).toBeVisible();
  await other.goto('/tokens/services');
  await expect(heading(other, 'Service Tokens')).toBeVisible();

  // Pin it for everyone, then drop the preview: both browsers run it.
  await page.goto('/manage-remotes');
  await page.getByRole('button', { name: 'Pin a version of tokens' }).click();
  const pin = page.getByRole('dialog', { name: 'Pin a version of tokens' });
  await chooseVersion(page, pin, VERSION);
  await pin.getByRole('textbox', { name: 'Reason' }).fill('release candidate approved');
  await pin.getByRole('button', { name: 'Pin' }).click();
  await expect(page.getByText(`local now runs tokens ${VERSION}, from the next page load.`)).toBeVisible();
  await page.getByRole('button', { name: 'End preview' }).first().click();
  await expect(page.getByText(/Preview: tokens/)).toHaveCount(0);
  await other.goto('/tokens/services');
  await expect(heading(other, 'Service Tokens, release candidate')).toBeVisible();

  // Roll back: everyone runs the version before.
  await page.goto('/manage-remotes');
  await page.getByRole('button', { name: 'Roll back tokens' }).click();
  const rollback = page.getByRole('dialog', { name: 'Roll back tokens to 0.1.0?' });
  await rollback.getByRole('textbox', { name: 'Reason' }).fill('wrong text');
  await rollback.getByRole('button', { name: 'Roll back' }).click();
  await expect(page.getByText('local rolled tokens back to 0.1.0, from the next page load.')).toBeVisible();
  await other.goto('/tokens/services');
  await expect(heading(other, 'Service Tokens')).toBeVisible();
  await expect(other.getByText(UNAVAILABLE)).toHaveCount(0);

  // The history, newest first, and its CSV.
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row').nth(1)).toContainText('rollback');
  await expect(history.getByRole('row').nth(1)).toContainText('wrong text');
  await expect(history.getByRole('row').nth(2)).toContainText('release candidate approved');
  const csvLink = page.getByRole('link', { name: 'Export CSV' });
  const csv = await page.request.get((await csvLink.getAttribute('href')) ?? '');
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-disposition']).toBe('attachment; filename="local-remote-history.csv"');
  expect(await csv.text()).toMatch(new RegExp(`,local,tokens,pin,0\\.1\\.0,${VERSION.replace(/\./g, '\\.')},admin,release candidate approved\\r\\n.*,local,tokens,rollback,${VERSION.replace(/\./g, '\\.')},0\\.1\\.0,admin,wrong text\\r\\n$`, 's'));
  await other.context().close();
});

test('a pin the server refuses shows why in the dialog, and nothing changes', async ({ page }) => {
  publishCopy('remote-tokens', '2.1.0-e2e', () => undefined, { contract: '^3.0.0' });
  await page.goto('/manage-remotes');
  await page.getByRole('button', { name: 'Pin a version of tokens' }).click();
  const pin = page.getByRole('dialog', { name: 'Pin a version of tokens' });
  await pin.getByRole('combobox', { name: 'Version' }).click();
  // A version needing another contract cannot even be chosen.
  await expect(page.getByTitle('2.1.0-e2e (needs contract ^3.0.0)')).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await pin.getByRole('button', { name: 'Pin' }).click();
  await expect(pin.getByText('Please choose a version.')).toBeVisible();
  await expect(pin.getByText('Please say why (it is kept in the history).')).toBeVisible();
});

test('without the permission, /manage-remotes is not shown nor opened', async ({ browser }) => {
  const other = await otherBrowser(browser);
  await expect(other.getByRole('link', { name: 'Manage Remotes' })).toHaveCount(0);
  await other.goto('/manage-remotes');
  await expect(other).toHaveURL(/\/profile$/);
  const { ok: xsrf } = (await (await other.request.get('/accounts/rest/xsrf')).json()) as { ok: string };
  const refused = await other.request.get('/accounts/rest/federation', { headers: { 'x-xsrf-token': xsrf } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: 'Forbidden', code: 403 });
  await other.context().close();
});
