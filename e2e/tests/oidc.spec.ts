/**
 * A platform service signs its users in with OpenID Connect (server/docs/service-sign-in.md,
 * "OpenID Connect"), in Chromium: the relying party is openid-client, as a Node service of the
 * platform would use it, run by this spec on loopback with a client registered by the portal's
 * command line (`oidc-clients add`). Not signed in, the browser goes from the service to the
 * portal's /login and comes back to the service with a code; the service exchanges it and reads
 * who the user is from the ID token. Signed in already, the next sign-in asks nothing. The
 * service's sign-out (RP-initiated logout) with the ID token as its hint signs the user out of the
 * portal as well without a question, and comes back to the service; without the hint the portal
 * asks first, on a page answered with the keyboard. The user's profile lists the sign-in to the
 * service, and an administrator ends it from Account Administration: the service's refresh token is
 * refused from then on.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as oidc from 'openid-client';
import { e2eDir, expect, test } from './fixtures';
import { repoRoot } from './paths';
import { startPortalServer, type PortalServer } from './portal-server';
import { demoToken, submitTokenSignIn } from './session';
import { pressInDialog } from './dialog';

let portal: PortalServer;
let service: Server;
let serviceUrl: string;

/**
 * The relying party: /login starts a sign-in (PKCE and state kept per attempt), /callback
 * finishes it and shows the ID token's claims as text, one per line.
 */
function startRelyingParty(configuration: () => oidc.Configuration): Promise<Server> {
  const attempts = new Map<string, string>(); // state → code verifier
  let idToken: string | undefined; // the last sign-in's, the hint of the sign-out
  let refreshToken: string | undefined; // the last sign-in's
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', serviceUrl);
    const answer = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    void (async () => {
      if (url.pathname === '/login') {
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        attempts.set(state, verifier);
        const to = oidc.buildAuthorizationUrl(configuration(), {
          redirect_uri: `${serviceUrl}/callback`,
          scope: 'openid profile email groups',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        });
        res.writeHead(302, { location: to.href });
        res.end();
        return;
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const verifier = attempts.get(state);
        attempts.delete(state);
        if (!verifier) return answer(400, '<h1>Unknown sign-in</h1>');
        const tokens = await oidc.authorizationCodeGrant(configuration(), url, { pkceCodeVerifier: verifier, expectedState: state });
        idToken = tokens.id_token;
        refreshToken = tokens.refresh_token;
        const claims: Record<string, unknown> = tokens.claims() ?? {};
        const lines = ['preferred_username', 'name', 'email', 'groups'].map((key) => {
          const value = claims[key];
          return `<li>${key}: ${Array.isArray(value) ? value.join(',') : String(value)}</li>`;
        });
        return answer(200, `<h1>Signed in to the service</h1><ul>${lines.join('')}</ul>`);
      }
      if (url.pathname === '/logout') {
        // ?hint=no: the sign-out without the ID token (the portal asks).
        const hint: Record<string, string> = url.searchParams.get('hint') !== 'no' && idToken !== undefined ? { id_token_hint: idToken } : {};
        const to = oidc.buildEndSessionUrl(configuration(), { ...hint, post_logout_redirect_uri: `${serviceUrl}/signed-out`, state: 'back-from-sign-out' });
        res.writeHead(302, { location: to.href });
        res.end();
        return;
      }
      if (url.pathname === '/refresh') {
        // The service uses its refresh token, as it does when its access token has run out.
        if (!refreshToken) return answer(400, '<h1>No refresh token</h1>');
        try {
          refreshToken = (await oidc.refreshTokenGrant(configuration(), refreshToken)).refresh_token ?? refreshToken;
          return answer(200, '<h1>Refreshed</h1>');
        } catch (error) {
          return answer(200, `<h1>Refresh refused</h1><p>${error instanceof oidc.ResponseBodyError ? error.error : String(error)}</p>`);
        }
      }
      if (url.pathname === '/signed-out') return answer(200, `<h1>Signed out of the service</h1><p>state: ${url.searchParams.get('state') ?? ''}</p>`);
      answer(404, '<h1>Not found</h1>');
    })().catch((error: unknown) => answer(500, `<h1>The sign-in failed</h1><p>${String(error)}</p>`));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test.beforeAll(async () => {
  const dir = mkdtempSync(join(e2eDir(), 'oidc-'));
  const dataDir = join(dir, 'data');
  const discovered: { configuration?: oidc.Configuration } = {};
  service = await startRelyingParty(() => {
    if (!discovered.configuration) throw new Error('discovery has not run');
    return discovered.configuration;
  });
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  // The platform administrator registers the service before the portal starts, as a person would
  // with `npm run portal -- oidc-clients add` (the command line of the build).
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'server', 'dist', 'cli.mjs'), 'oidc-clients', 'add', 'wiki-service', '--redirect-uri', `${serviceUrl}/callback`, '--post-logout-redirect-uri', `${serviceUrl}/signed-out`, '--json'],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '', PORTAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
  );
  const client = JSON.parse(stdout) as { client_id: string; client_secret: string };
  portal = await startPortalServer({ dataDir, env: { HOST: '127.0.0.1' } });
  discovered.configuration = await oidc.discovery(new URL(`${portal.url}/oidc`), client.client_id, undefined, oidc.ClientSecretBasic(client.client_secret), {
    // Plain http on loopback: a real service talks to the portal over https.
    execute: [oidc.allowInsecureRequests],
  });
});

test.afterAll(async () => {
  await portal?.stop();
  await new Promise((resolve) => service?.close(resolve));
});

