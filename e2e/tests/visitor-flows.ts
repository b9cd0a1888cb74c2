/** What a visitor does on the public pages, shared by the visitor and adjudication specs. */
import { expect, type Page } from '@playwright/test';
import { mailsTo, verificationCode } from './mail';
import { solveChallenge } from './session';

/** The email and code steps of the verification flow, with the code read from the outbox. */
export async function verify(page: Page, email: string): Promise<void> {
  const before = mailsTo(email).length;
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  // The status check names account requests too; the token, unlock and CAC flows accounts only.
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page.getByText(new RegExp(`^If ${escaped} belongs to an account( or an account request)?, a verification code has been sent to it\\.$`))).toBeVisible();
  const code = await verificationCode(email, before);
  await page.getByRole('textbox', { name: 'Verification code', exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

export interface Applicant {
  first: string;
  last: string;
  username: string;
  email: string;
}

/** A new applicant with a username and address no other run has used. */
export function newApplicant(first: string, last: string): Applicant {
  const n = `${Date.now() % 1_000_000}${Math.floor(Math.random() * 100)}`;
  return { first, last, username: `${first}.${last}${n}`.toLowerCase().slice(0, 20), email: `${first}.${last}.${n}@agency.example`.toLowerCase() };
}

/** The fields of /request-account (CAC exception) by label, for an applicant. */
export function accountRequestFields(applicant: Applicant): [string, string][] {
  return [
    ['US Government sponsor email', 'sponsor@agency.mil'],
    ['First name', applicant.first],
    ['Last name', applicant.last],
    ['Username', applicant.username],
    ['Business phone', '+1 555 010 0000'],
    ['Email', applicant.email],
    ['Confirm email', applicant.email],
    ['Street', '1 Navy Way'],
    ['City', 'Arlington'],
    ['State', 'VA'],
    ['Postal code', '22202'],
    ['Country', 'USA'],
    ['Company or government office symbol', 'NAVSEA'],
    ['Project', 'COBOL'],
    ['Supervisor first name', 'Howard'],
    ['Supervisor last name', 'Aiken'],
    ['Supervisor email', 'howard.aiken@agency.example'],
    ['Supervisor phone', '555-010-0001'],
    ['Reason for account', 'Compiler work for the COBOL project.'],
  ];
}

/** Opens /request-account and chooses the CAC exception (plain HTTP: the browser has no card). */
export async function openAccountRequest(page: Page): Promise<void> {
  await page.goto('/request-account');
  await expect(page.getByRole('heading', { name: 'Sign Up for an account' })).toBeVisible();
  await page.locator('label').filter({ has: page.getByRole('radio', { name: /CAC exception/ }) }).click();
}

/** Fills the form for the applicant; the challenge and the submit are the caller's. */
export async function fillAccountRequest(page: Page, applicant: Applicant): Promise<void> {
  for (const [label, value] of accountRequestFields(applicant)) await page.getByRole('textbox', { name: label, exact: true }).fill(value);
}

/** A visitor's whole account request (CAC exception) on a page of its own, up to 'Submission Success'. */
export async function submitAccountRequest(page: Page, applicant: Applicant): Promise<void> {
  await openAccountRequest(page);
  await fillAccountRequest(page, applicant);
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Success' })).toBeVisible();
}
