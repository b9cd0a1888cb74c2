/**
 * How a page looks with antd's styles from the build's file (antd.[hash].css, written by
 * shared/build/antd-static-styles.cjs) and with antd computing them in the browser (the file
 * blocked): budget.spec.ts and antd-styles.spec.ts load a page both ways and compare.
 *
 * antd marks a style it computed and injected with data-css-hash; the theme's variables
 * (data-token-hash) are written in the browser either way, one set per theme.
 */
import { expect, type Page } from '@playwright/test';

const ANTD_STYLES_COMPUTED = 'style[data-css-hash]:not([data-token-hash])';
const ANTD_FILE = /\/antd\.[0-9a-f]+\.css$/;

/**
 * What each element of the page looks like: a line per element of the computed styles a reader
 * sees, its box's size among them (a control 24 px tall where antd draws it 32). The page's own
 * elements and those antd puts outside it (a dialog, a select's dropdown).
 */
function appearance(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('#root *, body > div:not(#root) *')].map((element) => {
      const style = getComputedStyle(element);
      const seen = [
        'display',
        'position',
        'color',
        'background-color',
        'font-size',
        'font-weight',
        'line-height',
        'padding',
        'margin',
        'border',
        'border-radius',
        'box-shadow',
        'text-decoration-line',
        'opacity',
        'visibility',
        'height',
        'width',
      ];
      // antd's theme class (css-var-_r_0_) is named by React's useId, which differs between loads.
      const classes = String(element.getAttribute('class') ?? '').trim().replace(/\bcss-var-\S+/g, 'css-var').replace(/\s+/g, '.');
      return `${element.tagName.toLowerCase()}.${classes} ${seen.map((name) => style.getPropertyValue(name)).join('; ')}`;
    }),
  );
}

/**
 * Opens `path` (with the build's antd file, or with it blocked), waits for `content` and for the
 * page to settle, and answers the styles antd computed in the browser (the start of each) and how
 * every element looks.
 */
export async function loadAndLook(page: Page, path: string, content: () => Promise<void>, { fileBlocked }: { fileBlocked: boolean }) {
  if (fileBlocked) await page.route(ANTD_FILE, (route) => route.abort());
  await page.goto(path);
  await content();
  await page.waitForLoadState('networkidle');
  // The whole page, not its loading state (spinners and skeletons mark themselves aria-busy).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Nor a transition still running: a table's loading veil fades out after its spinner has gone
  // (read mid-way, its opacity was 0.5 against 1). Endless animations (a skeleton's pulse) aside.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity));
  // Nor a motion antd has not closed yet: its classes (a dialog's `ant-zoom-appear-active`) go when
  // the animation's end event is handled, a moment after the animation itself has ended; on a slow
  // machine one load read them and the other did not.
  await expect(page.locator('[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]')).toHaveCount(0);
  // The start of each style antd computed, to name it when one should not be there.
  const computed = await page.locator(ANTD_STYLES_COMPUTED).evaluateAll((styles) => styles.map((style) => style.textContent?.slice(0, 100) ?? ''));
  const looks = await appearance(page);
  if (fileBlocked) await page.unroute(ANTD_FILE);
  return { computed, looks };
}
