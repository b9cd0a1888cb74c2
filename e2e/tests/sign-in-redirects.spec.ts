/**
 * A platform service sends a signed-in user back to /login?redirect=… (spec section 2: "the
 * user's subscriptions are checked"), in Chromium against the demo portal, whose configuration
 * names the demo services' origins: without the service's subscription the user lands on
 * /subscriptions with the spec's warning naming the service (the issue tracker's address and the
 * wiki's, Confluence's); holding it, the user is sent to the service. Screenshots in both themes.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { portal } from './portal';
import { signIn, submitTokenSignIn } from './session';

const warning = (service: string) =>
  `${service} has redirected you to this page because your account is lacking a service subscription. Please select a subscription to the service.`;

const JIRA_ISSUE = 'https://jira.example.test/browse/X-1';
const WIKI_PAGE = 'https://wiki.example.test/display/WEB/Home';

/** The services' sites do not exist here: a page of the test's own stands in for each. */
async function standInServices(page: Page): Promise<void> {
  for (const origin of ['https://jira.example.test', 'https://wiki.example.test']) {
    await page.route(`${origin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: `<title>${origin}</title><h1>The service at ${origin}</h1>` }));
  }
}

const openLogin = (page: Page, redirect: string) => page.goto(`/login?${new URLSearchParams({ redirect })}`);

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('a user without the service lands on /subscriptions with the warning naming it; subscribed, the next redirect opens the service', async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      // A new account holds no service, directly or through a group.
      const username = `nosubs.${colorScheme}${Date.now() % 100_000}`;
      const { token } = JSON.parse(portal('create-admin', '--username', username, '--email', `${username}@example.test`, '--json').trim()) as { token: string };
      await standInServices(page);
      await page.goto('/login?redirect=%2Fprofile');
      await submitTokenSignIn(page, username, token);
      await expect(page.getByRole('heading', { name: `User Profile: ${username}` })).toBeVisible();

      // The issue tracker sent the user back.
      await openLogin(page, JIRA_ISSUE);
      await expect(page).toHaveURL(/\/subscriptions\?service=jira$/);
      await expect(page.getByRole('alert').filter({ hasText: warning('Jira') })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: 'Jira', exact: true })).not.toBeChecked();
      await page.screenshot({ path: testInfo.outputPath(`subscriptions-jira-${colorScheme}.png`), fullPage: true });

      // The wiki is Confluence.
      await openLogin(page, WIKI_PAGE);
      await expect(page).toHaveURL(/\/subscriptions\?service=confluence$/);
      await expect(page.getByRole('alert').filter({ hasText: warning('Confluence') })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`subscriptions-confluence-${colorScheme}.png`), fullPage: true });

      // Subscribed to Jira, the same redirect opens the issue.
      await page.getByRole('checkbox', { name: 'Jira', exact: true }).check();
      await expect(page.getByRole('checkbox', { name: 'Jira', exact: true })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: 'Jira', exact: true })).toBeEnabled();
      await openLogin(page, JIRA_ISSUE);
      await expect(page).toHaveURL(JIRA_ISSUE);
      await expect(page.getByRole('heading', { name: 'The service at https://jira.example.test' })).toBeVisible();
    });
  });
}

test('a user who holds the services (through a group) is sent to each', async ({ page }) => {
  await standInServices(page);
  // user holds Jira and Confluence through PORTAL.
  await signIn(page, 'user');
  for (const target of [JIRA_ISSUE, WIKI_PAGE]) {
    await openLogin(page, target);
    await expect(page).toHaveURL(target);
  }
});
