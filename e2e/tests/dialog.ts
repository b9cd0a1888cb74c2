/** antd's dialogs, pressed as a person does: once they are there. */
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Presses a button of the open dialog once the dialog has finished appearing. antd zooms a dialog
 * in; on a busy machine a click computed during the zoom can land beside the moving button and
 * press nothing (a CI run's snapshot showed the dialog still open, its button never pressed).
 * `where`: the dialog itself (a test that checks it names it once, by its title), or the page
 * when it can show only one.
 */
export async function pressInDialog(where: Page | Locator, button: string): Promise<void> {
  const dialog = 'context' in where ? where.getByRole('dialog') : where;
  await expect(dialog).toBeVisible();
  await dialog.evaluate((element) =>
    Promise.all((element.closest('.ant-modal-wrap') ?? element).getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
  await dialog.getByRole('button', { name: button }).click();
}
