import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { defineRequestKind, type RequestKindDefinition } from '@portal/api';
import { registeredKinds, registerRequestKind, requestKind, type RequestKindModule } from '../src/services/request-kinds/index.js';
import { allPermissions, permissionsOf } from '../src/services/roles.js';
import { serverBundle } from './process-helpers.js';

const KINDS_DIR = new URL('../src/services/request-kinds/kinds/', import.meta.url);
const API_KINDS_DIR = new URL('../../shared/api/src/requests/kinds/', import.meta.url);

/** What each file of @portal/api's requests/kinds/ declares. */
async function declaredKinds(): Promise<RequestKindDefinition[]> {
  const declared: RequestKindDefinition[] = [];
  for (const file of readdirSync(API_KINDS_DIR).sort()) {
    const module = (await import(`@portal/api/request-kinds/${file.replace(/\.ts$/, '')}`)) as Record<string, unknown>;
    declared.push(...Object.values(module).filter((value): value is RequestKindDefinition => typeof value === 'object' && value !== null && 'detail' in value));
  }
  return declared;
}

const UNLOCK_LIKE: RequestKindModule = {
  open: ['pending'],
  decidableFrom: ['pending'],
  identifier: () => '',
  detailFields: () => ({}),
  decide: async () => ({ mails: [] }),
};

test("every module of request-kinds/kinds is loaded with its kind's declaration, and every declared kind has its module, with no list naming them", async () => {
  const modules = readdirSync(KINDS_DIR).sort();
  const declared = await declaredKinds();
  assert.deepEqual(modules, readdirSync(API_KINDS_DIR).sort(), 'a module per declared kind, under the same file name');
  for (const file of modules) {
    assert.match(readFileSync(new URL(file, KINDS_DIR), 'utf8'), new RegExp(`from '@portal/api/request-kinds/${file.replace(/\.ts$/, '')}'`), file);
  }
  // The very declarations (not copies), in their declared order: spec section 3's.
  assert.deepEqual(
    registeredKinds().map((k) => k.declaration),
    [...declared].sort((a, b) => a.order - b.order),
  );
  assert.deepEqual(
    registeredKinds().map((k) => k.kind),
    ['authchange', 'profilechange', 'mailinglist', 'new', 'usergroup', 'unlock', 'membership'],
  );
});

test("a kind's permissions, decisions and comment limit are its declaration's", () => {
  const unlock = requestKind('unlock');
  assert.deepEqual(unlock.permissions, { list: 'LIST_UNLOCK_REQUESTS', view: 'VIEW_UNLOCK_REQUEST', adjudicate: 'ADJUDICATE_UNLOCK_REQUEST' });
  assert.deepEqual(unlock.decisions, ['approved', 'denied']);
  assert.equal(unlock.commentLimit, 150);
  assert.deepEqual(requestKind('new').decisions, ['approved', 'denied', 'incomplete']);
  assert.equal(requestKind('new').commentLimit, 1000);
});

test('a kind registered twice, or two kinds naming the same permissions, are refused, by name', () => {
  assert.throws(() => registerRequestKind(requestKind('unlock').declaration, UNLOCK_LIKE), { message: "The request kind 'unlock' is registered twice." });
  const clash = defineRequestKind({ kind: 'unlockagain', permission: 'UNLOCK', order: 65, decisions: ['approved'], commentLimit: 150, workedBy: [], fields: {} });
  assert.throws(() => registerRequestKind(clash, UNLOCK_LIKE), { message: "The request kinds 'unlock' and 'unlockagain' both name their permissions UNLOCK." });
  assert.equal(registeredKinds().length, 7);
});

test("a kind added by its declaration and its module brings its permissions to the roles that work it, in its order, and to none other", () => {
  const before = permissionsOf(['help-desk']);
  const serviceToken = defineRequestKind({
    kind: 'servicetoken',
    permission: 'SERVICE_TOKEN',
    order: 55,
    decisions: ['approved', 'denied'],
    commentLimit: 150,
    workedBy: ['help-desk'],
    queue: { path: '/list-service-token-requests', listTitle: 'Service Token Requests', detailTitle: 'Service Token Request' },
    fields: {},
  });
  registerRequestKind(serviceToken, UNLOCK_LIKE);
  const added = ['LIST_SERVICE_TOKEN_REQUESTS', 'VIEW_SERVICE_TOKEN_REQUEST', 'ADJUDICATE_SERVICE_TOKEN_REQUEST'];
  const all = allPermissions();
  // After the user groups' (50), before the unlock requests' (60).
  assert.deepEqual(all.slice(all.indexOf('ADJUDICATE_USER_GROUP_REQUEST') + 1, all.indexOf('LIST_UNLOCK_REQUESTS')), added);
  assert.deepEqual(permissionsOf(['help-desk']).filter((p) => !before.includes(p)), added);
  for (const permission of added) {
    assert.ok(permissionsOf(['site-admin']).includes(permission as never), permission);
    assert.ok(!permissionsOf(['adjudicator', 'user']).includes(permission as never), permission);
  }
});

test("the server's bundle holds every kind's module and reads no folder for them", () => {
  const main = readFileSync(serverBundle().main, 'utf8');
  for (const file of readdirSync(KINDS_DIR)) {
    assert.match(main, new RegExp(`kinds/${file.replace('.', '\\.')}`), `${file} is in the bundle`);
  }
  assert.doesNotMatch(main, /request-kinds:begin/);
  assert.doesNotMatch(main, /KINDS_DIR/);
});
