/**
 * Account states and input limits, in Chromium against the demo portal: the closed demo
 * account is shown closed with no actions; the help desk sees only the queue it may open; a request id that is not a number is
 * not found; the account search box stops at 255 characters; while renewal is due the sidebar
 * offers only the renewal; the unlock flow of a closed account ends at the spec's unable view.
 * Read-only for the demo data except a verification code mailed to closed.user.
 */
import { expect, test } from './fixtures';
import { signIn } from './session';
import { verify } from './visitor-flows';

test.describe.configure({ timeout: 120_000 });

test('closed.user is shown closed in account administration and in the search, with no actions', async ({ page }) => {
  await signIn(page, 'admin', '/manage-accounts/closed.user');
  await expect(page.getByRole('heading', { name: 'Account Administration' })).toBeVisible();
  await expect(page.getByText('ACCOUNT CLOSED')).toBeVisible();
  const details = page.getByRole('region', { name: 'Account Details' });
  await expect(details.getByRole('row').filter({ hasText: 'Status' })).toContainText('Closed');
  await expect(page.getByText('Account is closed.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Lock Account/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Close Account/ })).toHaveCount(0);

  await page.goto('/manage-accounts?term=closed.user&start=0');
  await expect(page.getByRole('row').filter({ hasText: 'closed.user@example.test' })).toContainText('Closed');
});

test('the search box stops at 255 characters; a request id that is not a number is not found', async ({ page }) => {
  await signIn(page, 'admin', '/manage-accounts');
  const box = page.getByRole('textbox', { name: 'Search by username, first name, last name or email' });
  await box.fill('a'.repeat(300));
  await expect(box).toHaveValue('a'.repeat(255));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(/must NOT/)).toHaveCount(0);

  await page.goto('/list-account-requests/abc');
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  await expect(page.getByText(/must be integer/)).toHaveCount(0);
});

test('the help desk sees only the unlock queue in Manage Accounts', async ({ page }) => {
  await signIn(page, 'helpdesk');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: /^Unlock Account Requests/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Search Accounts' })).toBeVisible();
  for (const name of [/^Account Requests/, /^Denied Account Requests/, /^Email Change Requests/, /^Mailing List Requests/, /^User Group Requests/, /^Authentication Change Requests/]) {
    await expect(nav.getByRole('link', { name })).toHaveCount(0);
  }
});

test('while renewal is due the sidebar offers only the renewal and says why (renewal.user is not renewed here)', async ({ page }) => {
  await signIn(page, 'renewal.user', '/renew-account');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Renew Your Account']);
  await expect(nav.getByText('Your account must be renewed before you can use the rest of the portal.')).toBeVisible();
});

test('an unlock request for the closed account ends at the unable view, not at the code step', async ({ page }) => {
  await page.goto('/request-unlock');
  await expect(page.getByText('Enter the email address of your account to request that your account be unlocked.')).toBeVisible();
  await verify(page, 'closed.user@example.test');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Please reopen my account.');
  await page.getByRole('button', { name: 'Submit Unlock Request' }).click();
  await expect(page.getByText('Unlock request cannot be submitted at this time.')).toBeVisible();
  await expect(page.getByText('This account is closed.')).toHaveCount(0);
});
