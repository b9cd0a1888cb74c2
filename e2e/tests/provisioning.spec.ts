/**
 * Provisioning in Chromium against the real portal and a real OpenLDAP slapd (Debian's slapd and
 * ldap-utils; the same throwaway slapd the server's tests start): a group admin approves a
 * membership request and ldapsearch finds the member in the group's team within seconds, the
 * requester's profile says its access is up to date; with the directory stopped, the site
 * administrator's decision fails with its reason on the Provisioning page, and once the directory
 * is back, Retry clears it. The page is checked with axe in both themes, with a failure on it.
 */
import type { Browser, Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { groupMembers, LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, startSlapd, type Slapd } from '../../server/test/ldap-helpers';
import { expectAccessible } from './axe';
import { e2eDir, expect, test } from './fixtures';
import { startPortalServer, type PortalServer } from './portal-server';
import { demoToken, submitTokenSignIn, type DemoUser } from './session';
import { pressInDialog } from './dialog';

test.describe.configure({ timeout: 240_000 });

let slapd: Slapd;
let portal: PortalServer;

test.beforeAll(async () => {
  slapd = await startSlapd();
  portal = await startPortalServer({
    dataDir: join(mkdtempSync(join(e2eDir(), 'portal-ldap-')), 'data'),
    env: {
      PORTAL_LDAP_URL: slapd.url,
      PORTAL_LDAP_BIND_DN: LDAP_ADMIN_DN,
      PORTAL_LDAP_BIND_PASSWORD: LDAP_ADMIN_PASSWORD,
      PORTAL_LDAP_BASE_DN: LDAP_SUFFIX,
    },
  });
});

test.afterAll(async () => {
  await portal?.stop();
  await slapd?.remove();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** A person of the demo data, signed in on a browser context of their own. */
async function signedIn(browser: Browser, username: DemoUser, redirect = '/profile'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: portal.url })).newPage();
  await page.goto(`/login?${new URLSearchParams({ redirect })}`);
  await submitTokenSignIn(page, username, demoToken(username, portal.dataDir));
  await expect(page.getByRole('link', { name: 'Logout' })).toBeVisible();
  return page;
}

/** The group admin approves a pending membership request of the demo data on /group-administration/PORTAL. */
async function approveMembership(admin: Page, username: string): Promise<void> {
  await admin.goto('/group-administration/PORTAL');
  await admin.getByRole('region', { name: 'Membership Requests' }).getByRole('row').filter({ hasText: username }).getByRole('link', { name: '[details]' }).click();
  await expect(admin.getByRole('heading', { name: /^Membership Request \d+$/ })).toBeVisible();
  await admin.getByRole('button', { name: 'Approve' }).click();
  await pressInDialog(admin, 'Approve');
  await expect(admin.getByText(`Membership request of ${username} for PORTAL approved.`)).toBeVisible();
}

