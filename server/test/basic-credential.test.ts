/**
 * Reading an HTTP Basic credential as OAuth clients send it (RFC 6749 section 2.3.1): the name and
 * secret form-encoded before base64; anything else is no credential at all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicCredential } from '../src/routes/basic-credential.js';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

test('name and secret are split at the first colon and form-decoded', () => {
  assert.deepEqual(basicCredential(basic('jira:s3cret')), { name: 'jira', secret: 's3cret' });
  assert.deepEqual(basicCredential(basic('my+service:a%3Ab+c:d')), { name: 'my service', secret: 'a:b c:d' });
  assert.deepEqual(basicCredential(basic('ci:')), { name: 'ci', secret: '' });
  // The scheme's name in any case (RFC 9110 section 11.1).
  assert.deepEqual(basicCredential(`BASIC ${Buffer.from('jira:x').toString('base64')}`), { name: 'jira', secret: 'x' });
});

test('a header that is not a Basic credential is none', () => {
  for (const header of [
    undefined,
    '',
    'Bearer abc',
    basic('no-colon'),
    basic(':secret-without-name'),
    basic('bad%zzname:secret'),
    `Basic ${'A'.repeat(1001)}`,
    'Basic not base64!',
  ]) {
    assert.equal(basicCredential(header), undefined, String(header));
  }
});
