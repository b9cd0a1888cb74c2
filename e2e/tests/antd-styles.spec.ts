/**
 * Every component of the portal's antd set (shared/src/antd-*.ts) looks in the built portal as
 * antd draws it itself. The host's build writes antd's styles to a file (shared/build/
 * antd-static-styles.cjs) which antd then takes instead of computing them; a style the file holds
 * in another form than antd computes in the browser drew a Select 24 px tall with its text against
 * its left border. Each page below is loaded with the file and with it blocked (antd then computes
 * every style in the browser): every element, its box's size among what is compared, must look the
 * same, and with the file antd must compute none. Between them the pages show every component of
 * the set: Alert, App, Button, Layout, Menu, Space, Tag and Typography everywhere; Card, Checkbox,
 * Form, Input, Radio and Tabs on /login (budget.spec.ts) and the forms below; Descriptions, List,
 * Select, Table and Empty on a group's administration; Select and Modal on a membership form;
 * Switch on /mailing-lists; Card and Radio in a list's held messages; Collapse and Flex-laid
 * details on Account Administration; Result where a remote is unavailable; Skeleton and Spin are
 * loading states, gone before a page is read.
 */
import type { Page } from '@playwright/test';
import { loadAndLook } from './antd-looks';
import { expect, test } from './session';

test.describe.configure({ timeout: 120_000 });

interface Screen {
  readonly path: string;
  readonly colorScheme: 'light' | 'dark';
  /** The components this page is here for. */
  readonly shows: string;
  /** Before the page is opened (a route to block). */
  readonly prepare?: (page: Page) => Promise<void>;
  /** The page's content is there (and opened: a dialog). */
  readonly content: (page: Page) => Promise<void>;
}

const SCREENS: readonly Screen[] = [
  {
    path: '/group-administration/PORTAL',
    colorScheme: 'light',
    shows: 'Descriptions, Table, Select (the role filter), Input, List, Alert',
    content: async (page) => {
      await expect(page.getByRole('region', { name: 'Members' }).getByRole('link', { name: 'user', exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Members' }).getByRole('combobox')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Additional Permission Groups' }).getByText('PORTAL-release')).toBeVisible();
    },
  },
  {
    path: '/group-administration/PORTAL',
    colorScheme: 'dark',
    shows: 'the same in the dark theme',
    content: (page) => expect(page.getByRole('region', { name: 'Members' }).getByRole('link', { name: 'user', exact: true })).toBeVisible(),
  },
  {
    path: '/request-membership/DEVOPS',
    colorScheme: 'light',
    shows: 'Select (a group per service), Radio, TextArea, Modal (a help dialog)',
    content: async (page) => {
      await expect(page.getByText('Jenkins group')).toBeVisible();
      await page.getByRole('button', { name: 'Help: Requested role' }).click();
      await expect(page.getByRole('dialog', { name: 'Group roles' })).toBeVisible();
    },
  },
  {
    path: '/mailing-lists/new/PORTAL',
    colorScheme: 'dark',
    shows: 'Select (the permission group), Radio, Input',
    content: (page) => expect(page.getByLabel('Permission group')).toBeVisible(),
  },
  {
    path: '/mailing-lists',
    colorScheme: 'light',
    shows: 'Switch, Checkbox, Table',
    content: (page) => expect(page.getByRole('switch', { name: 'Daily digest for portal-dev@example.test' })).toBeVisible(),
  },
  {
    path: '/mailing-lists/portal-dev@example.test/queue',
    colorScheme: 'dark',
    shows: 'Card, Descriptions, Radio, Checkbox',
    content: (page) => expect(page.getByRole('article').first()).toBeVisible(),
  },
  {
    path: '/manage-accounts/user',
    colorScheme: 'light',
    shows: 'Collapse, Descriptions, Table',
    content: async (page) => {
      await expect(page.getByRole('button', { name: 'Lock Account' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Update History' }).getByRole('table')).toBeVisible();
    },
  },
  {
    path: '/tokens/services',
    colorScheme: 'dark',
    shows: 'Result (a remote that cannot be loaded)',
    prepare: async (page) => {
      await page.route(/\/remotes\/tokens\/.*remoteEntry\.js$/, (route) => route.abort());
    },
    content: (page) => expect(page.getByText('This part of the portal is unavailable right now.')).toBeVisible(),
  },
];

for (const screen of SCREENS) {
  test(`${screen.path}, ${screen.colorScheme} (${screen.shows}): antd's components look as antd draws them`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: screen.colorScheme });
    await screen.prepare?.(page);
    const fromFile = await loadAndLook(page, screen.path, () => screen.content(page), { fileBlocked: false });
    expect(fromFile.computed, 'antd styles computed in the browser: a component the build did not render this way').toEqual([]);
    const computed = await loadAndLook(page, screen.path, () => screen.content(page), { fileBlocked: true });
    // Without the file antd computes its styles: the comparison compares something.
    expect(computed.computed.length).toBeGreaterThan(0);
    expect(fromFile.looks).toEqual(computed.looks);
  });
}
