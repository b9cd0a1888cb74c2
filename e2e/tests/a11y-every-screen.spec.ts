/**
 * Every screen of the portal (each remote's route table, routes.ts, plus the host's own screens)
 * renders inside the chrome at the address it was opened at, and passes axe with no serious or
 * critical issue, in the light and the dark theme (there, the rules whose outcome a theme can
 * change: axe.ts, THEME_RULES); on each screen the main action is reached from the keyboard. One
 * test per app (a remote's screens, or the host's) and theme: the workers share them out, and each
 * walks its screens in one page, as a person would, its remote loaded once.
 */
import type { Locator, Page } from '@playwright/test';
import { rulesFor, seriousViolations } from './axe';
import { expectChrome } from './portal';
import { ROUTES } from './routes';
import { expect, test } from './session';

// The screens are only looked at: their tests may run in any worker, side by side.
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** Every screen of the portal: each remote's, and the host's own. */
const APPS: [app: string, screens: (typeof ROUTES)[string]][] = [
  ...Object.entries(ROUTES),
  [
    'host',
    [
      // Not Found is a page of its own, for anyone: no sidebar.
      ['/not-found', 'Not Found', 'visitor'],
      ['/manage-remotes', 'Manage Remotes'],
    ],
  ],
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

/**
 * Presses Tab from the top of the page until the element has had the focus; false when it never
 * has within `limit` presses. The element records its own focus, so the page is asked once per
 * few presses rather than after each.
 */
async function reachedByTab(page: Page, target: Locator, limit = 120, every = 8): Promise<boolean> {
  await target.evaluate((element) => {
    (window as unknown as { reached?: boolean }).reached = false;
    element.addEventListener('focus', () => ((window as unknown as { reached?: boolean }).reached = true), { once: true });
  });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let pressed = 0; pressed < limit; ) {
    for (const end = Math.min(limit, pressed + every); pressed < end; pressed++) await page.keyboard.press('Tab');
    if (await page.evaluate(() => (window as unknown as { reached?: boolean }).reached === true)) return true;
  }
  return false;
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(colorScheme, () => {
    test.use({ colorScheme });
    const keyboard = colorScheme === 'light';
    for (const [app, screens] of APPS) {
      test(`${app}: every screen has no serious accessibility problems${keyboard ? ', and its main action is reached with Tab' : ''}`, async ({ page }) => {
        const problems: string[] = [];
        for (const [path, title, visitor] of screens) {
          await page.goto(path);
          await expect(heading(page, title), path).toBeVisible();
          expect(new URL(page.url()).pathname, `${path}: the page stays where it was opened`).toBe(path);
          await expectChrome(page, { sidebar: !visitor });
          // The page's data has arrived: no loading table or spinner left.
          await expect(page.locator('#main .ant-spin-spinning'), path).toHaveCount(0);
          for (const violation of await seriousViolations(page, rulesFor(colorScheme))) problems.push(`${path}: ${violation}`);
          if (keyboard) {
            const action = await mainAction(page);
            const name = (await action?.textContent())?.trim() ?? '';
            if (action && !(await reachedByTab(page, action))) problems.push(`${path}: its main action '${name}' is not reached with Tab`);
          }
        }
        expect(problems).toEqual([]);
      });
    }
  });
}
