/**
 * A signed-in user's own account, in Chromium against the real portal: update the
 * profile, change subscriptions, request an email change, renew an account whose certification
 * is over a year old.
 */
import { expect, test } from './fixtures';
import { waitForMail } from './mail';
import { demoToken, signIn, submitTokenSignIn } from './session';
import { pressInDialog } from './dialog';

test('a user updates the profile; a careless edit is refused field by field first', async ({ page }) => {
  await signIn(page, 'user');
  await expect(page.getByRole('heading', { name: 'User Profile: user' })).toBeVisible();
  await page.getByRole('link', { name: 'Update Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Update Profile' })).toBeVisible();

  const city = page.getByRole('textbox', { name: 'City', exact: true });
  await city.fill('');
  await page.getByRole('textbox', { name: 'Supervisor email', exact: true }).fill('not-an-address');
  // Nothing is said before the first submit.
  await expect(page.getByText('Please enter a city')).toHaveCount(0);
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Please enter a city')).toBeVisible();
  await expect(page.getByText('Email address is invalid')).toBeVisible();

  await city.fill('Norfolk');
  await page.getByRole('textbox', { name: 'Supervisor email', exact: true }).fill('new.boss@example.test');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Profile updated successfully.')).toBeVisible();
  await expect(page.getByText('Norfolk')).toBeVisible();

  // It was stored: a reload shows it again.
  await page.reload();
  await expect(page.getByText('Norfolk')).toBeVisible();
});

test('a user subscribes to a service and unsubscribes; services held through a group cannot be changed', async ({ page }) => {
  await signIn(page, 'user', '/subscriptions');
  await expect(page.getByRole('heading', { name: 'Subscriptions' })).toBeVisible();
  const jira = page.getByRole('checkbox', { name: 'Jira', exact: true });
  await expect(jira).toBeChecked();
  await expect(jira).toBeDisabled();

  const jsm = page.getByRole('checkbox', { name: 'Jira Service Management' });
  await expect(jsm).toBeEnabled();
  const wasChecked = await jsm.isChecked();
  await jsm.click();
  await expect(jsm).toBeChecked({ checked: !wasChecked });
  await expect(jsm).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Jira Service Management' })).toBeChecked({ checked: !wasChecked });
  await page.getByRole('checkbox', { name: 'Jira Service Management' }).click();
  await expect(page.getByRole('checkbox', { name: 'Jira Service Management' })).toBeChecked({ checked: wasChecked });
  await expect(page.getByRole('checkbox', { name: 'Jira Service Management' })).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Jira Service Management' })).toBeChecked({ checked: wasChecked });
});

test('a service that sent the user here is named in a warning', async ({ page }) => {
  // adjudicator holds Jira Service Management neither directly nor through a group.
  await signIn(page, 'adjudicator', '/subscriptions?service=jsm');
  await expect(
    page.getByText('Jira Service Management has redirected you to this page because your account is lacking a service subscription. Please select a subscription to the service.'),
  ).toBeVisible();
});

test('a user requests an email change: an address in use is refused, then the confirmation', async ({ page }) => {
  await signIn(page, 'adjudicator');
  await page.getByRole('link', { name: 'Change Email' }).click();
  await expect(page.getByRole('heading', { name: 'Change Email' })).toBeVisible();

  await page.getByRole('button', { name: 'Request Email Change' }).click();
  await expect(page.getByText('Please enter a reason to change email')).toBeVisible();
  await expect(page.getByText('Please certify that your account information is accurate')).toBeVisible();

  await page.getByRole('textbox', { name: 'New email', exact: true }).fill('user@example.test');
  await page.getByRole('textbox', { name: 'Confirm new email', exact: true }).fill('user@example.test');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('My old address is going away.');
  await page.getByText('I certify that my account information is accurate.').click();
  await page.getByRole('button', { name: 'Request Email Change' }).click();
  await expect(page.getByText('This email is already in use in the system.')).toBeVisible();

  const address = 'jude.adjudicator@agency.example';
  await page.getByRole('textbox', { name: 'New email', exact: true }).fill(address);
  await page.getByRole('textbox', { name: 'Confirm new email', exact: true }).fill(address);
  await page.getByRole('button', { name: 'Request Email Change' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Email Change' });
  await pressInDialog(dialog, 'Submit Request');
  await expect(page.getByText('Successfully requested email change.')).toBeVisible();
  await expect(page.getByText('[Email change is pending]')).toBeVisible();
  await waitForMail(address, /email/i);
  await waitForMail('adjudicator@example.test', /email/i);
});

test('an account not certified for over a year must renew before anything else', async ({ page }) => {
  await page.goto('/login');
  await submitTokenSignIn(page, 'renewal.user', demoToken('renewal.user'));
  await expect(page).toHaveURL(/\/renew-account$/);
  await expect(page.getByRole('heading', { name: 'Renew Your Account' })).toBeVisible();

  // The guard holds every other page until the user renews.
  await page.goto('/subscriptions');
  await expect(page).toHaveURL(/\/renew-account$/);

  await page.getByRole('button', { name: 'Continue to Profile' }).click();
  await expect(page.getByText('Please certify that you have read the requirements.')).toBeVisible();
  await page.getByText('I have read and understand the requirements').click();
  await page.getByRole('button', { name: 'Continue to Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'User Profile: renewal.user' })).toBeVisible();
  await page.goto('/subscriptions');
  await expect(page.getByRole('heading', { name: 'Subscriptions' })).toBeVisible();
});
