/**
 * `portal oidc-clients add|list|rotate-secret|remove`: with the portal stopped (its own database
 * connection) and running (through its command socket), the secret it prints once authenticates
 * the client at the provider's token endpoint, and a new one replaces it at once. `portal
 * oidc-keys rotate|list`: the signing keys, stopped and running.
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
const POST_LOGOUT_URI = 'https://wiki.example.test/';
const BACKCHANNEL_URI = 'https://wiki.example.test/oidc/backchannel-logout';

describe('portal oidc-clients', () => {
  test('add, list, rotate-secret and remove with the portal stopped; bad input is refused with a reason', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'stopped') };
    const added = await runCli(
      ['oidc-clients', 'add', 'wiki', '--redirect-uri', REDIRECT_URI, '--service', 'confluence', '--post-logout-redirect-uri', POST_LOGOUT_URI, '--backchannel-logout-uri', BACKCHANNEL_URI],
      env,
    );
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
    const badLogoutUri = await runCli(['oidc-clients', 'add', 'other', '--redirect-uri', REDIRECT_URI, '--post-logout-redirect-uri', 'wiki.example.test/'], env);
    assert.equal(badLogoutUri.code, 1);
    assert.equal(badLogoutUri.stderr, "Cannot change the OpenID Connect clients: 'wiki.example.test/' is not a post-logout redirect URI: an absolute http or https address without a fragment.\n");
    const badBackchannel = await runCli(['oidc-clients', 'add', 'other', '--redirect-uri', REDIRECT_URI, '--backchannel-logout-uri', 'ftp://wiki.example.test/x'], env);
    assert.equal(badBackchannel.code, 1);
    assert.equal(badBackchannel.stderr, "Cannot change the OpenID Connect clients: 'ftp://wiki.example.test/x' is not a back-channel logout URI: an absolute http or https address without a fragment.\n");
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
      rows.map(({ name, client_id, redirect_uris, post_logout_redirect_uris, backchannel_logout_uri, service, consent }) => ({
        name,
        client_id,
        redirect_uris,
        post_logout_redirect_uris,
        backchannel_logout_uri,
        service,
        consent,
      })),
      [{ name: 'wiki', client_id: clientId, redirect_uris: [REDIRECT_URI], post_logout_redirect_uris: [POST_LOGOUT_URI], backchannel_logout_uri: BACKCHANNEL_URI, service: 'confluence', consent: false }],
    );
    assert.match(
      (await runCli(['oidc-clients', 'list'], env)).stdout,
      new RegExp(`^wiki {2}client id \\S+ {2}${REDIRECT_URI} {2}service confluence {2}after sign-out ${POST_LOGOUT_URI} {2}back-channel logout ${BACKCHANNEL_URI}\n$`),
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

describe('portal oidc-keys', () => {
  test('list and rotate with the portal stopped: the first rotation makes the first key, the next one is published and signs a minute later, the newest 3 are kept; the help lists them; bad input is refused', async () => {
    const env = { PORTAL_DATA_DIR: join(dir, 'keys') };
    const help = await runCli(['--help'], env);
    assert.match(help.stdout, /^ {2}oidc-keys rotate \[--json\]$/m);
    assert.match(help.stdout, /^ {2}oidc-keys list \[--json\]$/m);

    assert.deepEqual(await runCli(['oidc-keys', 'list'], env), {
      code: 0,
      stdout: 'No signing keys yet: the first server to answer an OpenID Connect request makes one.\n',
      stderr: '',
    });
    const first = await runCli(['oidc-keys', 'rotate'], env);
    assert.equal(first.stderr, '');
    assert.equal(first.code, 0);
    assert.match(first.stdout, /^Signing key rotated: generation 1 \(kid [\w-]+\) signs ID tokens from \d{4}-\d\d-\d\dT[\d:.]+Z\.\n/);
    assert.match(first.stdout, /^Published: generations 1 \(the newest 3 are kept\): tokens signed before still verify\.$/m);

    const second = JSON.parse((await runCli(['oidc-keys', 'rotate', '--json'], env)).stdout) as Record<string, unknown>;
    assert.equal(second['generation'], 2);
    assert.equal(second['signing'], false);
    assert.deepEqual(second['published'], [2, 1]);
    assert.ok(Date.parse(String(second['signs_from'])) - Date.parse(String(second['created_at'])) === 60_000, 'it signs a minute after the rotation');

    const listed = await runCli(['oidc-keys', 'list'], env);
    const lines = listed.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0] ?? '', /^generation 2 {2}kid [\w-]+ {2}created \S+ {2}signs from \S+$/);
    assert.match(lines[1] ?? '', /^generation 1 {2}kid [\w-]+ {2}created \S+ {2}signs$/);
    assert.ok(!listed.stdout.includes('"d"'), 'no private part is listed');

    await runCli(['oidc-keys', 'rotate'], env);
    const fourth = await runCli(['oidc-keys', 'rotate'], env);
    assert.match(fourth.stdout, /^Published: generations 4, 3, 2 \(the newest 3 are kept\)/m);
    assert.match(fourth.stdout, /^No longer published: generation 1 \(tokens it signed no longer verify\)\.$/m);
    const json = (await runCli(['oidc-keys', 'list', '--json'], env)).stdout.trim().split('\n').map((line) => JSON.parse(line) as { generation: number });
    assert.deepEqual(json.map((key) => key.generation), [4, 3, 2]);

    const unknown = await runCli(['oidc-keys', 'remove'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^Unknown oidc-keys action 'remove'\./);
    const extra = await runCli(['oidc-keys', 'rotate', 'now'], env);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /^oidc-keys rotate: unexpected 'now'\./);
  });

  test('rotate and list through a running portal (its command socket): the new key is kept alongside the one the portal made', async () => {
    const dataDir = join(dir, 'keys-running');
    const portal = startMain(portalEnv(fixture, dataDir));
    try {
      const url = await runningUrl(portal);
      const kids = async () => ((await (await fetch(`${url}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid).sort();
      const [firstKid] = await kids();
      const rotated = await runCli(['oidc-keys', 'rotate', '--json'], { PORTAL_DATA_DIR: dataDir });
      assert.equal(rotated.stderr, '');
      const added = JSON.parse(rotated.stdout) as { kid: string; generation: number };
      assert.equal(added.generation, 2);
      const listed = (await runCli(['oidc-keys', 'list', '--json'], { PORTAL_DATA_DIR: dataDir })).stdout.trim().split('\n').map((line) => JSON.parse(line) as { kid: string });
      assert.deepEqual(listed.map((key) => key.kid).sort(), [firstKid, added.kid].sort());
    } finally {
      portal.child.kill('SIGTERM');
      await portal.exit;
    }
  });
});
