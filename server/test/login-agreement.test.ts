/**
 * The login agreement is served, so that nobody agrees to a text they were not shown. GET /accounts/rest/login-agreement answers the
 * file login_agreement_filename names, or the standard notice when none is named; a file that
 * cannot be read is a 500 that is logged, never a silent substitute.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_LOGIN_AGREEMENT } from '@portal/api';
import type { Database } from '../src/db/database.js';
import { createFixture, createTestApp, createTestDatabase, parseLogs } from './helpers.js';

const URL = '/accounts/rest/login-agreement';

describe('GET /accounts/rest/login-agreement', () => {
  const fixture = createFixture();
  let db: Database;
  let dir: string;
  before(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'portal-agreement-'));
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('without a file named: the standard notice, public, no anti-forgery token, not cached', async () => {
    const app = createTestApp({ db, fixture });
    try {
      const response = await app.inject({ method: 'GET', url: URL });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.deepEqual(response.json(), { filename: 'undefined', text: DEFAULT_LOGIN_AGREEMENT });
      assert.match(DEFAULT_LOGIN_AGREEMENT, /^You are accessing a system provided for authorized use only\./);
    } finally {
      await app.close();
    }
  });

  test('the configured file, as plain text with its line breaks (CRLF read as LF); an edit shows without a restart', async () => {
    const file = join(dir, 'agreement.txt');
    writeFileSync(file, '\uFEFFTerms of use\r\n\r\n<b>Not markup</b>: be nice.\r\n');
    const app = createTestApp({ db, fixture, portal: { login_agreement_filename: file } });
    try {
      assert.deepEqual((await app.inject({ method: 'GET', url: URL })).json(), { filename: file, text: 'Terms of use\n\n<b>Not markup</b>: be nice.\n' });
      writeFileSync(file, 'Terms of use, version 2\n');
      assert.deepEqual((await app.inject({ method: 'GET', url: URL })).json(), { filename: file, text: 'Terms of use, version 2\n' });
    } finally {
      await app.close();
    }
  });

  test('a file that cannot be read (missing or empty): 500 with a message a person can act on, and the cause logged', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '  \n');
    for (const name of [join(dir, 'missing.txt'), empty]) {
      const logs: string[] = [];
      const app = createTestApp({ db, fixture, portal: { login_agreement_filename: name }, logs });
      try {
        const response = await app.inject({ method: 'GET', url: URL });
        assert.equal(response.statusCode, 500, name);
        assert.deepEqual(response.json(), { error: 'The login agreement could not be read. Please contact an administrator.', code: 500 });
        assert.ok(!response.body.includes(dir), 'the path is not told');
        assert.ok(parseLogs(logs).some((l) => l.msg === 'the login agreement could not be read' && l.filename === name), name);
      } finally {
        await app.close();
      }
    }
  });
});
