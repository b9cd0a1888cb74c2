/**
 * Visitors, in Chromium against the real portal: request an account, check its
 * status with a code read from the outbox, generate a new website token and sign in with it
 * (the old one refused), request an unlock for a locked account.
 */
import { expect, test } from './fixtures';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailsTo, waitForMail } from './mail';
import { dataDir } from './portal';
import { demoToken, solveChallenge, submitTokenSignIn } from './session';
import { fillAccountRequest, newApplicant, openAccountRequest, verify } from './visitor-flows';

const applicant = newApplicant('Grace', 'Hopper');

test('a visitor requests an account (CAC exception), then checks its status with a mailed code', async ({ page }) => {
  // On plain HTTP the browser has no card to present: ask for the exception, with a sponsor.
  await openAccountRequest(page);

  // A careless first try: nothing filled in.
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByText('Please enter your first name')).toBeVisible();
  await expect(page.getByText('This field is required')).toBeVisible();

  await fillAccountRequest(page, applicant);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Success' })).toBeVisible();
  await waitForMail(applicant.email, /request/i);

  // The same username again is refused by the server, beside the field.
  await openAccountRequest(page);
  await fillAccountRequest(page, applicant);
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByText('This username is already taken.')).toBeVisible();

  await page.goto('/check-account-request-status');
  await verify(page, applicant.email);
  await expect(page.getByText('Pending review')).toBeVisible();
  await expect(page.getByText(applicant.username)).toBeVisible();
});

test('a user generates a new website token and signs in with it; the old one is refused', async ({ page }) => {
  const old = demoToken('helpdesk');
  await page.goto('/reset-website-token');
  await expect(page.getByRole('heading', { name: 'Generate Website Token' })).toBeVisible();
  await verify(page, 'helpdesk@example.test');
  await expect(page.getByText(/Generating a new token invalidates your current one/)).toBeVisible();
  await page.getByRole('button', { name: 'Generate' }).click();
  const token = (await page.getByTestId('new-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  // The demo file keeps the account's current token for the tests that follow.
  rememberToken('helpdesk', token);

  await page.getByRole('link', { name: 'Back to Sign-In' }).click();
  await submitTokenSignIn(page, 'helpdesk', old);
  await expect(page.getByText('Invalid username or website token.')).toBeVisible();
  await page.goto('/login?redirect=%2Fprofile');
  await submitTokenSignIn(page, 'helpdesk', token);
  await expect(page.getByRole('link', { name: 'Logout' })).toBeVisible();
});

test('a locked user requests an unlock', async ({ page }) => {
  await page.goto('/request-unlock');
  await expect(page.getByRole('heading', { name: 'Request Unlock' })).toBeVisible();
  await verify(page, 'locked.user@example.test');
  await page.getByRole('button', { name: 'Submit Unlock Request' }).click();
  await expect(page.getByText('Reason is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('I mistyped my website token too often.');
  await page.getByRole('button', { name: 'Submit Unlock Request' }).click();
  await expect(page.getByText('Your unlock account request has been received. The approval process may take a few days.')).toBeVisible();
});

test('a wrong code is refused under the code field, and the page says nothing about unknown addresses', async ({ page }) => {
  await page.goto('/check-account-request-status');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('nobody.here@agency.example');
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await expect(page.getByText('If nobody.here@agency.example belongs to an account or an account request, a verification code has been sent to it.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Verification code', exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The verification code is invalid or has expired.')).toBeVisible();
  expect(mailsTo('nobody.here@agency.example')).toHaveLength(0);
});

function rememberToken(username: string, token: string): void {
  const file = join(dataDir(), 'demo-accounts.json');
  const accounts = JSON.parse(readFileSync(file, 'utf8')) as { username: string; token: string }[];
  writeFileSync(file, JSON.stringify(accounts.map((a) => (a.username === username ? { ...a, token } : a)), null, 2));
}
