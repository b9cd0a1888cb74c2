/**
 * Adjudication, in Chromium against the real portal: a visitor's account request
 * from the form, through a request for more information and the applicant's answer, to the
 * approval, the mailed instructions, the first website token and the first sign-in; then lock,
 * unlock and close from account administration, where a locked account cannot sign in and its
 * open session ends.
 */
import type { Browser, Page } from '@playwright/test';
import { accountAdministrationLoaded, openActionPanel } from './account-admin';
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import { mailsTo, waitForMail } from './mail';
import { portal } from './portal';
import { signIn, solveChallenge, submitTokenSignIn } from './session';
import { fillAccountRequest, newApplicant, openAccountRequest, verify } from './visitor-flows';

// Each test is a whole story with two or three people, five security challenges and mail read
// from the outbox: about 20 s on an idle machine, so the default minute is too short on a busy one.
test.describe.configure({ timeout: 180_000 });
// A first try that fails keeps its trace (the suite keeps traces of retries only): this spec's
// lock/unlock/close story failed on a first try in two clean-clone runs and never alone.
test.use({ trace: 'retain-on-failure' });

/** A page of its own (cookies apart from the other people in the test). */
async function personPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Opens a new account request's details from the queue. */
async function openRequest(page: Page, username: string): Promise<void> {
  await page.goto('/list-account-requests');
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: '[details]' }).click();
  await expect(page.getByText(username).first()).toBeVisible();
}