test('an approved membership reaches the directory in seconds and the profile says so; a failure while it is down shows on the Provisioning page, and Retry clears it', async ({
  browser,
}, testInfo) => {
  const admin = await signedIn(browser, 'admin');
  const requester = await signedIn(browser, 'helpdesk');

  // The start's reconcile filled the empty directory: helpdesk is not on PORTAL's team yet.
  await expect.poll(() => groupMembers(slapd.url, LDAP_SUFFIX, 'PORTAL-admin'), { timeout: 30_000 }).toEqual(['admin']);
  expect(groupMembers(slapd.url, LDAP_SUFFIX, 'PORTAL-team')).not.toContain('helpdesk');

  await approveMembership(admin, 'helpdesk');
  const approved = Date.now();
  await expect.poll(() => groupMembers(slapd.url, LDAP_SUFFIX, 'PORTAL-team'), { timeout: 5_000, intervals: [100] }).toContain('helpdesk');
  testInfo.annotations.push({ type: 'in the directory after', description: `${Date.now() - approved} ms` });

  // The requester's profile: every service it uses is up to date.
  await requester.goto('/profile');
  await expect(heading(requester, 'User Profile: helpdesk')).toBeVisible();
  const access = requester.getByRole('region', { name: 'Service Access' });
  await expect(access.getByRole('row').first()).toBeVisible();
  const words = await access.getByRole('cell').allTextContents();
  expect(words.length).toBeGreaterThan(0);
  expect(words.every((w) => w === 'Up to date'), words.join(' | ')).toBe(true);
  await requester.screenshot({ path: testInfo.outputPath('profile-service-access-light.png'), fullPage: true });
  await expectAccessible(requester, '/profile with its service access (light)');

  // The directory stops; the site administrator decides anyway: the decision stands, its change fails.
  await slapd.stop();
  try {
    await approveMembership(admin, 'renewal.user');
    await admin.goto('/provisioning');
    await expect(heading(admin, 'Provisioning')).toBeVisible();
    const failures = admin.getByRole('region', { name: 'Failures' });
    const reason = /^the directory did not answer at ldap:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/;
    await expect
      .poll(
        async () => {
          await admin.getByRole('button', { name: 'Refresh' }).click();
          await expect(admin.locator('#main .ant-spin-spinning')).toHaveCount(0);
          return failures.getByRole('cell').filter({ hasText: reason }).count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await expect(failures.getByRole('row').nth(1).getByRole('cell').nth(0)).toHaveText('ldap');
    await expect(admin.getByRole('region', { name: 'Targets' }).getByRole('row').nth(1).getByRole('cell').nth(0)).toHaveText('ldap (ldap)');
    await expect(admin.getByRole('region', { name: 'History' }).getByRole('cell', { name: 'Failed', exact: true }).first()).toBeVisible();
    await expect(admin.getByRole('link', { name: 'Download history (CSV)' })).toHaveAttribute('href', '/accounts/rest/provisioning/history.csv');

    // Seen with a failure on it: no serious accessibility problem in either theme (the pointer moved
    // off Refresh, which it last pressed: antd's hover colour of a default button is measured otherwise).
    await admin.mouse.move(0, 0);
    for (const colorScheme of ['light', 'dark'] as const) {
      await admin.emulateMedia({ colorScheme });
      // Opened again in that scheme, as the accessibility spec opens its screens (not switched mid-page).
      await admin.reload();
      await expect(failures.getByRole('cell').filter({ hasText: reason })).toBeVisible();
      await expect(admin.getByText(/^Read at \d{1,2}:\d{2}:\d{2} [AP]M; read again every 15 seconds\.$/)).toBeVisible();
      await expectAccessible(admin, `/provisioning (${colorScheme})`);
      await admin.screenshot({ path: testInfo.outputPath(`provisioning-${colorScheme}.png`), fullPage: true });
    }
    await admin.emulateMedia({ colorScheme: 'light' });
  } finally {
    await slapd.start();
  }

  // The directory is back: Retry, and the failure clears.
  await admin.getByRole('region', { name: 'Failures' }).getByRole('button', { name: 'Retry' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /being tried again|Nothing was waiting/ })).toBeVisible();
  await expect
    .poll(
      async () => {
        await admin.getByRole('button', { name: 'Refresh' }).click();
        await expect(admin.locator('#main .ant-spin-spinning')).toHaveCount(0);
        return admin.getByRole('region', { name: 'Failures' }).getByText('No failures.').count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(admin.getByRole('region', { name: 'Targets' }).getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('0');
  expect(groupMembers(slapd.url, LDAP_SUFFIX, 'PORTAL-team')).toContain('helpdesk');

  // The profile's service access in the dark theme.
  await requester.emulateMedia({ colorScheme: 'dark' });
  await requester.goto('/profile');
  await expect(requester.getByRole('region', { name: 'Service Access' }).getByRole('row').first()).toBeVisible();
  await requester.screenshot({ path: testInfo.outputPath('profile-service-access-dark.png'), fullPage: true });
  await expectAccessible(requester, '/profile with its service access (dark)');
});

test('Reconcile now asks first, then says what it repaired', async ({ browser }) => {
  const admin = await signedIn(browser, 'admin', '/provisioning');
  await expect(heading(admin, 'Provisioning')).toBeVisible();
  await admin.getByRole('button', { name: 'Reconcile now' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Reconcile now?' });
  await pressInDialog(dialog, 'Reconcile');
  await expect(admin.getByRole('status').filter({ hasText: 'Reconcile finished.' })).toContainText(/ldap: \d+ differences? from the portal/);
  await expect(admin.getByRole('region', { name: 'History' }).getByRole('cell', { name: 'Reconciled', exact: true }).first()).toBeVisible();
});
