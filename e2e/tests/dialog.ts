/** antd's dialogs, pressed as a person does: once they are there. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Presses a button of the open dialog once the dialog has finished appearing. antd zooms a dialog
 * in; on a busy machine a click computed during the zoom can land beside the moving button and
 * press nothing (a CI run's snapshot showed the dialog still open, its button never pressed).
 * `dialogName`: the dialog's title, where the page may have more than one.
 */
export async function pressInDialog(page: Page, button: string, dialogName?: string): Promise<void> {
  const dialog = page.getByRole('dialog', dialogName === undefined ? {} : { name: dialogName });
  await expect(dialog).toBeVisible();
  await dialog.evaluate((element) =>
    Promise.all((element.closest('.ant-modal-wrap') ?? element).getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
  await dialog.getByRole('button', { name: button }).click();
}
