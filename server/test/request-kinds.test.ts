import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { REQUEST_KINDS } from '@portal/api';
import { registeredKinds, registerRequestKind, requestKind } from '../src/services/request-kinds/index.js';
import { serverBundle } from './process-helpers.js';

const KINDS_DIR = new URL('../src/services/request-kinds/kinds/', import.meta.url);
const kindOf = (file: string) => /registerRequestKind\(\{\s*kind: '([a-z]+)'/.exec(readFileSync(new URL(file, KINDS_DIR), 'utf8'))?.[1];

test('every module of request-kinds/kinds is loaded, in the order of its file name, with no list naming them', () => {
  const files = readdirSync(KINDS_DIR).sort();
  assert.deepEqual(
    registeredKinds().map((k) => k.kind),
    files.map(kindOf),
  );
  assert.deepEqual([...registeredKinds().map((k) => k.kind)].sort(), [...REQUEST_KINDS].sort(), 'each kind of the table has its module');
});

test("a kind's permissions, decisions and comment limit are the table's", () => {
  const unlock = requestKind('unlock');
  assert.deepEqual(unlock.permissions, { list: 'LIST_UNLOCK_REQUESTS', view: 'VIEW_UNLOCK_REQUEST', adjudicate: 'ADJUDICATE_UNLOCK_REQUEST' });
  assert.deepEqual(unlock.decisions, ['approved', 'denied']);
  assert.equal(unlock.commentLimit, 150);
  assert.deepEqual(requestKind('new').decisions, ['approved', 'denied', 'incomplete']);
  assert.equal(requestKind('new').commentLimit, 1000);
});

test('a module for a kind the table does not hold is refused, by name', () => {
  assert.throws(
    () =>
      registerRequestKind({
        kind: 'servicechange' as never,
        open: ['pending'],
        decidableFrom: ['pending'],
        identifier: () => '',
        detailFields: () => ({}),
        decide: async () => ({ mails: [] }),
      }),
    { message: "The request kind 'servicechange' has a module but no entry in @portal/api's request kinds (REQUEST_KIND_INFO)." },
  );
  assert.throws(() => registerRequestKind({ ...requestKind('unlock') }), { message: "The request kind 'unlock' is registered twice." });
});

test("the server's bundle holds every kind's module and reads no folder for them", () => {
  const main = readFileSync(serverBundle().main, 'utf8');
  for (const file of readdirSync(KINDS_DIR)) {
    assert.match(main, new RegExp(`kinds/${file.replace('.', '\\.')}`), `${file} is in the bundle`);
  }
  assert.doesNotMatch(main, /request-kinds:begin/);
  assert.doesNotMatch(main, /KINDS_DIR/);
});
