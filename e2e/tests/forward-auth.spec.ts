/**
 * A platform service behind nginx signs its users in through the portal (forward auth,
 * server/docs/service-sign-in.md), in Chromium: nginx runs the documented configuration in front
 * of a stand-in for Jenkins that shows the X-Remote-* headers it gets. Not signed in, the browser
 * is sent to the portal's /login, signs in there as the demo user, and is sent back to the page it
 * asked for, which now sees who it is; a signed-in user without Jenkins is sent to the
 * Subscriptions page, whose warning names Jenkins. The portal of this spec names nginx's address
 * as Jenkins's origin (service_origins) and trusts it as a proxy.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eDir, expect, test } from './fixtures';
import { freePort, startNginx, startStandInService, type Nginx } from './nginx';
import { repoRoot } from './paths';
import { startPortalServer, type PortalServer } from './portal-server';
import { demoToken, submitTokenSignIn } from './session';

const warning = (service: string) =>
  `${service} has redirected you to this page because your account is lacking a service subscription. Please select a subscription to the service.`;

let portal: PortalServer;
let nginx: Nginx;
let service: Awaited<ReturnType<typeof startStandInService>>;

test.beforeAll(async () => {
  const dir = mkdtempSync(join(e2eDir(), 'forward-auth-'));
  const port = await freePort();
  service = await startStandInService('Jenkins stand-in');
  // The demo's service origins, with Jenkins at nginx's address.
  const demo = JSON.parse(readFileSync(join(repoRoot, 'server', 'config', 'demo.json'), 'utf8')) as { service_origins: string };
  const origins = demo.service_origins.replace(/jenkins=[^,]+/, `jenkins=http://127.0.0.1:${port}`);
  portal = await startPortalServer({
    dataDir: join(dir, 'data'),
    env: { HOST: '127.0.0.1', PORTAL_TRUSTED_PROXIES: '127.0.0.1', PORTAL_SERVICE_ORIGINS: origins },
  });
  nginx = await startNginx({ port, portal: portal.url, upstream: service.url, service: 'jenkins' });
});

test.afterAll(async () => {
  await nginx?.stop();
  await portal?.stop();
  await service?.close();
});

test('not signed in: the service sends the browser to the portal, which signs the demo user in and sends it back, seen as user', async ({ page }) => {
  const wanted = `${nginx.url}/job/build/42/console?tail=1&x=2`;
  await page.goto(wanted);
  await expect(page).toHaveURL(`${portal.url}/login?redirect=${encodeURIComponent(wanted)}`);
  await expect(page.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();

  // user holds Jenkins through DEVOPS (server/src/seed.ts).
  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page).toHaveURL(wanted);
  await expect(page.getByRole('heading', { name: 'Jenkins stand-in' })).toBeVisible();
  await expect(page.getByText('X-Remote-User: user', { exact: true })).toBeVisible();
  await expect(page.getByText('X-Remote-Email: user@example.test', { exact: true })).toBeVisible();
  await expect(page.getByText(/^X-Remote-Groups: .*DEVOPS-user/)).toBeVisible();
});

test('signed in without the service: the Subscriptions page, whose warning names it', async ({ page }) => {
  // adjudicator holds neither Jenkins itself nor through a group.
  await page.goto(`${portal.url}/login?redirect=%2Fprofile`);
  await submitTokenSignIn(page, 'adjudicator', demoToken('adjudicator', portal.dataDir));
  await expect(page.getByRole('link', { name: 'Logout' })).toBeVisible();

  await page.goto(`${nginx.url}/`);
  await expect(page).toHaveURL(`${portal.url}/subscriptions?service=jenkins`);
  await expect(page.getByRole('alert').filter({ hasText: warning('Jenkins') })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Jenkins', exact: true })).not.toBeChecked();
});
