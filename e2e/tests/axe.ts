/** axe in the e2e tests: one way to run it and one way to report what matters (serious and critical issues). */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no animation that ends is running (an antd modal fades and zooms in: axe would
 * measure a button's contrast half-way through, against a half-transparent background). Endless
 * ones (a spinner) are not waited for.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** The serious and critical issues axe finds on the page, once it has settled, one line each. */
export async function seriousViolations(page: Page, configure: (builder: AxeBuilder) => AxeBuilder = (b) => b): Promise<string[]> {
  await settled(page);
  const { violations } = await configure(new AxeBuilder({ page })).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The rules a theme can change the outcome of: what colours decide. A page in the other theme has
 * the same elements, names, roles and order (the theme is CSS variables and antd's tokens), so the
 * second theme's pass runs these and leaves the structural rules to the first, which runs all.
 */
export const THEME_RULES = ['color-contrast', 'link-in-text-block'];

/** The axe run of a page in the given theme: every rule in the light theme, THEME_RULES in the dark. */
export const rulesFor =
  (colorScheme: 'light' | 'dark') =>
  (builder: AxeBuilder): AxeBuilder =>
    colorScheme === 'light' ? builder : builder.withRules(THEME_RULES);

/** Fails with `where` and axe's findings when the page has a serious or critical issue. */
export async function expectAccessible(page: Page, where: string, configure?: (builder: AxeBuilder) => AxeBuilder): Promise<void> {
  expect(await seriousViolations(page, configure), where).toEqual([]);
}
