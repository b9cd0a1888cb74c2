/**
 * Mailing lists in Chromium against the real portal and its SMTP listener: a group
 * admin requests a list, an adjudicator approves it, members subscribe (one switches to the
 * digest), an outsider posts over SMTP, the moderator sees the post held, expands it, accepts it,
 * and the immediate subscriber's mail is in the outbox; every list screen passes axe in both themes.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible } from './axe';
import { mailsTo, waitForMail } from './mail';
import { signIn } from './session';
import { postToList } from './smtp';
import { pressInDialog } from './dialog';

test.describe.configure({ timeout: 240_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
const personPage = async (browser: Browser) => (await browser.newContext()).newPage();

test('a list from its request to a delivered post: request, approval, subscribe and digest, a held post accepted', async ({ browser }) => {
  const name = `e2e${Date.now().toString(36)}`;
  const address = `portal-${name}@example.test`;
  const admin = await personPage(browser);
  const adjudicator = await personPage(browser);
  const user = await personPage(browser);
  const helpdesk = await personPage(browser);
  await signIn(admin, 'admin');
  await signIn(adjudicator, 'adjudicator');
  await signIn(user, 'user');
  await signIn(helpdesk, 'helpdesk');

  // PORTAL's admin asks for an opt-in list of its users.
  await admin.goto('/mailing-lists/new/PORTAL');
  await expect(heading(admin, 'Request Mailing List')).toBeVisible();
  await admin.getByRole('button', { name: 'Submit Request' }).click();
  await expect(admin.getByText('Please enter a list name')).toBeVisible();
  await admin.getByLabel('List name').fill(name);
  await expect(admin.getByText(address)).toBeVisible();
  await admin.getByLabel('Description').fill('Made by the mailing list end-to-end test');
  // From the keyboard: the choice after PORTAL-team.
  await admin.getByLabel('Permission group').focus();
  await admin.keyboard.press('Enter');
  await admin.keyboard.press('ArrowDown');
  await admin.keyboard.press('Enter');
  await expect(admin.getByTitle('PORTAL-user', { exact: true }).filter({ visible: true })).toHaveCount(1);
  await admin.getByText('Opt-in:').click();
  await admin.getByLabel('Reason').fill('Testing lists end to end.');
  await admin.getByRole('button', { name: 'Submit Request' }).click();
  await expect(admin).toHaveURL(/\/mailing-lists$/);
  await expect(admin.getByText('Mailing list request submitted.')).toBeVisible();

  // An adjudicator approves it.
  await adjudicator.goto('/list-mailing-list-requests');
  await adjudicator.getByRole('row').filter({ hasText: address }).getByRole('link', { name: '[details]' }).click();
  await adjudicator.getByRole('button', { name: 'Approve' }).click();
  await pressInDialog(adjudicator, 'Approve');
  await expect(adjudicator.getByText(`New mailing list ${address} created.`)).toBeVisible();

  // Members subscribe; user switches to the daily digest.
  await helpdesk.goto('/mailing-lists');
  await helpdesk.getByRole('checkbox', { name: `Subscribed to ${address}` }).check();
  await expect(helpdesk.getByRole('checkbox', { name: `Subscribed to ${address}` })).toBeChecked();
  await user.goto('/mailing-lists');
  await user.getByRole('checkbox', { name: `Subscribed to ${address}` }).check();
  const digest = user.getByRole('switch', { name: `Daily digest for ${address}` });
  await expect(digest).not.toBeChecked();
  await digest.click();
  await expect(digest).toBeChecked();
  await user.reload();
  await expect(user.getByRole('switch', { name: `Daily digest for ${address}` })).toBeChecked();

  // An outsider posts over SMTP: held, since only subscribers may post.
  const body = ['Hello list,', '', ...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long message.`), '<b>not markup</b>'].join('\n');
  await postToList({ from: 'outsider@elsewhere.example', to: address, subject: `Hello ${name}`, text: body });

  // The moderator sees it held, expands it, accepts it.
  await admin.goto('/mailing-lists');
  await admin.getByRole('link', { name: new RegExp(`^View held messages \\(1\\): ${address.replace(/\./g, '\\.')}$`) }).click();
  await expect(heading(admin, 'Held Messages')).toBeVisible();
  const card = admin.getByRole('article', { name: `Hello ${name}` });
  await expect(card.getByText('outsider@elsewhere.example')).toBeVisible();
  await expect(card.getByText('<b>not markup</b>')).toBeAttached();
  await card.getByRole('button', { name: 'Show the whole message' }).click();
  await expect(card.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  await card.getByRole('radiogroup').getByText('Accept', { exact: true }).click();
  await admin.getByRole('button', { name: 'Submit' }).click();
  await expect(admin.getByText('1 message accepted, 0 discarded.')).toBeVisible();
  await expect(admin.getByText('There are currently no messages in this queue.')).toBeVisible();

  // The immediate subscriber's copy is in the outbox; the digest subscriber waits for the digest.
  const mail = await waitForMail('helpdesk@example.test', new RegExp(`^\\[portal-${name}\\] Hello ${name}$`));
  expect(mail.text).toContain('From: outsider@elsewhere.example');
  expect(mail.text).toContain('Line 30 of a long message.');
  expect(mailsTo('user@example.test').some((m) => m.subject.includes(`Hello ${name}`))).toBe(false);
});

test("a member who does not moderate the list is refused its held messages, in the members page's words", async ({ page }) => {
  await signIn(page, 'user', '/mailing-lists/portal-dev@example.test/queue');
  await expect(heading(page, 'Held Messages')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('It appears you are not authorized to perform that action.');
  await expect(page.getByText("We could not retrieve this mailing list's held messages.")).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Manage members' })).toHaveCount(0);
  await page.goto('/mailing-lists/portal-dev@example.test');
  await expect(page.getByRole('alert')).toHaveText('It appears you are not authorized to perform that action.');
});

const SCREENS: [path: string, title: string, loaded: (page: Page) => ReturnType<Page['getByText']>][] = [
  ['/mailing-lists', 'Mailing Lists', (page) => page.getByRole('checkbox', { name: 'Subscribed to portal-dev@example.test' })],
  ['/mailing-lists/new/PORTAL', 'Request Mailing List', (page) => page.getByLabel('List name')],
  ['/mailing-lists/portal-dev@example.test', 'Mailing List Members', (page) => page.getByRole('table')],
  ['/mailing-lists/portal-dev@example.test/queue', 'Held Messages', (page) => page.getByRole('button', { name: 'Submit' })],
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the mailing list screens have no serious accessibility problems, ${colorScheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'admin', '/mailing-lists');
    for (const [path, title, loaded] of SCREENS) {
      await page.goto(path);
      await expect(heading(page, title), path).toBeVisible();
      await expect(loaded(page).first(), path).toBeVisible();
      await expectAccessible(page, path);
    }
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a list name that makes no address: the message names the address the preview shows, ${colorScheme}`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'admin', '/mailing-lists/new/PORTAL');
    await expect(heading(page, 'Request Mailing List')).toBeVisible();
    await page.getByLabel('List name').fill('a b');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page.getByText('portal-a b@example.test must be a valid email', { exact: true })).toBeVisible();
    await expect(page.locator('#list-address code')).toHaveText('portal-a b@example.test');
    await page.screenshot({ path: testInfo.outputPath(`list-address-${colorScheme}.png`) });
  });
}
