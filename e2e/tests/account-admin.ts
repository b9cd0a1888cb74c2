/**
 * Account Administration, as the tests use it: the page waited for until its sections have loaded,
 * and the Actions' panels opened once nothing moves under the press.
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Waits until an account's Account Administration has loaded whole. Its sections load after the
 * account (subscriptions, service access, sign-ins, tokens), each marked busy meanwhile; one
 * arriving pushes the Actions down, so a press made before then can land beside its target (in
 * clean-clone runs, the Lock Account header pressed and no form opened).
 */
export async function accountAdministrationLoaded(page: Page, username: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 2, name: 'Account Administration' })).toBeVisible();
  await expect(page.getByRole('cell', { name: username, exact: true }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * Opens one of the Actions' panels (Lock, Unlock, Close Account): its header pressed, then its form
 * once antd's Collapse has finished growing it (a motion class is on the panel while it grows):
 * a press inside a panel still growing was lost in clean-clone runs.
 */
export async function openActionPanel(page: Page, name: string) {
  await page.getByRole('button', { name }).first().click();
  const panel = page.getByRole('region', { name });
  await expect(panel).toBeVisible();
  await expect(page.locator('[class*="ant-motion-collapse"]')).toHaveCount(0);
  return panel;
}
