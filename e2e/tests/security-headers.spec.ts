/**
 * The page's Content-Security-Policy in Chromium (server/docs/security-headers.md): the portal
 * works under it (sign-in with the real challenge widget, whose workers come from blob: URLs;
 * remotes loaded at runtime; antd's inline styles) and the browser reports no violation; and no
 * other site can show the portal in a frame.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './session';

/** Records every policy violation the page reports, from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) seen.push(message.text());
  });
  return seen;
}

test('the portal runs under its policy: sign-in, the adjudication and self-service screens, no violation', async ({ page }) => {
  const violations = await watchViolations(page);
  const login = await page.goto('/login');
  const policy = (await login?.allHeaders())?.['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-eval');

  // The challenge solves in a worker made from a blob: URL; the sign-in goes through.
  await signIn(page, 'adjudicator', '/list-account-requests');
  await expect(page.getByRole('heading', { name: 'New Account Requests' })).toBeVisible();

  for (const [link, heading] of [
    ['Search Accounts', 'Search Accounts'],
    ['My Profile', 'User Profile: adjudicator'],
    ['Subscriptions', 'Subscriptions'],
    ['Groups', 'Groups'],
  ] as const) {
    await page.getByRole('link', { name: link, exact: true }).first().click();
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test('another site cannot frame the portal', async ({ page, baseURL }) => {
  // A page of another origin (about:blank here) with the portal's login in a frame.
  await page.setContent(`<iframe title="portal" src="${baseURL}/login" width="800" height="600"></iframe>`);
  // Chromium refuses the frame (frame-ancestors 'none', X-Frame-Options: DENY): it shows its
  // error page in the portal's place.
  await expect.poll(() => page.frames()[1]?.url() ?? '', { timeout: 15_000 }).toMatch(/^chrome-error:/);
  const frame = page.frameLocator('iframe[title="portal"]');
  await expect(frame.getByRole('heading', { name: 'Please Sign In' })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'I Agree' })).toHaveCount(0);
  const response = await page.request.get(`${baseURL}/login`, { headers: { accept: 'text/html' } });
  expect(response.headers()['x-frame-options']).toBe('DENY');
});
