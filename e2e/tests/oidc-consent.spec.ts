/**
 * A service registered with `oidc-clients add --consent` (server/docs/service-sign-in.md,
 * "Registering a service"), in Chromium: before the first sign-in the portal shows what the
 * service will learn, Allow or Deny, and the browser's answer must reach the service. The page's
 * forms post to the portal, which answers with a redirect to the service: Chromium lets that
 * redirect through only when the page's form-action names the service's origin, so this is the
 * test of that policy (a server test sees the header, not what a browser does with it).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { e2eDir, expect, test } from './fixtures';
import { repoRoot } from './paths';
import { startPortalServer, type PortalServer } from './portal-server';
import { demoToken, submitTokenSignIn } from './session';

let portal: PortalServer;
let service: Server;
let serviceUrl: string;
let clientId: string;

/** The service's callback: shows what it was sent (a code and the state, or an error). */
function startService(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://service.invalid');
    res.writeHead(url.pathname === '/callback' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    const shown = ['code', 'state', 'error'].map((name) => `<li>${name}: ${url.searchParams.has(name) ? 'present' : 'absent'}</li>`);
    res.end(`<h1>The service's callback</h1><ul>${shown.join('')}</ul><p>error: ${url.searchParams.get('error') ?? ''}</p>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The authorization request a relying party would send (code flow with S256 PKCE). */
function authorizationUrl(state: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile email groups',
    redirect_uri: `${serviceUrl}/callback`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
  });
  return `${portal.url}/oidc/auth?${params.toString()}`;
}

test.beforeAll(async () => {
  const dataDir = join(mkdtempSync(join(e2eDir(), 'oidc-consent-')), 'data');
  service = await startService();
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'server', 'dist', 'cli.mjs'), 'oidc-clients', 'add', 'outside-service', '--redirect-uri', `${serviceUrl}/callback`, '--consent', '--json'],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '', PORTAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
  );
  clientId = (JSON.parse(stdout) as { client_id: string }).client_id;
  portal = await startPortalServer({ dataDir, env: { HOST: '127.0.0.1' } });
});

test.afterAll(async () => {
  await portal?.stop();
  await new Promise((resolve) => service?.close(resolve));
});

test('a service added with --consent: Allow, answered from the keyboard, reaches the service with a code, and the next sign-in asks nothing; Deny reaches it with access_denied', async ({ page, browser }) => {
  await page.goto(authorizationUrl('first'));
  await expect(page).toHaveURL(new RegExp(`^${portal.url}/login\\?redirect=%2Foidc%2Finteraction%2F`));
  await submitTokenSignIn(page, 'user', demoToken('user', portal.dataDir));
  await expect(page.getByRole('heading', { name: 'Sign in to outside-service' })).toBeVisible();
  await expect(page.getByText('outside-service will learn your username, your name, your email address and your groups.')).toBeVisible();

  // Allow is the first control of the page: Tab reaches it, Enter answers.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Allow' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${serviceUrl}/callback\\?`));
  await expect(page.getByText('code: present')).toBeVisible();
  await expect(page.getByText('state: present')).toBeVisible();

  // Allowed once: the next sign-in goes straight back with a code.
  await page.goto(authorizationUrl('second'));
  await expect(page).toHaveURL(new RegExp(`^${serviceUrl}/callback\\?`));
  await expect(page.getByText('code: present')).toBeVisible();

  // Another person says no.
  const context = await browser.newContext({ baseURL: portal.url });
  try {
    const other = await context.newPage();
    await other.goto(authorizationUrl('third'));
    await submitTokenSignIn(other, 'admin', demoToken('admin', portal.dataDir));
    await other.getByRole('button', { name: 'Deny' }).click();
    await expect(other).toHaveURL(new RegExp(`^${serviceUrl}/callback\\?`));
    await expect(other.getByText('error: access_denied')).toBeVisible();
    await expect(other.getByText('code: absent')).toBeVisible();
  } finally {
    await context.close();
  }
});
