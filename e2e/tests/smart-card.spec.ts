/**
 * Smart-card sign-in in Chromium: a portal of its own on HTTPS that asks for client
 * certificates from a test CA, and the browser presenting a DoD-style certificate through
 * Playwright's clientCertificates.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPki, type TestPki } from './certificates';
import { e2eDir, expect, test } from './fixtures';
import { mailsTo, verificationCode, waitForMail } from './mail';
import { startPortalServer, type PortalServer } from './portal-server';
import { solveChallenge } from './session';

let tls: PortalServer;
/** The HTTPS portal's address (https://localhost:PORT). */
let origin: string;
let dir: string;
let pki: TestPki;

test.beforeAll(async () => {
  dir = mkdtempSync(join(e2eDir(), 'portal-tls-'));
  pki = await createTestPki(join(dir, 'pki'));
  tls = await startPortalServer({
    dataDir: join(dir, 'data'),
    env: { PORTAL_TLS_CERT: pki.serverCert, PORTAL_TLS_KEY: pki.serverKey, PORTAL_TLS_CLIENT_CA: pki.caCert },
  });
  origin = tls.url;
});

test.afterAll(async () => {
  await tls?.stop();
});

/** A browser holding a smart card with this CN, on the portal's sign-in page, pressing CAC LOGIN. */
async function signInWithCard(browser: Browser, commonName: string, file: string): Promise<{ page: Page; context: BrowserContext }> {
  const card = await pki.issueClient(commonName, file);
  const context = await browser.newContext({ ignoreHTTPSErrors: true, clientCertificates: [{ origin, certPath: card.cert, keyPath: card.key }] });
  const page = await context.newPage();
  await page.goto(`${origin}/login?redirect=%2Fprofile`);
  await page.getByRole('tab', { name: 'Returning Users' }).click();
  await page.locator('label').filter({ has: page.getByRole('radio', { name: 'CAC Users', exact: true }) }).click();
  await page.getByRole('button', { name: 'CAC LOGIN' }).click();
  return { page, context };
}

test('a registered smart card signs its holder in', async ({ browser }) => {
  const { page, context } = await signInWithCard(browser, 'DOE.JOHN.QUINCY.1234567890', 'doe');
  await expect(page).toHaveURL(`${origin}/profile`);
  await expect(page.getByRole('banner')).toContainText('admin');
  await context.close();
});

test('the account binds to the identity number, not the name on the card', async ({ browser }) => {
  const { page, context } = await signInWithCard(browser, 'DOE.JONATHAN.Q.1234567890', 'renamed');
  await expect(page.getByRole('banner')).toContainText('admin');
  await context.close();
});

test('an unregistered card is told how to get an account or register the card', async ({ browser }) => {
  const { page, context } = await signInWithCard(browser, 'ROE.RICHARD.1987654321', 'stranger');
  await expect(page.getByRole('alert').filter({ hasText: '(code 404)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request an account' })).toHaveAttribute('href', '/request-account');
  await expect(page.getByRole('link', { name: 'register your CAC' })).toHaveAttribute('href', '/register-cac');
  await context.close();
});

/** A browser holding a smart card with this CN (not yet on any page). */
async function browserWithCard(browser: Browser, commonName: string, file: string): Promise<{ page: Page; context: BrowserContext }> {
  const card = await pki.issueClient(commonName, file);
  const context = await browser.newContext({ ignoreHTTPSErrors: true, clientCertificates: [{ origin, certPath: card.cert, keyPath: card.key }] });
  return { page: await context.newPage(), context };
}

test('a visitor requests an account with the smart card: the request carries the card', async ({ browser }) => {
  const { page, context } = await browserWithCard(browser, 'LOVELACE.ADA.2222222222', 'ada');
  await page.goto(`${origin}/request-account`);
  await expect(page.getByRole('radio', { name: 'CAC authentication' })).toBeChecked();
  await expect(page.getByText(/Insert your CAC before you continue/)).toBeVisible();
  const fields: [string, string][] = [
    ['First name', 'Ada'],
    ['Last name', 'Lovelace'],
    ['Username', 'ada.lovelace'],
    ['Business phone', '+1 555 010 0002'],
    ['Email', 'ada.lovelace@agency.example'],
    ['Confirm email', 'ada.lovelace@agency.example'],
    ['Street', '2 Engine Rd'],
    ['City', 'London'],
    ['State', 'LDN'],
    ['Postal code', 'N1 9GU'],
    ['Country', 'UK'],
    ['Company or government office symbol', 'ANALYTICAL'],
    ['Project', 'Engine'],
    ['Supervisor first name', 'Charles'],
    ['Supervisor last name', 'Babbage'],
    ['Supervisor email', 'charles.babbage@agency.example'],
    ['Supervisor phone', '555-010-0003'],
    ['Reason for account', 'Programs for the Analytical Engine.'],
  ];
  for (const [label, value] of fields) await page.getByRole('textbox', { name: label, exact: true }).fill(value);
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Success' })).toBeVisible();
  await waitForMail('ada.lovelace@agency.example', /request/i, 0, tls.dataDir);
  await context.close();
});

test('a token user registers a smart card, then signs in with it', async ({ browser }) => {
  const { page, context } = await browserWithCard(browser, 'USER.UMA.3333333333', 'uma');
  await page.goto(`${origin}/register-cac`);
  await expect(page.getByRole('heading', { name: 'Register CAC' })).toBeVisible();
  const data = tls.dataDir;
  const before = mailsTo('user@example.test', data).length;
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('user@example.test');
  await solveChallenge(page);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await page.getByRole('textbox', { name: 'Verification code', exact: true }).fill(await verificationCode('user@example.test', before, data));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Register CAC' }).click();
  // The demo configuration approves registrations automatically.
  await expect(page.getByText('Success! You may now use your CAC to log in.')).toBeVisible();

  await page.goto(`${origin}/login?redirect=%2Fprofile`);
  await page.getByRole('tab', { name: 'Returning Users' }).click();
  await page.locator('label').filter({ has: page.getByRole('radio', { name: 'CAC Users', exact: true }) }).click();
  await page.getByRole('button', { name: 'CAC LOGIN' }).click();
  await expect(page).toHaveURL(`${origin}/profile`);
  await expect(page.getByRole('heading', { name: 'User Profile: user' })).toBeVisible();
  await context.close();
});
