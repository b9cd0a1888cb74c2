/**
 * The layout at a laptop's width (1280 px) and a phone's (390 px): tables fit
 * the page rather than hiding their last columns, the narrow screen's sidebar button never sits
 * on the page, and a long label does not push its field out of line; a long held message's
 * subject and a long token name do not push the page wider or the token out of view; the top
 * bar's light/dark switch.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './session';
import { postToList } from './smtp';
import { pressInDialog } from './dialog';

test.describe.configure({ timeout: 120_000 });

/** Every table's own scroll box: how much wider its content is than the box (0 when it fits). */
async function tableOverflows(page: Page): Promise<number[]> {
  return page.locator('.ant-table-content, .ant-table-body').evaluateAll((boxes) => boxes.map((b) => b.scrollWidth - b.clientWidth));
}

/** How much wider the page is than the window (0 when nothing scrolls sideways). */
async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the members and request tables show every column without scrolling sideways', async ({ page }) => {
    await signIn(page, 'admin', '/group-administration/PORTAL');
    await expect(page.getByRole('columnheader', { name: 'Updated' })).toBeVisible();
    await expect(page.getByRole('link', { name: '[details]' }).first()).toBeVisible();
    const overflows = await tableOverflows(page);
    expect(overflows.length).toBeGreaterThanOrEqual(2);
    expect(overflows).toEqual(overflows.map(() => 0));
    expect(await pageOverflow(page)).toBe(0);
    // The last column is inside the window, not cut at its edge.
    const updated = await page.getByRole('columnheader', { name: 'Updated' }).boundingBox();
    expect((updated?.x ?? Infinity) + (updated?.width ?? 0)).toBeLessThanOrEqual(1280);
  });

  test('the username field lines up with the fields beside it; its recommendation is help under it', async ({ page }) => {
    await page.goto('/request-account');
    const first = await page.getByRole('textbox', { name: 'First name', exact: true }).boundingBox();
    const username = page.getByRole('textbox', { name: 'Username', exact: true });
    await expect(username).toHaveAccessibleDescription('firstname.lastname recommended');
    const box = await username.boundingBox();
    expect(box?.y).toBe(first?.y);
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the sidebar folds behind a Menu button in the top bar, and nothing covers the page title', async ({ page }) => {
    await signIn(page, 'user', '/profile');
    const title = page.getByRole('heading', { name: 'User Profile: user' });
    await expect(title).toBeVisible();
    // Whatever lies under the first letter of the title and of the first link is that title and link.
    const uncovered = (element: HTMLElement | SVGElement) => {
      const r = element.getBoundingClientRect();
      const under = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
      return under !== null && element.contains(under);
    };
    expect(await title.evaluate(uncovered)).toBe(true);
    expect(await page.getByRole('main').getByRole('link', { name: 'Update Profile' }).evaluate(uncovered)).toBe(true);
    expect(await pageOverflow(page)).toBe(0);

    // Folded: its links are neither shown nor reached with Tab.
    const sidebar = page.getByRole('complementary', { name: 'Portal sections' });
    await expect(sidebar.getByRole('link', { name: 'Groups' })).toBeHidden();
    const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // Tab from the Menu button: the brand, Logout, then the page, never a folded link.
    await menu.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('aside') ?? null)).toBeNull();

    // Opened over the page; choosing a section goes there and folds it again.
    await menu.click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await sidebar.getByRole('link', { name: 'Groups' }).click();
    await expect(page).toHaveURL(/\/groups$/);
    await expect(sidebar.getByRole('link', { name: 'Groups' })).toBeHidden();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeVisible();
  });

  test('the request form fits the phone: no sideways scrolling', async ({ page }) => {
    await page.goto('/request-account');
    await expect(page.getByRole('textbox', { name: 'Username', exact: true })).toBeVisible();
    expect(await pageOverflow(page)).toBe(0);
  });
});

/**
 * The loading lines pulse only once loading has taken a second (an animation from the
 * first frame kept the compositor drawing while the first file was parsed, and the page came
 * 0.1-0.4 s later on a machine without a GPU), and never for a reader who asked for less motion.
 */
for (const reducedMotion of ['no-preference', 'reduce'] as const) {
  test(`the loading lines, reduced motion ${reducedMotion}: ${reducedMotion === 'reduce' ? 'still' : 'a pulse after a second'}`, async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await page.route(/\.js$/, (route) => route.abort());
    await page.goto('/login');
    await expect(page.getByRole('status', { name: 'Loading the portal' })).toBeAttached();
    const animations = await page.evaluate(() =>
      [...document.querySelectorAll('.startup-line')].map((line) =>
        line.getAnimations().map((animation) => {
          const timing = animation.effect?.getTiming();
          return { delay: timing?.delay, iterations: timing?.iterations };
        }),
      ),
    );
    expect(animations).toEqual(Array(3).fill(reducedMotion === 'reduce' ? [] : [{ delay: 1000, iterations: Infinity }]));
    await context.close();
  });
}

/**
 * Before any script has run, index.html paints the portal's frame (the top bar and a loading
 * placeholder) in the colours the page then draws, so that nothing changes colour when the chrome
 * takes over (in the dark it was grey on #141414, then navy on black).
 */