test("a service's sign-in goes through the portal's /login and comes back with who the user is; signed in, the next one asks nothing", async ({ page }) => {
  await page.goto(`${serviceUrl}/login`);
  await expect(page).toHaveURL(new RegExp(`^${portal.url}/login\\?redirect=%2Foidc%2Finteraction%2F`));
  await expect(page.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();

  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page).toHaveURL(new RegExp(`^${serviceUrl}/callback\\?`));
  await expect(page.getByRole('heading', { name: 'Signed in to the service' })).toBeVisible();
  await expect(page.getByText('preferred_username: user', { exact: true })).toBeVisible();
  await expect(page.getByText('email: user@example.test', { exact: true })).toBeVisible();
  // user is in DEVOPS (server/src/seed.ts).
  await expect(page.getByText(/^groups: (.+,)?DEVOPS-user(,.+)?$/)).toBeVisible();

  // The portal's session signs the next sign-in in at once: no page of the portal is shown.
  const portalPages: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(`${portal.url}/`) && !frame.url().startsWith(`${portal.url}/oidc/`)) portalPages.push(frame.url());
  });
  await page.goto(`${serviceUrl}/login`);
  await expect(page.getByText('preferred_username: user', { exact: true })).toBeVisible();
  expect(portalPages).toEqual([]);
});

test("the service's sign-out with its ID token signs the user out of the portal too, without a question; without the token the portal asks, and the keyboard answers", async ({ page }) => {
  await page.goto(`${serviceUrl}/login`);
  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page.getByRole('heading', { name: 'Signed in to the service' })).toBeVisible();

  await page.goto(`${serviceUrl}/logout`);
  await expect(page).toHaveURL(`${serviceUrl}/signed-out?state=back-from-sign-out`);
  await expect(page.getByRole('heading', { name: 'Signed out of the service' })).toBeVisible();
  // Signed out of the portal: the next sign-in at the service asks for the portal's.
  await page.goto(`${serviceUrl}/login`);
  await expect(page).toHaveURL(new RegExp(`^${portal.url}/login\\?redirect=%2Foidc%2Finteraction%2F`));

  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page.getByRole('heading', { name: 'Signed in to the service' })).toBeVisible();
  await page.goto(`${serviceUrl}/logout?hint=no`);
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible();
  await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'light dark');
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign out of wiki-service only' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${serviceUrl}/signed-out?state=back-from-sign-out`);
  await page.goto(`${serviceUrl}/login`);
  await expect(page).toHaveURL(new RegExp(`^${portal.url}/login\\?redirect=%2Foidc%2Finteraction%2F`));
});

test("the profile lists the sign-in to the service; the administrator's Account Administration lists it and ends it, and the service's refresh token is refused", async ({ page, browser }, testInfo) => {
  await page.goto(`${serviceUrl}/login`);
  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page.getByRole('heading', { name: 'Signed in to the service' })).toBeVisible();
  await page.goto(`${serviceUrl}/refresh`);
  await expect(page.getByRole('heading', { name: 'Refreshed' })).toBeVisible();

  // The user's profile, in both themes (opened again in each, as the accessibility spec does).
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${portal.url}/profile`);
    const own = page.getByRole('region', { name: 'Sign-ins to Services' });
    await expect(own.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('wiki-service');
    await expect(own.getByRole('button', { name: 'Sign out of wiki-service' })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await own.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`profile-sign-ins-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  const context = await browser.newContext({ baseURL: portal.url });
  try {
    const admin = await context.newPage();
    await admin.goto(`/login?${new URLSearchParams({ redirect: '/manage-accounts/user' })}`);
    await submitTokenSignIn(admin, 'admin', demoToken('admin', portal.dataDir));
    await expect(admin.getByRole('heading', { level: 2, name: 'Account Administration' })).toBeVisible();
    const section = admin.getByRole('region', { name: 'Sign-ins to Services' });
    for (const colorScheme of ['light', 'dark'] as const) {
      await admin.emulateMedia({ colorScheme });
      await admin.reload();
      await expect(section.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('wiki-service');
      await expect(admin.locator('[aria-busy="true"]')).toHaveCount(0);
      await section.scrollIntoViewIfNeeded();
      await admin.screenshot({ path: testInfo.outputPath(`account-administration-sign-ins-${colorScheme}.png`), fullPage: true });
    }
    await admin.emulateMedia({ colorScheme: 'light' });

    await section.getByRole('button', { name: 'End the sign-in to wiki-service' }).click();
    const dialog = admin.getByRole('dialog', { name: 'End sign-in to service?' });
    await expect(dialog).toContainText('user is signed out of wiki-service at once');
    await pressInDialog(dialog, 'End');
    await expect(section.getByRole('status')).toHaveText('The sign-in of user to wiki-service ended.');
    await expect(section.getByText('No sign-ins to services.')).toBeVisible();
    await expect(admin.getByRole('region', { name: 'Update History' }).getByText(/Service sign-in ended: Sign-in to wiki-service ended by an account administrator\./)).toBeVisible();
  } finally {
    await context.close();
  }

  await page.goto(`${serviceUrl}/refresh`);
  await expect(page.getByRole('heading', { name: 'Refresh refused' })).toBeVisible();
  await expect(page.getByText('invalid_grant', { exact: true })).toBeVisible();
  // The profile no longer lists it.
  await page.goto(`${portal.url}/profile`);
  await expect(page.getByRole('region', { name: 'Sign-ins to Services' }).getByText('No sign-ins to services.')).toBeVisible();
});
