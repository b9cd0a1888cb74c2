/**
 * The group screens with content on them, checked with axe in the light and the dark theme (there,
 * the rules a theme can change: axe.ts, THEME_RULES), and the membership form's help and choices
 * worked with the keyboard alone.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, rulesFor } from './axe';
import { signIn } from './session';

test.describe.configure({ timeout: 180_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** Each group screen, at a demo address, with what shows once it has loaded. */
const SCREENS: [path: string, title: string, loaded: (page: Page) => ReturnType<Page['getByText']>][] = [
  ['/groups', 'Groups', (page) => page.getByRole('link', { name: 'PORTAL', exact: true })],
  ['/group-administration/PORTAL', 'Group Administration: PORTAL', (page) => page.getByRole('link', { name: 'Change' }).first()],
  ['/request-user-group', 'Request User Group', (page) => page.getByLabel('Group ID')],
  ['/edit-usergroup-details/PORTAL', 'Edit User Group Details: PORTAL', (page) => page.getByLabel('Group name')],
  ['/request-membership/DEVOPS?groups=DEVOPS-team', 'Request Membership: DEVOPS', (page) => page.getByRole('button', { name: 'Submit Membership Request' })],
  ['/change-membership/PORTAL/user', 'Change Membership: PORTAL', (page) => page.getByRole('button', { name: 'Remove User From Group' })],
  ['/add-user-to-group/PORTAL?term=help', 'Add User To Group PORTAL', (page) => page.getByRole('link', { name: 'helpdesk', exact: true })],
  ['/add-user-to-group/PORTAL/helpdesk', 'Add User To Group PORTAL', (page) => page.getByRole('button', { name: 'Add User' })],
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the group screens have no serious accessibility problems, ${colorScheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'admin', '/groups');
    for (const [path, title, loaded] of SCREENS) {
      await page.goto(path);
      await expect(heading(page, title), path).toBeVisible();
      await expect(loaded(page), path).toBeVisible();
      await expectAccessible(page, path, rulesFor(colorScheme));
    }
  });
}

test('the membership form from the keyboard: a help dialog opened and closed, a role chosen with the arrow keys', async ({ page }) => {
  await signIn(page, 'admin', '/request-membership/DEVOPS');
  await expect(heading(page, 'Request Membership: DEVOPS')).toBeVisible();
  const help = page.getByRole('button', { name: 'Help: Requested role' });
  await help.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Group roles' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const user = page.getByRole('radio', { name: 'User', exact: true });
  await expect(user).toBeChecked();
  await user.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Team', exact: true })).toBeChecked();
});
