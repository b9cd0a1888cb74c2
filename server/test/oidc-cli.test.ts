/**
 * `portal oidc-clients add|list|rotate-secret|remove`: with the portal stopped (its own database
 * connection) and running (through its command socket), the secret it prints once authenticates
 * the client at the provider's token endpoint, and a new one replaces it at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createFixture, type Fixture } from './helpers.js';
import { portalEnv, runCli, runningUrl, startMain } from './process-helpers.js';

let fixture: Fixture;
let dir: string;
before(() => {
  fixture = createFixture();
  dir = mkdtempSync(join(tmpdir(), 'portal-oidc-cli-'));
});
after(() => {
  fixture.remove();
  rmSync(dir, { recursive: true, force: true });
});

const SECRET = /pcs_[A-Za-z0-9_-]{43}/;
const REDIRECT_URI = 'https://wiki.example.test/oidc/callback';

describe('portal oidc-clients', () => {
  test('add, list, rotate-secret and remove with the portal stopped; bad input is refused with a reason', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'stopped') };
    const added = await runCli(['oidc-clients', 'add', 'wiki', '--redirect-uri', REDIRECT_URI, '--service', 'confluence'], env);
    assert.equal(added.stderr, '');
    assert.equal(added.code, 0);
    assert.match(added.stdout, /^Client 'wiki' added\.\nClient id: [A-Za-z0-9_-]{22}\nClient secret \(shown only now; store it in the service's configuration\): pcs_[A-Za-z0-9_-]{43}\n$/);
    const clientId = /Client id: (\S+)/.exec(added.stdout)?.[1];

    const again = await runCli(['oidc-clients', 'add', 'wiki', '--redirect-uri', REDIRECT_URI], env);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, "Cannot change the OpenID Connect clients: A client named 'wiki' exists already. Use 'oidc-clients rotate-secret wiki' for a new secret.\n");
    const badUri = await runCli(['oidc-clients', 'add', 'other', '--redirect-uri', 'https://wiki.example.test/cb#frag'], env);
    assert.equal(badUri.code, 1);
    assert.equal(badUri.stderr, "Cannot change the OpenID Connect clients: 'https://wiki.example.test/cb#frag' is not a redirect URI: an absolute http or https address without a fragment.\n");
    const badService = await runCli(['oidc-clients', 'add', 'other', '--redirect-uri', REDIRECT_URI, '--service', 'gitlab'], env);
    assert.equal(badService.code, 1);
    assert.match(badService.stderr, /'gitlab' is not a service of the platform/);
    const noUri = await runCli(['oidc-clients', 'add', 'other'], env);
    assert.equal(noUri.code, 2);
    assert.match(noUri.stderr, /^oidc-clients add needs --redirect-uri URI\./);

    const rotated = await runCli(['oidc-clients', 'rotate-secret', 'wiki', '--json'], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const printed = JSON.parse(rotated.stdout) as { client_id: string; client_secret: string };
    assert.equal(printed.client_id, clientId);
    assert.match(printed.client_secret, SECRET);
    assert.notEqual(printed.client_secret, SECRET.exec(added.stdout)?.[0]);

    const listed = await runCli(['oidc-clients', 'list', '--json'], env);
    const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      rows.map(({ name, client_id, redirect_uris, service, consent }) => ({ name, client_id, redirect_uris, service, consent })),
      [{ name: 'wiki', client_id: clientId, redirect_uris: [REDIRECT_URI], service: 'confluence', consent: false }],
    );
    assert.ok(!listed.stdout.includes('pcs_'), 'no secret is listed');

    assert.equal((await runCli(['oidc-clients', 'remove', 'wiki'], env)).stdout, "Client 'wiki' removed.\n");
    assert.equal((await runCli(['oidc-clients', 'list'], env)).stdout, 'No OpenID Connect clients.\n');
    const gone = await runCli(['oidc-clients', 'remove', 'wiki'], env);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, "Cannot change the OpenID Connect clients: There is no client named 'wiki'.\n");
  });

  test('with the portal running: the client added through its socket authenticates at the token endpoint at once, and a rotated secret replaces the old one', async () => {
    const dataDir = join(dir, 'running');
    const portal = startMain(portalEnv(fixture, dataDir));
    try {
      const url = await runningUrl(portal);
      const added = await runCli(['oidc-clients', 'add', 'wiki', '--redirect-uri', REDIRECT_URI, '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(added.stderr, '');
      const client = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      // A code the provider never issued: refused as invalid_grant once the client has authenticated, invalid_client before.
      const token = (secret: string) =>
        fetch(`${url}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: 'never-issued', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) }),
        }).then(async (response) => ({ status: response.status, error: ((await response.json()) as { error: string }).error }));
      assert.deepEqual(await token(client.client_secret), { status: 400, error: 'invalid_grant' });
      assert.deepEqual(await token(`${client.client_secret}x`), { status: 401, error: 'invalid_client' });
      const rotated = JSON.parse((await runCli(['oidc-clients', 'rotate-secret', 'wiki', '--json'], { PORTAL_DATA_DIR: dataDir })).stdout) as { client_secret: string };
      assert.deepEqual(await token(client.client_secret), { status: 401, error: 'invalid_client' }, 'the old secret stops working at once');
      assert.deepEqual(await token(rotated.client_secret), { status: 400, error: 'invalid_grant' });
    } finally {
      portal.child.kill('SIGTERM');
      await portal.exit;
    }
  });
});
