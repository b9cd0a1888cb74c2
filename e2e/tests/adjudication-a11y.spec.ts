/**
 * The adjudication screens with content on them (a queue with a request, its details and
 * decision panel, a search with results, account administration with an action open, the
 * denied search), checked with axe in the light and the dark theme (there, the rules a theme
 * can change: axe.ts, THEME_RULES), and the decision panel worked with the keyboard alone.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { accountAdministrationLoaded, openActionPanel } from './account-admin';
import { expectAccessible, rulesFor, settled } from './axe';
import { signIn } from './session';
import { newApplicant, submitAccountRequest, type Applicant } from './visitor-flows';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

let applicant: Applicant;

test.beforeAll(async ({ browser }) => {
  // One open request in the queue, made by a visitor as a visitor makes it.
  applicant = newApplicant('Grace', 'Hopper');
  const visitor = await browser.newPage();
  await submitAccountRequest(visitor, applicant);
  await visitor.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the adjudication screens with content have no serious accessibility problems, ${colorScheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, 'admin', '/list-account-requests');
    await expect(heading(page, 'New Account Requests')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: applicant.username })).toBeVisible();
    await expectAccessible(page, 'the new account queue', rulesFor(colorScheme));

    await page.getByRole('row').filter({ hasText: applicant.username }).getByRole('link', { name: '[details]' }).click();
    await expect(heading(page, 'New Account Request')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
    await expectAccessible(page, 'a request with its decision panel', rulesFor(colorScheme));

    await page.goto(`/manage-accounts?term=${encodeURIComponent('u')}`);
    await expect(page.getByRole('link', { name: 'user', exact: true }).first()).toBeVisible();
    await expectAccessible(page, 'Search Accounts with results', rulesFor(colorScheme));

    await page.goto('/manage-accounts/user');
    await accountAdministrationLoaded(page, 'user');
    const lock = await openActionPanel(page, 'Lock Account');
    await expect(lock.getByRole('textbox', { name: 'Reason' })).toBeVisible();
    await expectAccessible(page, 'Account Administration with Lock Account open', rulesFor(colorScheme));

    await page.goto('/list-denied-account-requests');
    await expect(heading(page, 'Denied Account Requests')).toBeVisible();
    await expectAccessible(page, 'Denied Account Requests', rulesFor(colorScheme));
  });
}

test('the decision panel works from the keyboard: the comment, then the confirm dialog of Approve, cancelled with Escape', async ({ page }) => {
  await signIn(page, 'admin', '/list-account-requests');
  await page.getByRole('row').filter({ hasText: applicant.username }).getByRole('link', { name: '[details]' }).click();
  await expect(heading(page, 'New Account Request')).toBeVisible();

  const comment = page.getByRole('textbox', { name: /Comment/ });
  await comment.focus();
  await page.keyboard.type('Checked with the sponsor.');
  // Tab from the comment reaches Approve first; Enter opens the confirm dialog.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to approve this request?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Nothing was decided: still in the queue, comment kept.
  await expect(comment).toHaveValue('Checked with the sponsor.');
  await page.goto('/list-account-requests');
  await expect(page.getByRole('row').filter({ hasText: applicant.username })).toBeVisible();
});

test("a '[Warning]' comment stands out and stays readable in both themes (spec section 9)", async ({ browser }) => {
  // A request of its own, on which the adjudicator asks for more information with a warning.
  const warned = newApplicant('Alan', 'Turing');
  const visitor = await browser.newPage();
  await submitAccountRequest(visitor, warned);
  await visitor.close();

  // AxeBuilder needs a page of its own context.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, 'admin', '/list-account-requests');
  await page.getByRole('row').filter({ hasText: warned.username }).getByRole('link', { name: '[details]' }).click();
  await expect(heading(page, 'New Account Request')).toBeVisible();
  const warning = '[Warning] The sponsor address could not be confirmed.';
  await page.getByRole('textbox', { name: /Comment/ }).fill(warning);
  await page.getByRole('button', { name: 'Request More Information' }).click();
  await expect(page.getByText("'Additional info needed' request sent")).toBeVisible();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto('/list-account-requests');
    await page.getByRole('row').filter({ hasText: warned.username }).getByRole('link', { name: '[details]' }).click();
    const marked = page.getByText(warning, { exact: true });
    await expect(marked).toBeVisible();
    // Highlighted: another colour than the rest of its row, and bold.
    const plain = page.getByRole('row').filter({ has: marked }).getByRole('cell').first();
    const plainColour = await plain.evaluate((cell) => getComputedStyle(cell).color);
    const [markedColour, markedWeight] = await marked.evaluate((text) => [getComputedStyle(text).color, getComputedStyle(text).fontWeight]);
    expect(markedColour, colorScheme).not.toBe(plainColour);
    expect(Number(markedWeight), colorScheme).toBeGreaterThanOrEqual(600);
    await settled(page);
    const { violations } = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))), colorScheme).toEqual([]);
  }
  await page.close();
});
