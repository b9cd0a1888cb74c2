/** Signing in as the demo accounts, through the real login page and the real challenge widget. */
import { type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test as base, workerPortal } from './fixtures';

export type DemoUser = 'admin' | 'adjudicator' | 'helpdesk' | 'user' | 'locked.user' | 'closed.user' | 'renewal.user';

/** The website token `npm start` printed for a demo account (kept in the data folder in demo mode), of this worker's portal unless another data folder is given. */
export function demoToken(username: DemoUser, dataDir = workerPortal().dataDir): string {
  const accounts = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8')) as { username: string; token: string }[];
  const account = accounts.find((a) => a.username === username);
  if (!account) throw new Error(`No demo account ${username}`);
  return account.token;
}

/** Ticks the real ALTCHA widget (its label, as a person does) and waits until it has solved its challenge. */
export async function solveChallenge(page: Page): Promise<void> {
  const widget = page.locator('altcha-widget');
  await widget.getByText("I'm not a robot").click();
  await expect(widget.getByRole('checkbox')).toBeChecked({ timeout: 30_000 });
  await expect(widget).toContainText('Verified', { timeout: 30_000 });
}

/** Fills the website-token form on /login (already open) and submits it. */
export async function submitTokenSignIn(page: Page, id: string, token: string): Promise<void> {
  await page.getByRole('tab', { name: 'Returning Users' }).click();
  // antd's button-style radios hide the input: click the label, as a person does.
  const nonCac = page.locator('label').filter({ has: page.getByRole('radio', { name: 'Non-CAC Users' }) });
  if (await nonCac.count()) await nonCac.click();
  await page.getByRole('textbox', { name: 'Username or email', exact: true }).fill(id);
  await page.getByRole('textbox', { name: 'Website token', exact: true }).fill(token);
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export async function signIn(page: Page, username: DemoUser, redirect = '/profile'): Promise<void> {
  await page.goto(`/login?${new URLSearchParams({ redirect })}`);
  await submitTokenSignIn(page, username, demoToken(username));
  await expect(page.getByRole('link', { name: 'Logout' })).toBeVisible();
}

/** `test` whose pages start signed in as admin (signed in once per worker, through the UI). */
export const test = base.extend<object, { adminState: string }>({
  adminState: [
    async ({ browser, portal }, use, workerInfo) => {
      const page = await browser.newPage({ baseURL: portal.url });
      await signIn(page, 'admin');
      const file = join(workerInfo.project.outputDir, `.auth-admin-${workerInfo.workerIndex}.json`);
      await page.context().storageState({ path: file });
      await page.close();
      await use(file);
    },
    { scope: 'worker' },
  ],
  storageState: ({ adminState }, use) => use(adminState),
});
export { expect };
