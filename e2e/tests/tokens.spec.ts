/**
 * Tokens in Chromium against the real portal: `user` creates a token in hours (the
 * preview shows the date and the hour), copies it once, a platform service's introspection call
 * with it answers active with its scope, the user revokes it and introspection answers inactive;
 * a user without artifact rights cannot create one; without the artifact repository
 * /tokens/artifactory goes to /profile (a portal of its own, configured so).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { e2eDir } from './fixtures';
import { portal } from './portal';
import { startPortalServer, type PortalServer } from './portal-server';
import { demoToken, signIn, submitTokenSignIn } from './session';
import { pressInDialog } from './dialog';

test.describe.configure({ timeout: 180_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** A service credential made the way an operator makes one: `portal service-credentials create`. */
function serviceCredential(name: string): { name: string; secret: string } {
  return JSON.parse(portal('service-credentials', 'create', name, '--json')) as { name: string; secret: string };
}

async function introspect(page: Page, credential: { name: string; secret: string }, token: string): Promise<Record<string, unknown>> {
  const response = await page.request.post('/oauth2/introspect', {
    headers: { authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}` },
    form: { token },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

test('user creates a token in hours, copies it, a service finds it active, the user revokes it, the service finds it inactive', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `E2E build ${Date.now().toString(36)}`;
  const credential = serviceCredential(`e2e-proxy-${Date.now().toString(36)}`);
  await signIn(page, 'user', '/tokens/artifactory');
  await expect(heading(page, 'Artifactory Access Tokens')).toBeVisible();
  // The demo's expired token.
  await expect(page.getByRole('row').filter({ hasText: 'Old release upload' }).getByText('EXPIRED')).toBeVisible();

  await page.getByRole('button', { name: 'Create Token' }).click();
  const form = page.getByRole('form', { name: 'Create a token' });
  await expect(form.getByRole('button', { name: 'Create' })).toBeDisabled();
  await form.getByLabel('Token name').fill(name);
  await form.getByRole('checkbox', { name: 'PORTAL (Portal Team)' }).check();
  await form.getByRole('radiogroup', { name: 'Access in PORTAL' }).getByText('Write').click();
  await form.getByLabel('Expires in').fill('5');
  await form.getByRole('radiogroup', { name: 'Unit' }).getByText('Hours').click();
  await expect(form.getByText(/^The token expires on \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/)).toBeVisible();
  await form.getByRole('button', { name: 'Create' }).click();

  await expect(page.getByRole('heading', { name: `Token '${name}' created.` })).toBeVisible();
  const token = await page.getByLabel('Your new token').inputValue();
  expect(token).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const active = await introspect(page, credential, token);
  expect(active).toMatchObject({ active: true, scope: 'PORTAL-artifactsWrite', username: 'user', client_id: credential.name });

  await page.getByRole('button', { name: 'Continue' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await pressInDialog(page.getByRole('dialog', { name: 'Revoke token?' }), 'Revoke');
  await expect(page.getByText(`Token '${name}' revoked.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await introspect(page, credential, token)).toEqual({ active: false });
});

test('a user without artifact rights is told there is no group to create a token for', async ({ page }) => {
  await signIn(page, 'helpdesk', '/tokens/artifactory');
  await page.getByRole('button', { name: 'Create Token' }).click();
  await expect(page.getByText('There are no groups for which you may create a token.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create', exact: true })).toHaveCount(0);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`/tokens/services links the source host, the wiki and the issue tracker, and the project-token path with PROJECT_KEY, ${colorScheme}`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'user', '/tokens/services');
    await expect(heading(page, 'Service Tokens')).toBeVisible();
    // The demo configures the three through service_origins.
    await expect(page.getByRole('main').getByRole('heading', { level: 3 })).toHaveText(['Bitbucket', 'Confluence (wiki)', 'Jira (issue tracker)']);
    await expect(page.getByRole('link', { name: 'Your Bitbucket tokens' })).toHaveAttribute('href', 'https://code.example.test/plugins/servlet/access-tokens/users/manage');
    await expect(page.getByRole('link', { name: 'Your Confluence (wiki) tokens' })).toHaveAttribute('href', 'https://wiki.example.test/plugins/personalaccesstokens/usertokens.action');
    await expect(page.getByRole('link', { name: 'Your Jira (issue tracker) tokens' })).toHaveAttribute('href', /^https:\/\/jira\.example\.test\/secure\/ViewProfile\.jspa\?/);
    await expect(page.getByText('https://code.example.test/plugins/servlet/access-tokens/projects/PROJECT_KEY/manage', { exact: true })).toBeVisible();
    await page.getByLabel('Project key').fill('web');
    await expect(page.getByRole('link', { name: 'Open the tokens of project WEB' })).toHaveAttribute('href', 'https://code.example.test/plugins/servlet/access-tokens/projects/WEB/manage');
    await page.screenshot({ path: testInfo.outputPath(`service-tokens-${colorScheme}.png`), fullPage: true });
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the token screens have no serious accessibility problems, ${colorScheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'user', '/tokens/artifactory');
    const check = (where: string) => expectAccessible(page, where);
    await expect(page.getByText('Old release upload')).toBeVisible();
    await check('the token list');
    await page.getByRole('button', { name: 'Create Token' }).click();
    await expect(page.getByRole('form', { name: 'Create a token' })).toBeVisible();
    await check('the create form');
    // The copy-once view and the revoke confirmation, with a token made for them.
    const name = `Axe ${colorScheme} ${Date.now().toString(36)}`;
    const form = page.getByRole('form', { name: 'Create a token' });
    await form.getByLabel('Token name').fill(name);
    await form.getByRole('checkbox', { name: 'PORTAL (Portal Team)' }).check();
    await form.getByLabel('Expires in').fill('3');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { name: `Token '${name}' created.` })).toBeVisible();
    await check('the copy-once view');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke token?' });
    await expect(confirm.getByRole('button', { name: 'Revoke' })).toBeVisible();
    await check('the revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText(`Token '${name}' revoked.`)).toBeVisible();
    await page.goto('/tokens/services');
    await expect(heading(page, 'Service Tokens')).toBeVisible();
    await check('/tokens/services');
  });
}

test.describe('without the artifact repository', () => {
  let other: PortalServer;

  test.beforeAll(async () => {
    other = await startPortalServer({ dataDir: join(mkdtempSync(join(e2eDir(), 'portal-noartifacts-')), 'data'), env: { PORTAL_SUPPORTED_SERVICES: 'jira,confluence' } });
  });

  test.afterAll(async () => {
    await other?.stop();
  });

  test('/tokens/artifactory goes to /profile, and the token calls are not there', async ({ page }) => {
    await page.goto(`${other.url}/login?redirect=%2Ftokens%2Fartifactory`);
    await submitTokenSignIn(page, 'user', demoToken('user', other.dataDir));
    await expect(page).toHaveURL(`${other.url}/profile`);
    await expect(heading(page, 'User Profile: user')).toBeVisible();
    const response = await page.request.get(`${other.url}/accounts/rest/tokens`);
    expect(response.status()).toBe(404);
  });
});
