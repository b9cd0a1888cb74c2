/**
 * Accessibility as a gate (issue 16, part 9): axe over every screen of the portal (the route table
 * the federation spec walks, plus the host's own screens), in the light and the dark theme, with no
 * serious or critical issue; and on each screen the main action is reached from the keyboard.
 */
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { ROUTES } from './routes';
import { expect, test } from './session';

test.describe.configure({ timeout: 300_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** Every remote screen with the host's own after them. */
const SCREENS: [path: string, title: string][] = [
  ...Object.values(ROUTES).flatMap((routes) => routes.map(([path, title]) => [path, title] as [string, string])),
  ['/not-found', 'Not Found'],
  ['/manage-remotes', 'Manage Remotes'],
];

/**
 * The screen's main action: its form's enabled submit button, else its first enabled primary
 * button, else its first enabled control (a subscription's switch), else the first link of the
 * page's content; none on a screen with nothing to act on (an empty queue, its pager disabled).
 */
async function mainAction(page: Page): Promise<Locator | undefined> {
  const main = page.locator('#main');
  const candidates = [
    main.locator('button[type=submit]:not([disabled])'),
    main.locator('button.ant-btn-primary:not([disabled])'),
    main.locator('button:not([disabled]), input:not([disabled]):not([type=hidden]), textarea:not([disabled])'),
    main.locator('a[href]'),
  ];
  for (const candidate of candidates) {
    if ((await candidate.count()) > 0) return candidate.first();
  }
  return undefined;
}

/** Presses Tab from the top of the page until the element has the focus; false when it never does. */
async function reachedByTab(page: Page, target: Locator, limit = 120): Promise<boolean> {
  await target.evaluate((element) => {
    (window as unknown as { reached?: boolean }).reached = false;
    element.addEventListener('focus', () => ((window as unknown as { reached?: boolean }).reached = true), { once: true });
  });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => (window as unknown as { reached?: boolean }).reached === true)) return true;
  }
  return false;
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every screen has no serious accessibility problems, ${colorScheme}${colorScheme === 'light' ? ', and its main action is reached with Tab' : ''}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const problems: string[] = [];
    for (const [path, title] of SCREENS) {
      await page.goto(path);
      await expect(heading(page, title), path).toBeVisible();
      // The page's data has arrived: no loading table or spinner left.
      await expect(page.locator('#main .ant-spin-spinning'), path).toHaveCount(0);
      for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
      if (colorScheme === 'light') {
        const action = await mainAction(page);
        const name = (await action?.textContent())?.trim() ?? '';
        if (action && !(await reachedByTab(page, action))) problems.push(`${path}: its main action '${name}' is not reached with Tab`);
      }
    }
    expect(problems).toEqual([]);
  });
}
