/** Names in the directory: RFC 4514 escaping of RDN values and RFC 4515 escaping of filter values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { directoryLayout, dnValue, filterValue } from '../src/services/provisioning/ldap-names.js';

test("an RDN value escapes what would end it or start another: , + = \" \\ < > ; a leading # or space, a trailing space, NUL", () => {
  assert.equal(dnValue('evil,ou=groups'), 'evil\\,ou\\=groups');
  assert.equal(dnValue('x+cn=admin'), 'x\\+cn\\=admin');
  assert.equal(dnValue('semi;colon<>"q"\\'), 'semi\\;colon\\<\\>\\"q\\"\\\\');
  assert.equal(dnValue('#lead'), '\\#lead');
  assert.equal(dnValue(' both '), '\\ both\\ ');
  assert.equal(dnValue('mid # and space'), 'mid # and space');
  assert.equal(dnValue('nul\0byte'), 'nul\\00byte');
  assert.equal(dnValue('ümlaut'), 'ümlaut', 'UTF-8 stays as it is (RFC 4514 allows it)');
});

test('a filter value escapes * ( ) \\ and NUL as \\XX', () => {
  assert.equal(filterValue('star*(paren)\\back\0'), 'star\\2a\\28paren\\29\\5cback\\00');
});

test("the layout: people and groups under the base, each name one escaped RDN", () => {
  const layout = directoryLayout('dc=example,dc=test');
  assert.equal(layout.personDn('a,b'), 'uid=a\\,b,ou=people,dc=example,dc=test');
  assert.equal(layout.groupDn('ALPHA-team'), 'cn=ALPHA-team,ou=groups,dc=example,dc=test');
});