test('an account request: more information asked and given, approved, then the first token and sign-in', async ({ browser }) => {
  const visitor = await personPage(browser);
  const adjudicator = await personPage(browser);
  const applicant = newApplicant('Ada', 'Lovelace');

  // The visitor asks for an account.
  await openAccountRequest(visitor);
  await fillAccountRequest(visitor, applicant);
  await solveChallenge(visitor);
  await visitor.getByRole('button', { name: 'Submit Request' }).click();
  await expect(visitor.getByRole('heading', { name: 'Submission Success' })).toBeVisible();

  // The adjudicator sees it in the queue (and counted in the sidebar), and asks for more information.
  await signIn(adjudicator, 'adjudicator', '/list-account-requests');
  await expect(adjudicator.getByRole('link', { name: /^Account Requests \(\d+\)$/ })).toBeVisible();
  await openRequest(adjudicator, applicant.username);
  await expect(adjudicator.getByText('Compiler work for the COBOL project.')).toBeVisible();
  await adjudicator.getByRole('button', { name: 'Request More Information' }).click();
  await expect(adjudicator.getByText('Please enter a comment describing the information needed')).toBeVisible();
  const question = 'Which program office sponsors the COBOL work?';
  await adjudicator.getByRole('textbox', { name: /Comment/ }).fill(question);
  await adjudicator.getByRole('button', { name: 'Request More Information' }).click();
  await expect(adjudicator.getByText("'Additional info needed' request sent")).toBeVisible();
  await expect(adjudicator).toHaveURL(/\/list-account-requests$/);

  // The applicant is mailed the question with the status link, and answers it there.
  const asked = await waitForMail(applicant.email, /More information is needed/);
  expect(asked.text).toContain(question);
  expect(asked.text).toContain('/check-account-request-status');
  await visitor.goto('/check-account-request-status');
  await verify(visitor, applicant.email);
  await expect(visitor.getByText(question)).toBeVisible();
  await visitor.getByRole('textbox', { name: 'Your response', exact: true }).fill('PEO Digital, program office 7.');
  await visitor.getByRole('button', { name: 'Submit Response' }).click();
  await expect(visitor.getByText('Your response has been received. Your request is back in the queue for review.')).toBeVisible();

  // The adjudicator reads the answer and approves, through the confirmation.
  await openRequest(adjudicator, applicant.username);
  await expect(adjudicator.getByText('PEO Digital, program office 7.')).toBeVisible();
  await adjudicator.getByRole('button', { name: 'Approve New Account' }).click();
  const confirm = adjudicator.getByRole('dialog');
  await expect(confirm.getByText('Are you sure you want to approve this request?')).toBeVisible();
  // The server's answer is checked first, so that a failure says what the server answered.
  const decided = adjudicator.waitForResponse((r) => r.request().method() === 'POST' && /\/requests\/new\/\d+\/approved$/.test(new URL(r.url()).pathname));
  await confirm.getByRole('button', { name: 'Approve' }).click();
  const answer = await decided;
  expect(answer.status(), `the approval answered ${answer.status()}: ${await answer.text()}`).toBe(200);
  await expect(adjudicator.getByText(`New account request APPROVED for ${applicant.first} ${applicant.last}`)).toBeVisible();
  await expect(adjudicator.getByRole('row').filter({ hasText: applicant.username })).toHaveCount(0);

  // The mail says how to start; the applicant follows it: a website token, then the first sign-in.
  const approved = await waitForMail(applicant.email, /approved/);
  expect(approved.text).toContain('/reset-website-token');
  expect(approved.text).toContain(`username '${applicant.username}'`);
  await visitor.goto('/reset-website-token');
  await verify(visitor, applicant.email);
  await visitor.getByRole('button', { name: 'Generate' }).click();
  const token = (await visitor.getByTestId('new-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await visitor.goto('/login?redirect=%2Fprofile');
  await submitTokenSignIn(visitor, applicant.username, token);
  await expect(visitor.getByRole('heading', { name: `User Profile: ${applicant.username}` })).toBeVisible();
});

/** A fresh account for the test to act on, made with the portal's command line; its website token. */
function createTarget(username: string): string {
  const output = portal('create-admin', '--username', username, '--email', `${username}@example.test`, '--json');
  return (JSON.parse(output.trim()) as { token: string }).token;
}

async function openAccount(admin: Page, username: string): Promise<void> {
  await admin.goto('/manage-accounts');
  await admin.getByRole('textbox', { name: /Search/ }).fill(username);
  await admin.getByRole('button', { name: 'Search' }).click();
  await admin.getByRole('link', { name: username, exact: true }).click();
  await accountAdministrationLoaded(admin, username);
}

test('lock, unlock and close from account administration; a locked account cannot sign in and its session ends', async ({ browser }) => {
  const username = `target.${Date.now() % 1_000_000}`;
  const token = createTarget(username);
  const target = await personPage(browser);
  const admin = await personPage(browser);

  await target.goto('/login?redirect=%2Fprofile');
  await submitTokenSignIn(target, username, token);
  await expect(target.getByRole('heading', { name: `User Profile: ${username}` })).toBeVisible();

  // Lock: the reason is required.
  await signIn(admin, 'admin', '/manage-accounts');
  await openAccount(admin, username);
  const lockBox = await openActionPanel(admin, 'Lock Account');
  await lockBox.getByRole('button', { name: 'Lock Account' }).click();
  await expect(lockBox.getByText('Please enter a reason')).toBeVisible();
  await lockBox.getByRole('textbox').fill('Suspicious sign-ins from abroad.');
  await lockBox.getByRole('button', { name: 'Lock Account' }).click();
  await expect(admin.getByText(`The account for ${username} has been locked.`)).toBeVisible();
  await expect(admin).toHaveURL(new RegExp(`/manage-accounts\\?term=${username.replace('.', '\\.')}`));

  // The target's open session has ended; signing in again is refused.
  await target.reload();
  await expect(target).toHaveURL(/\/login/);
  await submitTokenSignIn(target, username, token);
  await expect(target.getByText(/locked/i).first()).toBeVisible();
  await expect(target.getByRole('link', { name: 'Logout' })).toHaveCount(0);

  // The administrator sees the lock in the account and its history, and can export the history.
  await openAccount(admin, username);
  await expect(admin.getByText('ACCOUNT LOCKED')).toBeVisible();
  await expect(admin.getByRole('cell', { name: 'Suspicious sign-ins from abroad.' })).toBeVisible();
  const download = admin.waitForEvent('download');
  await admin.getByRole('link', { name: /Export history/ }).click();
  const csv = readFileSync((await (await download).path()) ?? '', 'utf8');
  expect(csv.split('\r\n')[0]).toBe('who,when,what,why');
  expect(csv).toMatch(/admin,[^,]+,Locked,Suspicious sign-ins from abroad\./);

  // Unlock (no reason needed): the target signs in again.
  const unlockBox = await openActionPanel(admin, 'Unlock Account');
  await unlockBox.getByRole('button', { name: 'Unlock Account' }).click();
  await expect(admin.getByText(`The account for ${username} has been unlocked.`)).toBeVisible();
  await target.goto('/login?redirect=%2Fprofile');
  await submitTokenSignIn(target, username, token);
  await expect(target.getByRole('heading', { name: `User Profile: ${username}` })).toBeVisible();

  // Close, through the confirmation: the session ends, no actions are left.
  await openAccount(admin, username);
  const closeBox = await openActionPanel(admin, 'Close Account');
  await closeBox.getByRole('textbox').fill('Left the program.');
  await closeBox.getByRole('button', { name: 'Close Account' }).click();
  const confirm = admin.getByRole('dialog');
  await expect(confirm.getByText('Are you sure?')).toBeVisible();
  await expect(confirm.getByText(`Are you sure you wish to close account <${username}>?`)).toBeVisible();
  await confirm.getByRole('button', { name: 'Close Account' }).click();
  await expect(admin.getByText(`The account for ${username} has been closed.`)).toBeVisible();
  await openAccount(admin, username);
  await expect(admin.getByText('ACCOUNT CLOSED')).toBeVisible();
  await expect(admin.getByText('Account is closed.')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Lock Account' })).toHaveCount(0);

  await target.reload();
  await expect(target).toHaveURL(/\/login/);
  await submitTokenSignIn(target, username, token);
  await expect(target.getByRole('link', { name: 'Logout' })).toHaveCount(0);
  expect(mailsTo(`${username}@example.test`).map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/locked/i)]));
});
