/**
 * Groups, in Chromium against the real portal: a user requests a group, an adjudicator
 * approves it, the requester administers it; another user asks to join with ?groups=, the group's
 * admin approves on the group administration page, the member turns notifications off and leaves;
 * the admin adds a user; a hidden group stays invisible to others.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './session';
import { pressInDialog } from './dialog';

// A story with three people and three security challenges.
test.describe.configure({ timeout: 240_000 });

async function personPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** The Jira notification choice of the membership form. */
const notification = (page: Page) => page.getByRole('radiogroup', { name: /Jira notification/ });

test('a group from its request to its members: join with ?groups=, approval by its admin, notification off, leave, add user', async ({ browser }) => {
  const id = `E2E${Date.now().toString(36).toUpperCase()}`;
  const owner = await personPage(browser);
  const adjudicator = await personPage(browser);
  const member = await personPage(browser);
  await signIn(owner, 'user');
  await signIn(adjudicator, 'adjudicator');
  await signIn(member, 'helpdesk');

  // The user asks for a group.
  await owner.goto('/request-user-group');
  await expect(heading(owner, 'Request User Group')).toBeVisible();
  await owner.getByRole('button', { name: 'Submit Request' }).click();
  await expect(owner.getByText('ID must be at least 2 characters long.')).toBeVisible();
  await owner.getByLabel('Group ID').fill(id);
  await owner.getByLabel('Group name').fill('End to end team');
  await owner.getByLabel('Description').fill('Made by the groups end-to-end test.');
  await owner.getByLabel(/Additional permission groups/).fill(`${id}-release, ${id}-deploy`);
  await owner.getByLabel('Reason').fill('Testing groups end to end.');
  await owner.getByRole('button', { name: 'Submit Request' }).click();
  await expect(owner).toHaveURL(/\/groups$/);
  await expect(owner.getByText('User group request sent.')).toBeVisible();

  // The adjudicator approves it in the user group queue.
  await adjudicator.goto('/list-user-group-requests');
  const row = adjudicator.getByRole('row').filter({ hasText: id });
  await row.getByRole('link', { name: '[details]' }).click();
  await adjudicator.getByRole('button', { name: 'Approve' }).click();
  await pressInDialog(adjudicator, 'Approve');
  await expect(adjudicator.getByText(`New user group ${id} created.`)).toBeVisible();

  // The requester administers it.
  await owner.goto('/groups');
  await owner.getByRole('link', { name: id, exact: true }).click();
  await expect(heading(owner, `Group Administration: ${id}`)).toBeVisible();
  await expect(owner.getByRole('link', { name: 'Edit group details' })).toBeVisible();
  await expect(owner.getByText(`${id}-release`)).toBeVisible();

  // Another user asks to join as team with high notifications, from a link naming the groups.
  await member.goto(`/request-membership/${id}?groups=${id}-team,${id}-notification-high`);
  await expect(heading(member, `Request Membership: ${id}`)).toBeVisible();
  await expect(member.getByRole('radio', { name: 'Team', exact: true })).toBeChecked();
  await expect(notification(member).getByRole('radio', { name: 'High', exact: true })).toBeChecked();
  await member.getByRole('button', { name: 'Submit Membership Request' }).click();
  await expect(member.getByText('Reason is required.')).toBeVisible();
  await member.getByLabel('Reason (required)').fill('I run the pipelines.');
  await member.getByRole('button', { name: 'Submit Membership Request' }).click();
  await expect(member.getByText(`Request to join ${id} sent.`)).toBeVisible();
  // /groups says the request waits, and does not offer to ask again.
  const waiting = member.getByRole('region', { name: 'Groups you may join' }).getByRole('row').filter({ hasText: id });
  await expect(waiting.getByText('Request pending')).toBeVisible();
  await expect(waiting.getByRole('link', { name: 'Request membership' })).toHaveCount(0);

  // The group's admin approves it on the group administration page.
  await owner.goto(`/group-administration/${id}`);
  const requests = owner.getByRole('region', { name: 'Membership Requests' });
  await requests.getByRole('row').filter({ hasText: 'helpdesk' }).getByRole('link', { name: '[details]' }).click();
  await expect(owner.getByRole('heading', { name: /^Membership Request \d+$/ })).toBeVisible();
  await owner.getByRole('button', { name: 'Approve' }).click();
  await pressInDialog(owner, 'Approve');
  await expect(owner.getByText(`Membership request of helpdesk for ${id} approved.`)).toBeVisible();
  const members = owner.getByRole('region', { name: 'Members' });
  await expect(members.getByRole('row').filter({ hasText: 'helpdesk' })).toContainText('Team');

  // The member turns notifications off, then leaves.
  await member.goto(`/change-membership/${id}`);
  await expect(member.getByText('Current role')).toBeVisible();
  await notification(member).getByText('None', { exact: true }).click();
  await member.getByRole('button', { name: 'Submit Membership Request' }).click();
  await expect(member.getByText(`Membership of ${id} changed.`)).toBeVisible();
  await member.goto(`/change-membership/${id}`);
  await expect(notification(member).getByRole('radio', { name: 'None', exact: true })).toBeChecked();
  await member.getByRole('button', { name: 'Leave Group' }).click();
  await pressInDialog(member, 'Leave Group');
  await expect(member.getByText(`You left the ${id} user group.`)).toBeVisible();

  // The admin adds a user.
  await owner.goto(`/add-user-to-group/${id}`);
  await expect(heading(owner, `Add User To Group ${id}`)).toBeVisible();
  await owner.getByRole('textbox', { name: /Search/ }).fill('adjudicator');
  await owner.getByRole('button', { name: 'Search' }).click();
  await owner.getByRole('link', { name: 'adjudicator', exact: true }).click();
  await owner.getByRole('button', { name: 'Add User' }).click();
  await expect(owner).toHaveURL(new RegExp(`/group-administration/${id}$`));
  await expect(owner.getByText(`adjudicator has been added to ${id}.`)).toBeVisible();
  await expect(owner.getByRole('region', { name: 'Members' }).getByRole('row').filter({ hasText: 'adjudicator' })).toContainText('User');
  await expect(owner.getByRole('region', { name: 'Members' }).getByRole('row').filter({ hasText: 'helpdesk' })).toHaveCount(0);
});