for (const colorScheme of ['light', 'dark'] as const) {
  test(`the frame before any script, ${colorScheme}: the colours of the page that follows`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme });
    const colours = (page: Page, bar: string) =>
      page.evaluate((selector) => {
        const style = (element: Element | null) => (element ? getComputedStyle(element).backgroundColor : 'missing');
        return { bar: style(document.querySelector(selector)), page: style(document.body) };
      }, bar);
    const frame = await context.newPage();
    await frame.route(/\.js$/, (route) => route.abort());
    await frame.goto('/login');
    await expect(frame.getByRole('status', { name: 'Loading the portal' })).toBeAttached();
    const before = await colours(frame, '.startup-bar');
    // The first paint already has words: the portal's name, where the top bar puts it.
    const brandAt = (page: Page, selector: string) =>
      page.locator(selector).evaluate((element) => {
        const r = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return { text: element.textContent, left: Math.round(r.left), size: style.fontSize, weight: style.fontWeight, colour: style.color };
      });
    const brandBefore = await brandAt(frame, '.startup-bar .startup-brand');
    expect(brandBefore.text).toBe('DevPlatform');

    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();
    expect(before).toEqual(await colours(page, 'header[role="banner"]'));
    expect(brandBefore).toEqual(await brandAt(page, 'header[role="banner"] > div > a'));
    await context.close();
  });
}

/** A subject of about 150 characters, with spaces, as a person writes one. */
const LONG_SUBJECT = 'Question about the nightly build of the portal: the artifact upload step fails after the repository migration, and the retry job times out every night';

/** A token name near the form's limit (1,024): a long sentence pasted into the name. */
const LONG_TOKEN_NAME = `Release pipeline token ${'for the nightly build of every service of the platform '.repeat(17)}`.slice(0, 1000);

for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('a held message with a long subject: the subject wraps and is read whole, and the page does not scroll sideways', async ({ page }) => {
      const subject = `${LONG_SUBJECT} ${width}`;
      expect(subject.length).toBeGreaterThan(145);
      await postToList({ from: 'long.subject@elsewhere.example', to: 'portal-dev@example.test', subject, text: 'A message with a long subject.' });
      await signIn(page, 'admin', '/mailing-lists/portal-dev@example.test/queue');
      const card = page.getByRole('article', { name: subject });
      await expect(card).toBeVisible();
      expect(await pageOverflow(page)).toBe(0);
      // Its title shows every word: nothing cut at its edge (an ellipsis), nothing past the window.
      const title = card.locator('.ant-card-head-title');
      expect(await title.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      const box = await card.getByText(subject).boundingBox();
      expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      // The moderator's list of every held message, too.
      await page.goto('/mailing-lists');
      await expect(page.getByRole('region', { name: 'All held messages' }).getByText(subject)).toBeVisible();
      expect(await pageOverflow(page)).toBe(0);
    });

    test('the new token, made with a long name, is in view with Copy and Continue under it', async ({ page }) => {
      await signIn(page, 'user', '/tokens/artifactory');
      await page.getByRole('button', { name: 'Create Token' }).click();
      const form = page.getByRole('form', { name: 'Create a token' });
      await form.getByLabel('Token name').fill(LONG_TOKEN_NAME);
      await form.getByRole('checkbox', { name: 'PORTAL (Portal Team)' }).check();
      await form.getByLabel('Expires in').fill('2');
      await form.getByRole('button', { name: 'Create' }).click();
      const token = page.getByLabel('Your new token');
      await expect(token).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      const field = await token.boundingBox();
      // Within the first screen, without scrolling.
      expect((field?.y ?? Infinity) + (field?.height ?? 0)).toBeLessThanOrEqual(height);
      for (const name of ['Copy', 'Continue']) {
        const button = await page.getByRole('button', { name, exact: true }).boundingBox();
        // Under the box, not beside its last line.
        expect(button?.y ?? 0, name).toBeGreaterThanOrEqual((field?.y ?? 0) + (field?.height ?? 0));
      }
      expect(await pageOverflow(page)).toBe(0);
      // The whole name is still there for a screen reader and on hover.
      await expect(page.getByRole('heading', { name: `Token '${LONG_TOKEN_NAME}' created.` })).toHaveAttribute('title', `Token '${LONG_TOKEN_NAME}' created.`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: `Revoke ${LONG_TOKEN_NAME}` }).click();
      await pressInDialog(page.getByRole('dialog', { name: 'Revoke token?' }), 'Revoke');
      await expect(page.getByText(`Token '${LONG_TOKEN_NAME}' revoked.`)).toBeVisible();
    });

    test('the light/dark switch: in the top bar, reached with Tab, remembered for the next page and its first frame; the top bar still fits', async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'light' });
      await signIn(page, 'adjudicator', '/profile');
      const background = () => page.evaluate(() => getComputedStyle(document.querySelector('.ant-layout')!).backgroundColor);
      expect(await background()).toBe('rgb(245, 245, 245)');
      const toggle = page.getByRole('banner').getByRole('switch', { name: 'Dark theme' });
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
      // From the brand, the next stop.
      await page.getByRole('banner').getByRole('link', { name: 'DevPlatform' }).focus();
      await page.keyboard.press('Tab');
      await expect(toggle).toBeFocused();
      await page.keyboard.press('Space');
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      expect(await background()).toBe('rgb(0, 0, 0)');
      expect(await pageOverflow(page)).toBe(0);
      const bar = await page.getByRole('banner').boundingBox();
      expect(bar?.height).toBe(64);

      // The next page, before any script runs: its frame in the chosen theme (the system says light).
      await page.route(/\.js$/, (route) => route.abort());
      await page.goto('/groups');
      await expect(page.getByRole('status', { name: 'Loading the portal' })).toBeAttached();
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(0, 0, 0)');
      await page.unrouteAll();
      await page.goto('/groups');
      await expect(page.getByRole('banner').getByRole('switch', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'true');
      expect(await background()).toBe('rgb(0, 0, 0)');
      // And back: light is remembered as well.
      await page.getByRole('banner').getByRole('switch', { name: 'Dark theme' }).click();
      expect(await background()).toBe('rgb(245, 245, 245)');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await expect(page.getByRole('banner').getByRole('switch', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'false');
    });
  });
}