test('a hidden group stays invisible to those who are not its members', async ({ browser }) => {
  const other = await personPage(browser);
  await signIn(other, 'helpdesk');
  await other.goto('/groups');
  await expect(other.getByRole('region', { name: 'Groups you may join' }).getByText('DEVOPS').or(other.getByRole('region', { name: 'My groups' }).getByText('DEVOPS')).first()).toBeVisible();
  await expect(other.getByText('SECURE', { exact: true })).toHaveCount(0);
  await other.goto('/group-administration/SECURE');
  await expect(other.getByText('The requested resource was not found.')).toBeVisible();
  await other.goto('/request-membership/SECURE');
  await expect(other.getByText('The requested resource was not found.')).toBeVisible();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`an additional permission group outside the group's prefix: the message names the group's id, ${colorScheme}`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'admin', '/group-administration/PORTAL');
    await expect(heading(page, 'Group Administration: PORTAL')).toBeVisible();
    await page.getByLabel(/New permission groups/).fill('OTHER-x');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const message = page.getByText('Special permission groups for this group must be prefixed with PORTAL.', { exact: true });
    await expect(message).toBeVisible();
    await message.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`permission-group-prefix-${colorScheme}.png`) });
  });
}

test("the links follow the server's per-group permissions: admin and adjudicator reach DEVOPS's administration, the adjudicator adds a user there, the help desk a member's removal", async ({ browser }) => {
  const admin = await personPage(browser);
  const adjudicator = await personPage(browser);
  const helpdesk = await personPage(browser);
  await signIn(admin, 'admin', '/groups');
  await signIn(adjudicator, 'adjudicator', '/groups');
  await signIn(helpdesk, 'helpdesk', '/manage-accounts/user');

  // DEVOPS has no admin of its own: admin and adjudicator decide its requests, not being members.
  for (const page of [admin, adjudicator]) {
    await page.goto('/groups');
    await page.getByRole('region', { name: 'Groups you may join' }).getByRole('link', { name: 'DEVOPS', exact: true }).click();
    await expect(heading(page, 'Group Administration: DEVOPS')).toBeVisible();
  }
  await adjudicator.getByRole('region', { name: 'Members' }).getByRole('link', { name: 'Add user to group' }).click();
  await expect(heading(adjudicator, 'Add User To Group DEVOPS')).toBeVisible();

  // The help desk, from a member's account, to the change of one of their memberships.
  await expect(heading(helpdesk, 'Account Administration')).toBeVisible();
  await helpdesk.getByRole('link', { name: 'Change membership of user in PORTAL' }).click();
  await expect(heading(helpdesk, 'Change Membership: PORTAL')).toBeVisible();
  await expect(helpdesk.getByRole('button', { name: 'Remove User From Group' })).toBeVisible();
});

test("a DoD group's form says its constraint before anything is sent, and offers no group of a service the portal does not offer", async ({ browser }) => {
  const admin = await personPage(browser);
  // SECURE is DoD and uses the interface repository, which the demo portal does not offer.
  await signIn(admin, 'admin', '/change-membership/SECURE');
  await expect(heading(admin, 'Change Membership: SECURE')).toBeVisible();
  await expect(admin.getByText('Members of SECURE must sign in with a smart card (DoD PKI).')).toBeVisible();
  await expect(admin.getByText('Current role')).toBeVisible();
  await expect(admin.getByText('Interface Repository group')).toHaveCount(0);
});
